// 云文档 name search (api-contract.md, "Search"): substring, case-insensitive, Chinese keywords
// of 1, 2 and 3+ characters on both databases, renames and the recycle bin, the rights matrix
// on results, every filter, order, paging and the count limit.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { registerSqliteFunctions } from '../src/db/connection';
import { buildMigrations, migrateToLatest } from '../src/db/migrations';
import { gramToken } from '../src/modules/search/grams';
import { nameCount } from '../src/modules/search/names';
import { insertFilesBelow } from './support/items';
import { call, databaseKinds, HAN, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';

describe.each(databaseKinds())('name search (%s)', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let ownerRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ owner, outsider, editor, viewer, ownerRoot, publicRoot } = await roleCast(server.app));
  });
  afterAll(async () => {
    await server?.close();
  });

  const app = () => server.app;
  const create = async (token: string, parentId: string, name: string, type: 'folder' | 'file' = 'file') =>
    ok(app(), 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type } });
  const search = (token: string, query: Record<string, string | number>) =>
    call(app(), 'GET', '/api/User/Search/Files', { token, query: { pageSize: 1000, ...query } as any });
  const found = async (token: string, keyword: string, query: Record<string, string | number> = {}) => {
    const res = await search(token, { keyword, ...query });
    expect(res.status).toBe(200);
    return (res.body.result.data as any[]).map((i) => i.name).sort();
  };
  const expectError = (res: { status: number; body: any }, status: number, code: number) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
  };
  const setPolicies = (fileId: string, policies: { subjectType: number; subjectId: string; level: number }[]) =>
    ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', { token: editor.token, body: { fileId, policies } });

  let base: any;
  beforeAll(async () => {
    base = await create(owner.token, ownerRoot.id, '搜索根', 'folder');
    const sub = await create(owner.token, base.id, '年度资料', 'folder');
    for (const name of ['人民日报.docx', '人民.txt', '日报汇总.xlsx', '民生 Report-2024.PDF', 'report_final.md', '100%完成.txt', 'a_b.txt', 'axb.txt']) {
      await create(owner.token, base.id, name);
    }
    await create(owner.token, sub.id, '年度报告.docx');
  });

  test('Chinese keywords of one, two and three characters; Latin case-insensitive; wildcards are plain text', async () => {
    expect(await found(owner.token, '民')).toEqual(['人民.txt', '人民日报.docx', '民生 Report-2024.PDF']);
    expect(await found(owner.token, '人民')).toEqual(['人民.txt', '人民日报.docx']);
    expect(await found(owner.token, '日报')).toEqual(['人民日报.docx', '日报汇总.xlsx']);
    expect(await found(owner.token, '人民日报')).toEqual(['人民日报.docx']);
    expect(await found(owner.token, '民日')).toEqual(['人民日报.docx']);
    expect(await found(owner.token, 'REPORT')).toEqual(['report_final.md', '民生 Report-2024.PDF']);
    expect(await found(owner.token, 'rt-2')).toEqual(['民生 Report-2024.PDF']);
    expect(await found(owner.token, '.pdf')).toEqual(['民生 Report-2024.PDF']);
    expect(await found(owner.token, 'a_b')).toEqual(['a_b.txt']);
    expect(await found(owner.token, '_')).toEqual(['a_b.txt', 'report_final.md']);
    expect(await found(owner.token, '%')).toEqual(['100%完成.txt']);
    expect(await found(owner.token, '年度')).toEqual(['年度报告.docx', '年度资料']);
    expect(await found(owner.token, '不存在的名字')).toEqual([]);
    // items carry what the file list shows
    const res = await search(owner.token, { keyword: '人民日报' });
    expect(res.body.result).toEqual({ data: [expect.objectContaining({ name: '人民日报.docx', namePath: expect.stringContaining('搜索根/人民日报.docx'), isFavorite: false, tags: [], permissions: expect.arrayContaining(['view']) })], total: 1, limited: false });
  });

  test('a keyword written in the name index\'s query syntax is plain text; a name holding the keyword\'s trigrams only apart is not found', async () => {
    const folder = await create(owner.token, ownerRoot.id, '查询语法', 'folder');
    const names = ['会议 纪要 (终稿).docx', 'a AND b.txt', 'x^y - 1.txt', 'near(ab) OR c.md', 'abcx-bcd.txt', 'abcd.txt'];
    for (const name of names) await create(owner.token, folder.id, name);
    const q = async (keyword: string) => (await found(owner.token, keyword)).filter((n) => names.includes(n));
    expect(await q('纪要 (终')).toEqual(['会议 纪要 (终稿).docx']);
    expect(await q('A AND B')).toEqual(['a AND b.txt']);
    expect(await q('x^y -')).toEqual(['x^y - 1.txt']);
    expect(await q('NEAR(ab) or')).toEqual(['near(ab) OR c.md']);
    // a double quote (no name holds one) finds nothing, and is no error
    expect(await q('"纪要"')).toEqual([]);
    expect(await q('abc"')).toEqual([]);
    // abc and bcd are both in abcx-bcd, but not abcd
    expect(await q('abcd')).toEqual(['abcd.txt']);
    expect(await q('bcd')).toEqual(['abcd.txt', 'abcx-bcd.txt']);
  });

  test('a rename is found by its new name at once and no longer by its old one; the recycle bin is never searched', async () => {
    const file = await create(owner.token, base.id, '旧名称甲.txt');
    expect(await found(owner.token, '旧名称')).toEqual(['旧名称甲.txt']);
    await ok(app(), 'PUT', `/api/User/Files/Rename/${file.id}`, { token: owner.token, query: { fileName: '新标题乙.txt' } });
    expect(await found(owner.token, '旧名称')).toEqual([]);
    expect(await found(owner.token, '新标题')).toEqual(['新标题乙.txt']);
    expect(await found(owner.token, '乙')).toEqual(['新标题乙.txt']);
    await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [file.id] });
    expect(await found(owner.token, '新标题')).toEqual([]);
    await ok(app(), 'POST', '/api/User/Recycle/Restore', { token: owner.token, body: [file.id] });
    expect(await found(owner.token, '新标题')).toEqual(['新标题乙.txt']);
    await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [file.id] });
    await ok(app(), 'DELETE', '/api/User/Recycle', { token: owner.token, body: [file.id] });
    expect(await found(owner.token, '新标题')).toEqual([]);
  });

  test('rights: nobody finds another user’s personal files; an enterprise reader finds only what policies let them read', async () => {
    expect(await found(outsider.token, '人民')).toEqual([]);
    expect(await found(editor.token, '人民')).toEqual([]);
    expect(await found(viewer.token, '年度')).toEqual([]);

    const top = await create(editor.token, publicRoot.id, '权限矩阵', 'folder');
    const open = await create(editor.token, top.id, '公开区', 'folder');
    const closed = await create(editor.token, top.id, '保密区', 'folder');
    const inner = await create(editor.token, closed.id, '保密区内开放', 'folder');
    await create(editor.token, open.id, '矩阵文件一.txt');
    await create(editor.token, closed.id, '矩阵文件二.txt');
    await create(editor.token, inner.id, '矩阵文件三.txt');
    const all = ['保密区内开放', '矩阵文件一.txt', '矩阵文件三.txt', '矩阵文件二.txt'];
    expect(await found(viewer.token, '矩阵文件')).toEqual(all.filter((n) => n.startsWith('矩阵')));

    // the closed folder gives the viewer nothing; a list further down gives them reading again
    await setPolicies(closed.id, [{ subjectType: 1, subjectId: editor.userId, level: 4 }]);
    await setPolicies(inner.id, [{ subjectType: 1, subjectId: viewer.userId, level: 1 }]);
    expect(await found(viewer.token, '矩阵文件')).toEqual(['矩阵文件一.txt', '矩阵文件三.txt']);
    expect(await found(viewer.token, '保密区')).toEqual(['保密区内开放']);
    expect(await found(outsider.token, '矩阵文件')).toEqual(['矩阵文件一.txt']);
    // the document administrator finds everything
    expect(await found(editor.token, '矩阵文件')).toEqual(['矩阵文件一.txt', '矩阵文件三.txt', '矩阵文件二.txt']);
    // a folder the caller cannot see cannot be searched below
    expectError(await search(outsider.token, { keyword: '矩阵', folderId: closed.id }), 404, 404);
    expectError(await search(outsider.token, { keyword: '人民', folderId: base.id }), 404, 404);
  });

  test('an extension filter finds the same names however the name index narrows it: the keyword inside the extension, upper case, one-letter, non-ASCII and mixed extensions', async () => {
    const folder = await create(owner.token, ownerRoot.id, '扩展名筛选', 'folder');
    const names = ['docx说明.docx', '说明.DOCX', 'x.docx', 'docs.docx.zip', 'readme.c', 'ab.c', 'plan.md', 'plan.md.txt', '图.ｐｄｆ'];
    for (const name of names) await create(owner.token, folder.id, name);
    // over the whole space, so that the name index drives the search (a folder this small would be
    // read along its own range instead); the names of this folder among the results
    const q = async (keyword: string, extension: string) => (await found(owner.token, keyword, { extension })).filter((n) => names.includes(n));
    // trigrams: the keyword is part of the extension itself
    expect(await q('docx', 'docx')).toEqual(['docx说明.docx', 'x.docx', '说明.DOCX']);
    expect(await q('docx', 'zip')).toEqual(['docs.docx.zip']);
    // two-character and one-character tokens
    expect(await q('说明', 'docx')).toEqual(['docx说明.docx', '说明.DOCX']);
    expect(await q('明', 'DOCX,c')).toEqual(['docx说明.docx', '说明.DOCX']);
    expect(await q('a', 'c')).toEqual(['ab.c', 'readme.c']);
    expect(await q('x', '.docx')).toEqual(['docx说明.docx', 'x.docx', '说明.DOCX']);
    // a one-letter extension with a longer keyword; an extension inside the name is not the name's
    expect(await q('readme', 'c')).toEqual(['readme.c']);
    expect(await q('plan', 'md')).toEqual(['plan.md']);
    expect(await q('plan', 'txt')).toEqual(['plan.md.txt']);
    expect(await q('plan', 'md,txt')).toEqual(['plan.md', 'plan.md.txt']);
    // an extension the index cannot spell, alone or with others
    expect(await q('图', 'ｐｄｆ')).toEqual(['图.ｐｄｆ']);
    expect(await q('plan', 'md,ｐｄｆ')).toEqual(['plan.md']);
    // more extensions than the trigram table is narrowed for
    expect(await q('plan', 'md,a1,b2,c3,d4')).toEqual(['plan.md']);
  });

  test('filters: space, folder subtree, type, extension, size, dates, owner and tags', async () => {
    const q = (query: Record<string, string | number>) => found(owner.token, '报', query);
    expect(await q({})).toEqual(['人民日报.docx', '年度报告.docx', '日报汇总.xlsx']);
    expect(await q({ spaceType: 1 })).toEqual([]);
    expect(await q({ spaceType: 2 })).toEqual(['人民日报.docx', '年度报告.docx', '日报汇总.xlsx']);
    const sub = (await ok(app(), 'GET', `/api/User/Folders/${base.id}/Items`, { token: owner.token, query: { keyword: '年度资料' } })).items.data[0];
    expect(await q({ folderId: sub.id })).toEqual(['年度报告.docx']);
    expect(await found(owner.token, '年度', { type: 'folder' })).toEqual(['年度资料']);
    expect(await found(owner.token, '年度', { type: 'file' })).toEqual(['年度报告.docx']);
    expect(await q({ extension: 'xlsx' })).toEqual(['日报汇总.xlsx']);
    expect(await q({ extension: '.DOCX,xlsx' })).toEqual(['人民日报.docx', '年度报告.docx', '日报汇总.xlsx']);

    const big = (await ok(app(), 'GET', `/api/User/Folders/${base.id}/Items`, { token: owner.token, query: { keyword: '日报汇总' } })).items.data[0];
    await app().db.updateTable('items').set({ size: 5000, updated_at: Date.parse('2025-03-15T04:00:00Z') }).where('id', '=', Number(big.id)).execute();
    expect(await q({ sizeMin: 4000 })).toEqual(['日报汇总.xlsx']);
    expect(await q({ sizeMax: 4000 })).toEqual(['人民日报.docx', '年度报告.docx']);
    expect(await q({ updatedFrom: '2025-03-15', updatedTo: '2025-03-15' })).toEqual(['日报汇总.xlsx']);
    expect(await q({ updatedTo: '2025-03-14' })).toEqual([]);
    expect(await q({ updatedFrom: '2025-03-16' })).toEqual(['人民日报.docx', '年度报告.docx']);
    expect(await q({ ownerId: owner.userId })).toHaveLength(3);
    expect(await q({ ownerId: outsider.userId })).toEqual([]);

    const tag = await ok(app(), 'POST', '/api/User/Tags', { token: owner.token, body: { name: '搜索标签', color: '#1677ff' } });
    const tag2 = await ok(app(), 'POST', '/api/User/Tags', { token: owner.token, body: { name: '搜索标签二', color: '#1677ff' } });
    await ok(app(), 'POST', '/api/User/Tags/Files', { token: owner.token, body: { fileIds: [big.id], tagIds: [tag.id, tag2.id] } });
    expect(await q({ tagIds: tag.id })).toEqual(['日报汇总.xlsx']);
    expect(await q({ tagIds: `${tag.id},${tag2.id}` })).toEqual(['日报汇总.xlsx']);
    expect((await search(owner.token, { keyword: '报', tagIds: tag.id })).body.result.data[0].tags.map((t: any) => t.name)).toEqual(['搜索标签', '搜索标签二']);
    // another user's tag is not a filter they may use
    expectError(await search(outsider.token, { keyword: '报', tagIds: tag.id }), 400, 40001);

    expectError(await search(owner.token, { keyword: '报', updatedFrom: '2025/03/15' }), 400, 40001);
    expectError(await search(owner.token, { keyword: '报', updatedFrom: '2025-03-16', updatedTo: '2025-03-15' }), 400, 40001);
    expectError(await search(owner.token, { keyword: '报', sizeMin: 10, sizeMax: 1 }), 400, 40001);
  });

  test('the keyword is required and bounded; the answer is paged, newest first unless asked otherwise', async () => {
    expectError(await search(owner.token, { keyword: '   ' }), 400, 40001);
    expectError(await search(owner.token, { keyword: '长'.repeat(101) }), 400, 40001);
    expectError(await call(app(), 'GET', '/api/User/Search/Files', { token: owner.token }), 400, 40001);
    expectError(await call(app(), 'GET', '/api/User/Search/Files', { query: { keyword: '人民' } as any }), 401, 401);

    const dir = await create(owner.token, base.id, '分页', 'folder');
    const now = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const f = await create(owner.token, dir.id, `分页文件${i}.txt`);
      await app().db.updateTable('items').set({ updated_at: now - i * 60_000, size: i * 10 }).where('id', '=', Number(f.id)).execute();
      ids.push(f.id);
    }
    const page = async (query: Record<string, string | number>) => (await search(owner.token, { keyword: '分页文件', ...query })).body.result;
    const first = await page({ page: 1, pageSize: 2 });
    expect(first.total).toBe(5);
    expect(first.data.map((i: any) => i.id)).toEqual(ids.slice(0, 2));
    expect((await page({ page: 3, pageSize: 2 })).data.map((i: any) => i.id)).toEqual(ids.slice(4));
    // a page past the matches is empty and still counts them
    expect(await page({ page: 4, pageSize: 2 })).toEqual({ data: [], total: 5, limited: false });
    expect((await page({ sortField: 'name', pageSize: 5 })).data.map((i: any) => i.name)).toEqual([0, 1, 2, 3, 4].map((i) => `分页文件${i}.txt`));
    expect((await page({ sortField: 'size', sortOrder: 'desc', pageSize: 5 })).data.map((i: any) => i.id)).toEqual([...ids].reverse());
  });

  test('a narrow folder or date filter with a common keyword, or with a rare one, finds the same as the plain definition', async () => {
    // SQLite drives a search by the filter's index when the keyword is common, by the name index when it is rare
    const dir = await create(owner.token, base.id, '驱动测试', 'folder');
    const inner = await create(owner.token, dir.id, '驱动子目录', 'folder');
    const day = (d: number) => Date.parse(`2024-01-${String(d).padStart(2, '0')}T04:00:00Z`);
    const made: { name: string; updated: number; size: number }[] = [];
    for (let i = 1; i <= 24; i++) {
      const name = `驱动文件${String(i).padStart(2, '0')}.txt`;
      const f = await create(owner.token, i % 3 ? dir.id : inner.id, name);
      made.push({ name, updated: day(i), size: (i * 7) % 10 });
      await app().db.updateTable('items').set({ updated_at: day(i), size: (i * 7) % 10 }).where('id', '=', Number(f.id)).execute();
    }
    const rare = await create(owner.token, dir.id, '独有名称.txt');
    await app().db.updateTable('items').set({ updated_at: day(5) }).where('id', '=', Number(rare.id)).execute();
    // the same names outside the folder, and on other days
    for (let i = 1; i <= 6; i++) await create(owner.token, base.id, `驱动外部${i}.txt`);

    const inFolder = made.map((m) => m.name);
    expect(await found(owner.token, '驱动', { folderId: dir.id, type: 'file' })).toEqual(inFolder);
    expect(await found(owner.token, '驱动文件', { folderId: dir.id })).toEqual(inFolder);
    expect(await found(owner.token, '驱动', { folderId: inner.id })).toEqual(inFolder.filter((_, i) => (i + 1) % 3 === 0));
    expect(await found(owner.token, '独有', { folderId: dir.id })).toEqual(['独有名称.txt']);
    expect(await found(owner.token, '独有', { folderId: inner.id })).toEqual([]);
    expect(await found(owner.token, '驱动', { updatedFrom: '2024-01-03', updatedTo: '2024-01-07' })).toEqual(inFolder.slice(2, 7));
    expect(await found(owner.token, '独有', { updatedFrom: '2024-01-05', updatedTo: '2024-01-05' })).toEqual(['独有名称.txt']);
    expect(await found(owner.token, '驱动', { folderId: dir.id, updatedFrom: '2024-01-20', type: 'file' })).toEqual(inFolder.slice(19));

    // order and paging along the filter's index
    const page = async (query: Record<string, string | number>) =>
      ((await search(owner.token, { keyword: '驱动', folderId: dir.id, type: 'file', ...query })).body.result.data as any[]).map((i) => i.name);
    expect(await page({ pageSize: 3 })).toEqual(inFolder.slice(-3).reverse());
    expect(await page({ pageSize: 3, page: 8 })).toEqual(inFolder.slice(0, 3).reverse());
    expect(await page({ sortField: 'name', pageSize: 4, page: 2 })).toEqual(inFolder.slice(4, 8));
    const bySize = [...made].sort((a, b) => b.size - a.size || b.updated - a.updated).map((m) => m.name);
    expect((await page({ sortField: 'size', sortOrder: 'desc', pageSize: 24 })).map((n) => made.find((m) => m.name === n)!.size)).toEqual(
      bySize.map((n) => made.find((m) => m.name === n)!.size),
    );
  });

  // SQLite only: PostgreSQL's planner counts for itself (the term tables are FTS5's)
  if (kind === 'sqlite') {
    test('how common a keyword is, from the name indexes: exact for 1–2 characters, for more the names holding every trigram (never fewer than hold it), up to a cap', async () => {
      // the count decides which index drives a search with a narrow filter: one below the real
      // number of names would send a common keyword through its own index
      const dir = await create(owner.token, base.id, '词频', 'folder');
      const names = ['词频统计甲.txt', '词频统计乙.TXT', '统计报表.xlsx', 'Minutes-词频.md', 'minutes 2024.doc', '会议minutes.pdf', 'qrsx-rst.txt'];
      for (const name of names) await create(owner.token, dir.id, name);
      const everyName = (await app().db.selectFrom('items').select('name_key').execute()).map((r) => r.name_key);
      const atMost = async (keyword: string, cap?: number) => Number((await nameCount(keyword, cap).execute(app().db)).rows[0].n);
      const holding = (keyword: string) => everyName.filter((n) => n.includes(keyword.toLowerCase())).length;
      for (const keyword of ['词', '词频', '统计', 'm', 'mi', '2']) expect({ keyword, n: await atMost(keyword) }).toEqual({ keyword, n: holding(keyword) });
      for (const keyword of ['词频统', '词频统计', 'minutes', 'MINUTES', '统计报表', '.txt']) {
        const n = await atMost(keyword);
        expect({ keyword, enough: n >= holding(keyword) && holding(keyword) > 0 }).toEqual({ keyword, enough: true });
      }
      // trigrams each in some name, but never together, count nothing; apart in one name, that name
      expect(await atMost('统计甲乙')).toBe(0);
      expect({ n: await atMost('qrst'), holding: holding('qrst') }).toEqual({ n: 1, holding: 0 });
      expect(await atMost('没有这个名称')).toBe(0);
      // a longer keyword's count stops at the cap
      expect(await atMost('minutes', 2)).toBe(2);
      // renamed and deleted names count no more
      const gone = await create(owner.token, dir.id, '临时唯一名字.txt');
      expect(await atMost('临时唯一名')).toBe(1);
      await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [gone.id] });
      await ok(app(), 'DELETE', '/api/User/Recycle', { token: owner.token, body: [gone.id] });
      expect(await atMost('临时唯一名')).toBe(0);
    });
  }

  test('counts stop at 10000: more matches say limited, and pages beyond are empty', async () => {
    const dir = await create(owner.token, base.id, '大量', 'folder');
    const row = await app().db.selectFrom('items').selectAll().where('id', '=', Number(dir.id)).executeTakeFirstOrThrow();
    const now = Date.now();
    const files = Array.from({ length: 10_005 }, (_, i) => ({ name: `海量条目${String(i).padStart(5, '0')}.log`, extension: 'log', createdAt: now, updatedAt: now - i }));
    await insertFilesBelow(app().db, row, files);
    const res = (await search(owner.token, { keyword: '海量', pageSize: 10 })).body.result;
    expect({ total: res.total, limited: res.limited, first: res.data[0].name }).toEqual({ total: 10_000, limited: true, first: '海量条目00000.log' });
    expect((await search(owner.token, { keyword: '海量', page: 1001, pageSize: 10 })).body.result).toEqual({ data: [], total: 10_000, limited: true });
    const last = (await search(owner.token, { keyword: '海量', page: 1000, pageSize: 10 })).body.result;
    expect({ total: last.total, limited: last.limited, first: last.data[0].name, n: last.data.length }).toEqual({ total: 10_000, limited: true, first: '海量条目09990.log', n: 10 });
    expect((await search(owner.token, { keyword: '海量条目00042' })).body.result).toMatchObject({ total: 1, limited: false });
  }, 120_000);
});

