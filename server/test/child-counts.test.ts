// 云文档 live child counts: every folder keeps how many live folders and files it holds
// (items.child_folders / child_files), kept by every write that changes a folder's live
// children, and the unfiltered folder listing takes its total and folder/file split from them.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { buildMigrations, migrateToLatest } from '../src/db/migrations';
import { registerSqliteFunctions } from '../src/db/connection';
import { call, databaseKinds, HAN, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';

/** An in-memory database with the SQL functions the schema's triggers call. */
function sqliteWithFunctions() {
  const sqlite = new Database(':memory:');
  registerSqliteFunctions(sqlite);
  return sqlite;
}

type User = TestUser;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Mismatch {
  id: number;
  stored: [number, number];
  live: [number, number];
}

/** Every item whose stored counts differ from a plain recount of its live children. */
async function countMismatches(db: Kysely<any>): Promise<Mismatch[]> {
  const { rows } = await sql<{ id: number; child_folders: number; child_files: number; live_folders: number; live_files: number }>`
    select p.id, p.child_folders, p.child_files,
      (select count(*) from items c where c.parent_id = p.id and c.deleted_at is null and c.type_order = 0) as live_folders,
      (select count(*) from items c where c.parent_id = p.id and c.deleted_at is null and c.type_order <> 0) as live_files
    from items p order by p.id`.execute(db);
  return rows
    .map((r) => ({
      id: Number(r.id),
      stored: [Number(r.child_folders), Number(r.child_files)] as [number, number],
      live: [Number(r.live_folders), Number(r.live_files)] as [number, number],
    }))
    .filter((r) => r.stored[0] !== r.live[0] || r.stored[1] !== r.live[1]);
}

test('upgrading an existing database fills in the live child counts of every item', async () => {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqliteWithFunctions() }) });
  try {
    const all = buildMigrations('sqlite');
    const names = Object.keys(all).sort();
    const before = names.filter((n) => n < '2026-11-21-0003');
    expect(before.length).toBeLessThan(names.length);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => Object.fromEntries(before.map((n) => [n, all[n]])) } });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const now = Date.now();
    const user = await db
      .insertInto('users')
      .values({ user_name: 'old_user', user_name_key: 'old_user', nick_name: '老用户', password_hash: 'x', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = async (parentId: number | null, name: string, type: 'folder' | 'file', deleted = false) =>
      (
        await db
          .insertInto('items')
          .values({
            parent_id: parentId, space_type: 2, owner_id: user.id, name, name_key: name, type, type_order: type === 'folder' ? 0 : 1,
            created_at: now, updated_at: now, deleted_at: deleted ? now : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id as number;
    const root = await item(null, '', 'folder');
    const dir = await item(root, '目录', 'folder');
    await item(root, '另一个目录', 'folder');
    await item(root, '删掉的目录', 'folder', true);
    await item(root, '文件.txt', 'file');
    await item(dir, '子.txt', 'file');
    await item(dir, '删掉的.txt', 'file', true);
    await migrateToLatest(db, 'sqlite');
    const counts = await db.selectFrom('items').select(['id', 'child_folders', 'child_files']).where('id', 'in', [root, dir]).orderBy('id').execute();
    expect(counts.map((r) => [Number(r.child_folders), Number(r.child_files)])).toEqual([
      [2, 1],
      [0, 1],
    ]);
    expect(await countMismatches(db)).toEqual([]);
  } finally {
    await db.destroy();
  }
});

describe.each(databaseKinds())('live child counts (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let owner: User;
  let outsider: User;
  let editor: User; // enterprise editor, with a personal space too
  let ownerRoot: any;
  let editorRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ adminToken, owner, outsider, editor, ownerRoot, editorRoot, publicRoot } = await roleCast(server.app));
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.app.db as unknown as Kysely<any>;
  const expectCountsRight = async () => expect(await countMismatches(db())).toEqual([]);
  const create = async (token: string, parentId: string, name: string, type: 'folder' | 'file' = 'folder') =>
    ok(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type } });
  const remove = (token: string, ids: string[]) => ok(server.app, 'DELETE', '/api/User/Files', { token, body: ids });
  const op = (what: 'Move' | 'Copy', token: string, body: Record<string, unknown>) => call(server.app, 'POST', `/api/User/Files/${what}`, { token, body });
  const restore = (token: string, ids: string[]) => call(server.app, 'POST', '/api/User/Recycle/Restore', { token, body: ids });
  const purge = (token: string, ids: string[]) => call(server.app, 'DELETE', '/api/User/Recycle', { token, body: ids });
  const list = (token: string, id: string, query: Record<string, string | number> = {}) =>
    ok(server.app, 'GET', `/api/User/Folders/${id}/Items`, { token, query });
  const stored = async (id: string) => {
    const r = await db().selectFrom('items').select(['child_folders', 'child_files']).where('id', '=', Number(id)).executeTakeFirstOrThrow();
    return [Number(r.child_folders), Number(r.child_files)];
  };
  const snapshot = async () =>
    (await db().selectFrom('items').select(['id', 'parent_id', 'deleted_at', 'child_folders', 'child_files']).orderBy('id').execute()).map((r) => ({
      ...r,
      id: Number(r.id),
      parent_id: r.parent_id === null ? null : Number(r.parent_id),
      deleted_at: r.deleted_at === null ? null : Number(r.deleted_at),
      child_folders: Number(r.child_folders),
      child_files: Number(r.child_files),
    }));
  /** a folder with two subfolders (one with a file and a folder) and two files */
  const tree = async (token: string, parentId: string, name: string) => {
    const top = await create(token, parentId, name);
    const a = await create(token, top.id, '子甲');
    await create(token, top.id, '子乙');
    await create(token, a.id, '孙.txt', 'file');
    await create(token, a.id, '孙目录');
    await create(token, top.id, '一.txt', 'file');
    await create(token, top.id, '二.md', 'file');
    return top;
  };

  test('the check finds a wrong count', async () => {
    const dir = await create(owner.token, ownerRoot.id, '自检');
    await expectCountsRight();
    await db().updateTable('items').set({ child_files: 5 }).where('id', '=', Number(dir.id)).execute();
    expect(await countMismatches(db())).toEqual([{ id: Number(dir.id), stored: [0, 5], live: [0, 0] }]);
    await db().updateTable('items').set({ child_files: 0 }).where('id', '=', Number(dir.id)).execute();
    await expectCountsRight();
  });

  test('create counts folders and files apart', async () => {
    const dir = await create(owner.token, ownerRoot.id, '新建计数');
    expect(await stored(dir.id)).toEqual([0, 0]);
    await create(owner.token, dir.id, '甲');
    await create(owner.token, dir.id, '乙.txt', 'file');
    await create(owner.token, dir.id, '丙.txt', 'file');
    expect(await stored(dir.id)).toEqual([1, 2]);
    // a refused create (the name is taken) counts nothing
    expect((await call(server.app, 'POST', '/api/User/Files/CreateFile', { token: owner.token, body: { parentId: dir.id, name: '甲', type: 'file' } })).status).toBe(409);
    expect(await stored(dir.id)).toEqual([1, 2]);
    await expectCountsRight();
  });

  test('delete to the bin, restore to the original folder and to the folder made again', async () => {
    const box = await create(owner.token, ownerRoot.id, '删除计数');
    const top = await tree(owner.token, box.id, '树');
    const file = await create(owner.token, box.id, '单独.txt', 'file');
    const inner = (await list(owner.token, top.id)).items.data.find((i: any) => i.name === '子甲');
    // a descendant deleted on its own first, then its folder
    await remove(owner.token, [inner.id]);
    await expectCountsRight();
    expect(await stored(top.id)).toEqual([1, 2]);
    await remove(owner.token, [top.id, file.id]);
    await expectCountsRight();
    expect(await stored(box.id)).toEqual([0, 0]);
    expect(await stored(top.id)).toEqual([0, 0]);

    // back into the original folder: the subtree counts its children again, not the one deleted earlier
    expect((await restore(owner.token, [top.id])).status).toBe(200);
    await expectCountsRight();
    expect(await stored(box.id)).toEqual([1, 0]);
    expect(await stored(top.id)).toEqual([1, 2]);
    expect((await restore(owner.token, [inner.id])).status).toBe(200);
    await expectCountsRight();
    expect(await stored(top.id)).toEqual([2, 2]);
    expect(await stored(inner.id)).toEqual([1, 1]);

    // the original folder is in the bin: it is made again in the root, and the item goes there
    const rootBefore = await stored(ownerRoot.id);
    await remove(owner.token, [box.id]);
    await expectCountsRight();
    const back = await restore(owner.token, [file.id]);
    expect(back.status).toBe(200);
    await expectCountsRight();
    expect(await stored(ownerRoot.id)).toEqual(rootBefore); // one folder binned, one made again
    expect(back.body.result.restored[0].parentId).not.toBe(box.id);
    expect(await stored(back.body.result.restored[0].parentId)).toEqual([0, 1]);

    // the original folder was purged: it is made again as well
    const gone = await create(owner.token, ownerRoot.id, '将清除');
    const orphan = await create(owner.token, gone.id, '树');
    await create(owner.token, orphan.id, '叶.txt', 'file');
    await create(owner.token, ownerRoot.id, '树');
    await remove(owner.token, [orphan.id]);
    await remove(owner.token, [gone.id]);
    expect((await purge(owner.token, [gone.id])).status).toBe(200);
    await expectCountsRight();
    const res = await restore(owner.token, [orphan.id]);
    expect(res.status).toBe(200);
    expect(res.body.result.restored[0]).toMatchObject({ name: '树', namePath: '个人文件/将清除/树' });
    await expectCountsRight();
    expect(await stored(orphan.id)).toEqual([0, 1]);
  });

  test('move across folders and spaces counts out of the source and into the target', async () => {
    const from = await create(editor.token, editorRoot.id, '移出');
    const to = await create(editor.token, editorRoot.id, '移入');
    const top = await tree(editor.token, from.id, '移动树');
    const f = await create(editor.token, from.id, '移动文件.txt', 'file');
    expect((await op('Move', editor.token, { ids: [top.id, f.id], targetId: to.id })).status).toBe(200);
    await expectCountsRight();
    expect(await stored(from.id)).toEqual([0, 0]);
    expect(await stored(to.id)).toEqual([1, 1]);
    expect(await stored(top.id)).toEqual([2, 2]);
    // into the enterprise space, and a move into the folder it is in (nothing changes)
    const shared = await create(editor.token, publicRoot.id, '企业移入');
    expect((await op('Move', editor.token, { ids: [top.id], targetId: shared.id })).status).toBe(200);
    expect((await op('Move', editor.token, { ids: [top.id], targetId: shared.id })).status).toBe(200);
    await expectCountsRight();
    expect(await stored(to.id)).toEqual([0, 1]);
    expect(await stored(shared.id)).toEqual([1, 0]);
    // and back to a personal space
    expect((await op('Move', editor.token, { ids: [top.id, f.id], targetId: from.id })).status).toBe(200);
    await expectCountsRight();
    expect(await stored(shared.id)).toEqual([0, 0]);
    expect(await stored(from.id)).toEqual([1, 1]);
  });

  test('copy of a subtree counts in the target and in every copied folder', async () => {
    const to = await create(owner.token, ownerRoot.id, '复制目标');
    const top = await tree(owner.token, ownerRoot.id, '复制树');
    const res = await op('Copy', owner.token, { ids: [top.id], targetId: to.id });
    expect(res.status).toBe(200);
    const copy = res.body.result.items[0];
    await expectCountsRight();
    expect(await stored(to.id)).toEqual([1, 0]);
    expect(await stored(copy.id)).toEqual([2, 2]);
    expect(await stored(top.id)).toEqual([2, 2]);
    // a copy into the enterprise space
    const shared = await create(editor.token, publicRoot.id, '企业复制目标');
    const top2 = await tree(editor.token, editorRoot.id, '编辑的树');
    expect((await op('Copy', editor.token, { ids: [top2.id], targetId: shared.id })).status).toBe(200);
    await expectCountsRight();
    expect(await stored(shared.id)).toEqual([1, 0]);
  });

  describe.each(['Move', 'Copy'] as const)('conflict strategies (%s)', (what) => {
    test('no strategy, overwrite, rename, skip', async () => {
      const src = await create(owner.token, ownerRoot.id, `${what}冲突源`);
      const dst = await create(owner.token, ownerRoot.id, `${what}冲突目标`);
      const make = async () => {
        const d = await tree(owner.token, src.id, '同名树');
        const f = await create(owner.token, src.id, '同名.txt', 'file');
        return [d.id, f.id];
      };
      const held = await tree(owner.token, dst.id, '同名树');
      await create(owner.token, dst.id, '同名.txt', 'file');
      await expectCountsRight();
      let ids = await make();
      // no strategy: the conflict is reported, nothing changes
      const before = await snapshot();
      const asked = await op(what, owner.token, { ids, targetId: dst.id });
      expect(asked.body.result.conflictType).toBe(1);
      expect(await snapshot()).toEqual(before);
      // skip
      expect((await op(what, owner.token, { ids, targetId: dst.id, strategy: 3 })).status).toBe(200);
      await expectCountsRight();
      expect(await stored(dst.id)).toEqual([1, 1]);
      // rename
      expect((await op(what, owner.token, { ids, targetId: dst.id, strategy: 2 })).status).toBe(200);
      await expectCountsRight();
      expect(await stored(dst.id)).toEqual([2, 2]);
      if (what === 'Move') ids = await make();
      // overwrite: the replaced items go to the bin
      expect((await op(what, owner.token, { ids, targetId: dst.id, strategy: 1 })).status).toBe(200);
      await expectCountsRight();
      expect(await stored(dst.id)).toEqual([2, 2]);
      expect(await stored(held.id)).toEqual([0, 0]);
      expect(await stored(src.id)).toEqual(what === 'Move' ? [0, 0] : [1, 1]);
    });
  });

  test('refused calls change no count', async () => {
    const a = await create(owner.token, ownerRoot.id, '拒绝甲');
    const b = await tree(owner.token, a.id, '拒绝乙');
    const x = await create(owner.token, ownerRoot.id, '拒绝丙');
    const holder = await create(owner.token, x.id, '拒绝丁');
    const inside = await create(owner.token, holder.id, '里面.txt', 'file');
    const named = await create(owner.token, a.id, '拒绝丁');
    const before = await snapshot();
    const expectRefused = (res: { status: number; body: any }, status: number) => {
      expect(res.status).toBe(status);
      expect(res.body.message).toMatch(HAN);
    };
    expectRefused(await op('Move', owner.token, { ids: [a.id], targetId: b.id }), 400); // into itself
    expectRefused(await op('Copy', owner.token, { ids: [a.id], targetId: a.id }), 400);
    expectRefused(await call(server.app, 'DELETE', '/api/User/Files', { token: owner.token, body: [ownerRoot.id] }), 403);
    expectRefused(await call(server.app, 'DELETE', '/api/User/Files', { token: outsider.token, body: [b.id] }), 404);
    expectRefused(await op('Move', outsider.token, { ids: [b.id], targetId: x.id }), 404);
    expectRefused(await restore(owner.token, [b.id]), 404); // not in the bin
    expectRefused(await purge(outsider.token, [b.id]), 404);
    // refused half-way: the first item overwrites (and bins) the folder the second one is in,
    // so the second is gone; the whole transaction is undone
    for (const what of ['Move', 'Copy'] as const) {
      expectRefused(await op(what, owner.token, { ids: [named.id, inside.id], targetId: x.id, strategy: 1 }), 404);
    }
    expect(await snapshot()).toEqual(before);
    await expectCountsRight();
  });

  test('purge and the retention purge leave the live counts right', async () => {
    const box = await create(owner.token, ownerRoot.id, '清除计数');
    const t1 = await tree(owner.token, box.id, '清除树');
    const t2 = await tree(owner.token, box.id, '过期树');
    const sub = (await list(owner.token, t1.id)).items.data.find((i: any) => i.name === '子甲');
    await remove(owner.token, [sub.id]);
    await remove(owner.token, [t1.id, t2.id]);
    const before = await snapshot();
    expect((await purge(owner.token, [t1.id])).status).toBe(200);
    await expectCountsRight();
    // the live counts did not change
    const after = new Map((await snapshot()).map((r) => [r.id, r]));
    for (const r of before) if (after.has(r.id)) expect([after.get(r.id)!.child_folders, after.get(r.id)!.child_files]).toEqual([r.child_folders, r.child_files]);
    expect(await stored(box.id)).toEqual([0, 0]);
    // the earlier deleted folder of the purged tree restores into its folder made again, with its own children
    expect((await restore(owner.token, [sub.id])).status).toBe(200);
    await expectCountsRight();
    expect(await stored(sub.id)).toEqual([1, 1]);

    await db()
      .updateTable('items')
      .set({ deleted_at: Date.now() - 400 * DAY_MS })
      .where((eb) => eb.or([eb('id', '=', Number(t2.id)), eb('deleted_with', '=', Number(t2.id))]))
      .execute();
    expect(await server.app.services.recycle.purgeExpired(Date.now())).toBeGreaterThanOrEqual(1);
    await expectCountsRight();
    expect(await stored(box.id)).toEqual([1, 0]); // 清除树, made again to hold 子甲
  });

  test('the listing takes its total and split from the counts; paging stays right', async () => {
    const dir = await create(owner.token, ownerRoot.id, '分页计数');
    const folders = ['夹01', '夹02', '夹03', '夹04', '夹05', '夹06', '夹07'];
    const files = Array.from({ length: 13 }, (_, i) => `文${String(i + 1).padStart(2, '0')}.txt`);
    for (const n of folders) await create(owner.token, dir.id, n);
    for (const n of files) await create(owner.token, dir.id, n, 'file');
    const pages = async (pageSize: number, query: Record<string, string | number> = {}) => {
      const first = await list(owner.token, dir.id, { pageSize, page: 1, ...query });
      const all = [...first.items.data];
      for (let page = 2; (page - 1) * pageSize < first.items.total; page++) {
        const next = await list(owner.token, dir.id, { pageSize, page, ...query });
        expect(next.items.total).toBe(first.items.total);
        all.push(...next.items.data);
      }
      return { total: first.items.total, names: all.map((i: any) => i.name) };
    };
    for (const size of [1, 3, 5, 7, 100]) {
      expect(await pages(size)).toEqual({ total: 20, names: [...folders, ...files] });
      expect(await pages(size, { sortOrder: 'desc' })).toEqual({ total: 20, names: [...folders].reverse().concat([...files].reverse()) });
    }
    // past the end: no rows, the right total
    expect((await list(owner.token, dir.id, { pageSize: 5, page: 9 })).items).toEqual({ data: [], total: 20 });
    // deletes and moves out are followed
    const listed = (await list(owner.token, dir.id, { pageSize: 100 })).items.data;
    const byName = (n: string) => listed.find((i: any) => i.name === n).id;
    await remove(owner.token, [byName('夹03'), byName('文05.txt')]);
    expect((await op('Move', owner.token, { ids: [byName('文06.txt')], targetId: ownerRoot.id })).status).toBe(200);
    const left = { total: 17, names: [...folders.filter((n) => n !== '夹03'), ...files.filter((n) => n !== '文05.txt' && n !== '文06.txt')] };
    for (const size of [2, 6, 100]) expect(await pages(size)).toEqual(left);
    // a keyword is counted with a query
    expect(await pages(4, { keyword: '夹0' })).toEqual({ total: 6, names: folders.filter((n) => n !== '夹03') });
    await expectCountsRight();
  });

  test('the unfiltered total comes from the stored counts, the keyword total from a count', async () => {
    const dir = await create(owner.token, ownerRoot.id, '计数来源');
    await create(owner.token, dir.id, '甲');
    await create(owner.token, dir.id, '乙.txt', 'file');
    expect((await list(owner.token, dir.id)).items.total).toBe(2);
    try {
      await db().updateTable('items').set({ child_files: 1001, child_folders: 0 }).where('id', '=', Number(dir.id)).execute();
      expect((await list(owner.token, dir.id)).items.total).toBe(1001);
      expect((await list(owner.token, dir.id, { keyword: '乙' })).items.total).toBe(1);
      expect((await list(owner.token, dir.id, { keyword: '甲' })).items.total).toBe(1);
      // the split decides where files start: no folder is counted, so the page starts with the files
      expect((await list(owner.token, dir.id, { pageSize: 1, page: 1 })).items.data.map((i: any) => i.name)).toEqual(['乙.txt']);
    } finally {
      await db().updateTable('items').set({ child_files: 1, child_folders: 1 }).where('id', '=', Number(dir.id)).execute();
    }
    expect((await list(owner.token, dir.id)).items).toMatchObject({ total: 2, data: [{ name: '甲' }, { name: '乙.txt' }] });
    await expectCountsRight();
  });
});
