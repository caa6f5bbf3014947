// 云文档 full-text search (api-contract.md, "Search"): text extracted in the background from
// txt (UTF-8 and GB18030), code, docx, xlsx, pptx and pdf that the tests make; a file that
// fails to parse is recorded and skipped; new versions replace the text; Chinese keywords of
// 1, 2 and 3+ characters; snippets; rights; the recycle bin; the queue survives a restart.
import { sql } from 'kysely';
import { extractForSearch, TEXT_LIMIT } from '../src/modules/search/extract';
import { rebuildSearch } from '../src/modules/search/rebuild';
import { makeFile, setContent } from './support/content';
import { docx, pdf, pptx, xlsx } from './support/documents';
import { call, databaseKinds, HAN, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';
import { uploadFile } from './support/uploads';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

test('extraction keeps at most TEXT_LIMIT characters and says the text was cut', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'extract-')), 'big.txt');
  fs.writeFileSync(file, '文'.repeat(TEXT_LIMIT + 10));
  const { text, truncated } = await extractForSearch(file, 'txt');
  expect({ length: [...text].length, truncated }).toEqual({ length: TEXT_LIMIT, truncated: true });
  fs.writeFileSync(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
  await expect(extractForSearch(file, 'txt')).rejects.toThrow(/不是文本文件/);
});