test('upgrading an existing SQLite database indexes the names already there', async () => {
  const sqlite = new Database(':memory:');
  registerSqliteFunctions(sqlite);
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const all = buildMigrations('sqlite');
    const before = Object.keys(all).sort().filter((n) => n < '2026-11-24-0012');
    const migrator = new Migrator({ db, provider: { getMigrations: async () => Object.fromEntries(before.map((n) => [n, all[n]])) } });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const now = Date.now();
    const user = await db
      .insertInto('users')
      .values({ user_name: 'old', user_name_key: 'old', nick_name: '老用户', password_hash: 'x', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('items')
      .values({ space_type: 2, owner_id: user.id, name: '旧的年度报告.docx', name_key: '旧的年度报告.docx', type: 'file', type_order: 1, created_at: now, updated_at: now })
      .execute();
    await migrateToLatest(db, 'sqlite');
    const grams = await sql<{ rowid: number }>`select rowid from items_name_grams where items_name_grams match ${`"${gramToken('年度')}"`}`.execute(db);
    const trigram = await sql<{ rowid: number }>`select rowid from items_name_trigram where name_key like '%年度报告%'`.execute(db);
    expect({ grams: grams.rows.length, trigram: trigram.rows.length }).toEqual({ grams: 1, trigram: 1 });
  } finally {
    await db.destroy();
  }
});