describe.each(databaseKinds())('full-text search (%s)', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let ownerRoot: any;
  let publicRoot: any;
  let dir: any;

  beforeAll(async () => {
    // the background timer is off: each test drains the queue itself
    server = await startServer(kind, { env: { SEARCH_INDEX_POLL_MS: '0' } });
    ({ owner, outsider, editor, viewer, ownerRoot, publicRoot } = await roleCast(server.app));
    dir = await ok(server.app, 'POST', '/api/User/Files/CreateFile', { token: owner.token, body: { parentId: ownerRoot.id, name: '全文', type: 'folder' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const app = () => server.app;
  const drain = () => app().services.contentIndex.drain();
  const search = (token: string, query: Record<string, string | number>) =>
    call(app(), 'GET', '/api/User/Search/Content', { token, query: { pageSize: 1000, ...query } as any });
  const found = async (token: string, keyword: string, query: Record<string, string | number> = {}) => {
    const res = await search(token, { keyword, ...query });
    expect(res.status).toBe(200);
    return (res.body.result.data as any[]).map((i) => i.name).sort();
  };
  const text = async (id: string) => app().db.selectFrom('item_texts').selectAll().where('item_id', '=', Number(id)).executeTakeFirst();

  test('every supported format is read in the background and found by a word inside it', async () => {
    const gbk = Buffer.from([0xc4, 0xea, 0xb6, 0xc8, 0xd4, 0xa4, 0xcb, 0xe3]); // 年度预算 in GB18030
    const files: [string, Buffer | string][] = [
      ['说明.txt', '本季度的采购计划已经批准，请各部门执行。'],
      ['旧系统导出.txt', Buffer.concat([Buffer.from('2025 '), gbk, Buffer.from(' ok')])],
      ['notes.md', '# Roadmap\nShip the Zebra importer in March.'],
      ['main.py', 'def settle_invoice(amount):\n    return amount  # 结算发票'],
      ['合同.docx', await docx('甲方与乙方签订软件维护合同')],
      ['报表.xlsx', await xlsx(['营业收入', '净利润增长'])],
      ['汇报.pptx', await pptx('第三季度市场推广总结')],
      ['manual.pdf', pdf('Quarterly budget review for Contoso')],
      ['图片.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])],
    ];
    for (const [name, bytes] of files) await makeFile(app(), owner.token, owner.userId, dir.id, name, bytes);
    // nothing is searchable before the worker has read it: extraction is off the request path
    expect(await found(owner.token, '采购计划')).toEqual([]);
    await drain();
    expect(await found(owner.token, '采购计划')).toEqual(['说明.txt']);
    expect(await found(owner.token, '年度预算')).toEqual(['旧系统导出.txt']);
    expect(await found(owner.token, 'zebra')).toEqual(['notes.md']);
    expect(await found(owner.token, 'settle_invoice')).toEqual(['main.py']);
    expect(await found(owner.token, '维护合同')).toEqual(['合同.docx']);
    expect(await found(owner.token, '净利润')).toEqual(['报表.xlsx']);
    expect(await found(owner.token, '市场推广')).toEqual(['汇报.pptx']);
    expect(await found(owner.token, 'BUDGET review')).toEqual(['manual.pdf']);
    // an image has no text and is not queued for reading
    const png = (await app().db.selectFrom('items').select('id').where('name', '=', '图片.png').executeTakeFirstOrThrow()).id;
    expect(await text(String(png))).toBeUndefined();
  });

  test('Chinese keywords of one, two and three characters; snippets around the hit', async () => {
    expect(await found(owner.token, '签')).toEqual(['合同.docx']);
    expect(await found(owner.token, '乙方')).toEqual(['合同.docx']);
    expect(await found(owner.token, '发票')).toEqual(['main.py']);
    expect(await found(owner.token, '第三季度')).toEqual(['汇报.pptx']);
    expect(await found(owner.token, '季度')).toEqual(['汇报.pptx', '说明.txt']);
    const res = (await search(owner.token, { keyword: '维护' })).body.result;
    expect(res.data).toEqual([expect.objectContaining({ name: '合同.docx', highlight: expect.stringContaining('软件维护合同') })]);
    // a long text gives a stretch around the hit, marked where it goes on
    const long = `${'前文'.repeat(200)}关键的审计结论在这里${'后文'.repeat(200)}`;
    await makeFile(app(), owner.token, owner.userId, dir.id, '长文.txt', long);
    await drain();
    const hit = (await search(owner.token, { keyword: '审计结论' })).body.result.data[0];
    expect(hit.highlight).toMatch(/^….*关键的审计结论在这里.*…$/);
    expect(hit.highlight.length).toBeLessThan(130);
  });

  test('Latin and digit keywords of one and two characters, in any case, and only where the text has them', async () => {
    await makeFile(app(), owner.token, owner.userId, dir.id, '短词.txt', 'Our AI pilot, v2 (final).\nX-ray 7 é');
    await drain();
    expect(await found(owner.token, 'ai')).toContain('短词.txt');
    expect(await found(owner.token, 'V2')).toEqual(['短词.txt']);
    expect(await found(owner.token, 'x-')).toEqual(['短词.txt']);
    expect(await found(owner.token, '7')).toEqual(['短词.txt']);
    expect(await found(owner.token, 'É')).toEqual(['短词.txt']);
    // pairs are made within words, not across the spaces between them
    expect(await found(owner.token, '7É')).toEqual([]);
    expect(await found(owner.token, 'q')).toEqual(['manual.pdf']);
    const res = (await search(owner.token, { keyword: 'v2' })).body.result;
    expect(res.data[0].highlight).toContain('v2 (final)');
  });

  test('a real upload is indexed; a new version replaces the old text; a broken file is recorded and skipped', async () => {
    const uploaded = await uploadFile(app(), { token: owner.token }, dir.id, '上传的纪要.txt', Buffer.from('会议决定启动鲲鹏项目'), 5 * 1024 * 1024);
    await drain();
    expect(await found(owner.token, '鲲鹏项目')).toEqual(['上传的纪要.txt']);
    await setContent(app(), uploaded.id ?? uploaded.fileId, Buffer.from('会议决定暂停麒麟项目'), owner.userId);
    await drain();
    expect(await found(owner.token, '鲲鹏项目')).toEqual([]);
    expect(await found(owner.token, '麒麟项目')).toEqual(['上传的纪要.txt']);

    const broken = await makeFile(app(), owner.token, owner.userId, dir.id, '损坏.docx', Buffer.from('这不是一个压缩包'));
    await makeFile(app(), owner.token, owner.userId, dir.id, '其后.txt', '坏文件之后的文件照常处理');
    await drain();
    expect(await text(broken.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(HAN) });
    expect(await found(owner.token, '照常处理')).toEqual(['其后.txt']);
    expect(await app().db.selectFrom('content_jobs').selectAll().execute()).toEqual([]);
  });

  test('only what the caller may read; never the recycle bin; filters apply', async () => {
    expect(await found(outsider.token, '采购计划')).toEqual([]);
    const pub = await ok(app(), 'POST', '/api/User/Files/CreateFile', { token: editor.token, body: { parentId: publicRoot.id, name: '全文权限', type: 'folder' } });
    const closed = await ok(app(), 'POST', '/api/User/Files/CreateFile', { token: editor.token, body: { parentId: pub.id, name: '保密', type: 'folder' } });
    await makeFile(app(), editor.token, editor.userId, pub.id, '公开制度.txt', '差旅报销标准');
    await makeFile(app(), editor.token, editor.userId, closed.id, '保密制度.txt', '差旅报销例外');
    await drain();
    expect(await found(viewer.token, '差旅报销')).toEqual(['保密制度.txt', '公开制度.txt']);
    await ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', {
      token: editor.token,
      body: { fileId: closed.id, policies: [{ subjectType: 1, subjectId: editor.userId, level: 4 }] },
    });
    expect(await found(viewer.token, '差旅报销')).toEqual(['公开制度.txt']);
    expect(await found(viewer.token, '差旅报销', { extension: 'docx' })).toEqual([]);
    expect(await found(editor.token, '差旅报销', { folderId: closed.id })).toEqual(['保密制度.txt']);

    const gone = (await app().db.selectFrom('items').select('id').where('name', '=', '说明.txt').executeTakeFirstOrThrow()).id;
    await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [String(gone)] });
    expect(await found(owner.token, '采购计划')).toEqual([]);
    await ok(app(), 'POST', '/api/User/Recycle/Restore', { token: owner.token, body: [String(gone)] });
    expect(await found(owner.token, '采购计划')).toEqual(['说明.txt']);
  });

  test('queued work outlives a restart: a job leased by a stopped instance is taken up after its lease', async () => {
    const file = await makeFile(app(), owner.token, owner.userId, dir.id, '重启.txt', '重启之后仍然可以搜到');
    // another instance took the job and died: its lease runs out
    await app().db.updateTable('content_jobs').set({ lease_until: Date.now() + 60_000, attempts: 1 }).where('item_id', '=', Number(file.id)).execute();
    await drain();
    expect(await found(owner.token, '仍然可以')).toEqual([]);
    await app().services.contentIndex.drain(Date.now() + 61_000);
    expect(await found(owner.token, '仍然可以')).toEqual(['重启.txt']);
  });

  test('the rebuild restores damaged indexes and reads every file again', async () => {
    if (kind === 'sqlite') {
      await sql`delete from items_name_grams`.execute(app().db);
      await sql`delete from item_texts_grams`.execute(app().db);
      expect(await found(owner.token, '季度')).toEqual([]);
    }
    const lines: string[] = [];
    const { files } = await rebuildSearch(app().db, kind, app().services.contentIndex, (l) => lines.push(l));
    expect(files).toBeGreaterThan(10);
    expect(lines.at(-1)).toMatch(/全文索引：成功 \d+，失败 1，跳过 0，待处理 0/);
    expect(await found(owner.token, '季度')).toEqual(['汇报.pptx', '说明.txt']);
    const names = await call(app(), 'GET', '/api/User/Search/Files', { token: owner.token, query: { keyword: '合同' } as any });
    expect(names.body.result.data.map((i: any) => i.name)).toEqual(['合同.docx']);
  });

  test('the keyword is required', async () => {
    const res = await search(owner.token, { keyword: ' ' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 40001 });
    expect(res.body.message).toMatch(HAN);
  });
});
