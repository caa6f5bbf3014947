// 云文档 favourites (categories, moving, the rights filter) and tags (personal and public,
// tagging, the tag's items), with refusals and state read back (api-contract.md, "Favourites
// and tags").
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { registerSqliteFunctions } from '../src/db/connection';
import { buildMigrations, migrateToLatest } from '../src/db/migrations';
import { call, databaseKinds, HAN, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';

describe.each(databaseKinds())('favourites and tags (%s)', (kind) => {
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
  const getItem = (token: string, id: string) => ok(app(), 'GET', `/api/User/Files/${id}`, { token });
  const listed = async (token: string, parentId: string) =>
    (await ok(app(), 'GET', `/api/User/Folders/${parentId}/Items`, { token, query: { pageSize: 1000 } })).items.data;
  const categories = (token: string) => ok(app(), 'GET', '/api/User/Favorites/Categories', { token });
  const favorites = async (token: string, categoryId: number, query: Record<string, number> = { pageSize: 1000 }) =>
    ok(app(), 'GET', `/api/User/Favorites/${categoryId}`, { token, query });
  const favIds = async (token: string, categoryId = -1) => (await favorites(token, categoryId)).data.map((i: any) => i.id);
  const expectError = (res: { status: number; body: any }, status: number, code: number) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
  };
  const setPolicies = (fileId: string, policies: { subjectType: number; subjectId: string; level: number }[]) =>
    ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', { token: editor.token, body: { fileId, policies } });

  describe('favourites', () => {
    test('默认收藏夹 is always there; categories are made, renamed and checked', async () => {
      const user = outsider;
      expect(await categories(user.token)).toEqual([{ id: 0, name: '默认收藏夹', count: 0 }]);
      const made = await ok(app(), 'POST', '/api/User/Favorites/Categories', { token: user.token, body: { name: '  项目资料 ' } });
      expect(made).toEqual({ id: expect.any(Number), name: '项目资料', count: 0 });
      const renamed = await ok(app(), 'POST', '/api/User/Favorites/Categories', { token: user.token, body: { id: made.id, name: '项目文档' } });
      expect(renamed).toEqual({ id: made.id, name: '项目文档', count: 0 });
      expect((await categories(user.token)).map((c: any) => c.name)).toEqual(['默认收藏夹', '项目文档']);

      expectError(await call(app(), 'POST', '/api/User/Favorites/Categories', { token: user.token, body: { name: '项目文档' } }), 409, 40901);
      expectError(await call(app(), 'POST', '/api/User/Favorites/Categories', { token: user.token, body: { name: '   ' } }), 400, 40001);
      expectError(await call(app(), 'POST', '/api/User/Favorites/Categories', { token: user.token, body: { name: '长'.repeat(21) } }), 400, 40001);
      expectError(await call(app(), 'POST', '/api/User/Favorites/Categories', { token: user.token, body: { id: 0, name: '改名' } }), 400, 40001);
      expectError(await call(app(), 'DELETE', '/api/User/Favorites/Categories/0', { token: user.token }), 400, 40001);
      // another user's category does not exist for this one
      expectError(await call(app(), 'POST', '/api/User/Favorites/Categories', { token: owner.token, body: { id: made.id, name: '偷改' } }), 404, 404);
      expectError(await call(app(), 'DELETE', `/api/User/Favorites/Categories/${made.id}`, { token: owner.token }), 404, 404);
      expectError(await call(app(), 'GET', `/api/User/Favorites/${made.id}`, { token: owner.token }), 404, 404);
      expect((await categories(user.token)).map((c: any) => c.name)).toEqual(['默认收藏夹', '项目文档']);
      // the same name is fine for another user
      await ok(app(), 'POST', '/api/User/Favorites/Categories', { token: owner.token, body: { name: '项目文档' } });
    });

    test('favouriting marks the item everywhere for its user alone; lists, moves and removes', async () => {
      const dir = await create(owner.token, ownerRoot.id, '收藏测试', 'folder');
      const a = await create(owner.token, dir.id, '甲.txt');
      const b = await create(owner.token, dir.id, '乙.txt');
      const c = await create(owner.token, dir.id, '丙.txt');
      const cat = await ok(app(), 'POST', '/api/User/Favorites/Categories', { token: owner.token, body: { name: '重要' } });

      expect(await ok(app(), 'POST', '/api/User/Favorites', { token: owner.token, body: { fileIds: [a.id, b.id] } })).toEqual({ added: 2 });
      expect(await ok(app(), 'POST', '/api/User/Favorites', { token: owner.token, body: { fileIds: [c.id], categoryId: cat.id } })).toEqual({ added: 1 });
      expect((await getItem(owner.token, a.id)).isFavorite).toBe(true);
      expect(Object.fromEntries((await listed(owner.token, dir.id)).map((i: any) => [i.name, i.isFavorite]))).toEqual({ '甲.txt': true, '乙.txt': true, '丙.txt': true });

      const all = await favorites(owner.token, -1);
      expect(all.total).toBe(3);
      // newest favourite first (a and b came in one call: the later item first)
      expect(all.data.map((i: any) => i.name)).toEqual(['丙.txt', '乙.txt', '甲.txt']);
      expect(all.data.find((i: any) => i.id === c.id)).toMatchObject({ favoriteCategoryId: cat.id, isFavorite: true, favoritedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
      expect((await favIds(owner.token, 0)).sort()).toEqual([a.id, b.id].sort());
      expect(await favIds(owner.token, cat.id)).toEqual([c.id]);
      const counts = Object.fromEntries((await categories(owner.token)).map((x: any) => [x.name, x.count]));
      expect(counts['默认收藏夹']).toBeGreaterThanOrEqual(2);
      expect(counts['重要']).toBe(1);

      // paging
      const page1 = await favorites(owner.token, -1, { page: 1, pageSize: 2 });
      const page2 = await favorites(owner.token, -1, { page: 2, pageSize: 2 });
      expect(page1.total).toBe(3);
      expect([...page1.data, ...page2.data].map((i: any) => i.id).sort()).toEqual([a.id, b.id, c.id].sort());

      // move a and b to 重要
      expect(await ok(app(), 'PUT', '/api/User/Favorites/Move', { token: owner.token, body: { fileIds: [a.id, b.id], categoryId: cat.id } })).toEqual({ moved: 2 });
      expect((await favIds(owner.token, cat.id)).sort()).toEqual([a.id, b.id, c.id].sort());
      expectError(await call(app(), 'PUT', '/api/User/Favorites/Move', { token: owner.token, body: { fileIds: [a.id], categoryId: 999999 } }), 404, 404);

      // deleting the category sends its favourites to 默认收藏夹
      expect(await ok(app(), 'DELETE', `/api/User/Favorites/Categories/${cat.id}`, { token: owner.token })).toEqual({ moved: 3 });
      expect(await favIds(owner.token, 0)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));

      // nobody else sees them as favourites
      expect(await favIds(outsider.token)).not.toContain(a.id);

      expect(await ok(app(), 'DELETE', '/api/User/Favorites', { token: owner.token, body: [a.id] })).toEqual({ removed: 1 });
      expect((await getItem(owner.token, a.id)).isFavorite).toBe(false);
      expect(await favIds(owner.token)).not.toContain(a.id);
    });

    test('an item the caller cannot read cannot be favourited; nothing of the batch is added', async () => {
      const mine = await create(owner.token, ownerRoot.id, '私人.txt');
      const theirs = await create(outsider.token, (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0].id, '外人的.txt');
      const before = await favIds(owner.token);
      expectError(await call(app(), 'POST', '/api/User/Favorites', { token: owner.token, body: { fileIds: [mine.id, theirs.id] } }), 404, 404);
      expect(await favIds(owner.token)).toEqual(before);
      expectError(await call(app(), 'POST', '/api/User/Favorites', { token: owner.token, body: { fileIds: ['abc'] } }), 400, 40001);
    });

    test('a favourite the user can no longer read, or that is in the recycle bin, is not listed; it comes back with its item', async () => {
      const dir = await create(editor.token, publicRoot.id, '收藏权限', 'folder');
      const file = await create(editor.token, dir.id, '公告.docx');
      await ok(app(), 'POST', '/api/User/Favorites', { token: viewer.token, body: { fileIds: [file.id] } });
      expect(await favIds(viewer.token)).toContain(file.id);
      const count = async () => (await categories(viewer.token)).find((c: any) => c.id === 0).count;
      const before = await count();

      await setPolicies(dir.id, [{ subjectType: 1, subjectId: viewer.userId, level: 0 }]);
      expect(await favIds(viewer.token)).not.toContain(file.id);
      expect(await count()).toBe(before - 1);
      await setPolicies(dir.id, [{ subjectType: 1, subjectId: viewer.userId, level: 1 }]);
      expect(await favIds(viewer.token)).toContain(file.id);

      await ok(app(), 'DELETE', '/api/User/Files', { token: editor.token, body: [dir.id] });
      expect(await favIds(viewer.token)).not.toContain(file.id);
      await ok(app(), 'POST', '/api/User/Recycle/Restore', { token: editor.token, body: [dir.id] });
      expect(await favIds(viewer.token)).toContain(file.id);
    });
  });

  describe('long lists and moved items', () => {
    const pagesOf = async (url: string, token: string, pageSize: number, total: number) => {
      const ids: string[] = [];
      for (let page = 1; page <= Math.ceil(total / pageSize) + 1; page++) {
        const got = await ok(app(), 'GET', url, { token, query: { page, pageSize } });
        expect(got.total).toBe(total);
        expect(got.data.length).toBe(Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize)));
        ids.push(...got.data.map((i: any) => i.id));
      }
      return ids;
    };

    test('every page of a favourites or tag list, the later ones read from the oldest end, keeps the newest-first order', async () => {
      const user = outsider;
      const root = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: user.token }))[0];
      const dir = await create(user.token, root.id, '分页收藏', 'folder');
      const files = [];
      for (let i = 1; i <= 9; i++) files.push(await create(user.token, dir.id, `第${i}份.txt`));
      const cat = await ok(app(), 'POST', '/api/User/Favorites/Categories', { token: user.token, body: { name: '分页分类' } });
      const tag = (await call(app(), 'POST', '/api/User/Tags', { token: user.token, body: { name: '分页标签', color: '#13c2c2' } })).body.result;
      // one at a time: each later one is newer (or, in the same millisecond, has the larger id)
      for (const [i, f] of files.entries()) {
        await ok(app(), 'POST', '/api/User/Favorites', { token: user.token, body: { fileIds: [f.id], categoryId: i % 2 ? cat.id : 0 } });
        await ok(app(), 'POST', '/api/User/Tags/Files', { token: user.token, body: { fileIds: [f.id], tagIds: [tag.id] } });
      }
      const newestFirst = files.map((f) => f.id).reverse();
      const all = await favorites(user.token, -1);
      expect(all.data.map((i: any) => i.id).slice(0, 9)).toEqual(newestFirst);
      for (const pageSize of [2, 4]) {
        expect(await pagesOf('/api/User/Favorites/-1', user.token, pageSize, all.total)).toEqual(all.data.map((i: any) => i.id));
        expect(await pagesOf(`/api/User/Favorites/${cat.id}`, user.token, pageSize, 4)).toEqual(newestFirst.filter((_, k) => k % 2 === 1));
        expect(await pagesOf(`/api/User/Tags/${tag.id}/Files`, user.token, pageSize, 9)).toEqual(newestFirst);
      }
    });

    test('a favourite and a tag follow their item into the recycle bin and into another space', async () => {
      const file = await create(editor.token, publicRoot.id, '迁移的文件.docx');
      await ok(app(), 'POST', '/api/User/Favorites', { token: viewer.token, body: { fileIds: [file.id] } });
      const tag = (await call(app(), 'POST', '/api/User/Tags', { token: viewer.token, body: { name: '跟随', color: '#eb2f96' } })).body.result;
      await ok(app(), 'POST', '/api/User/Tags/Files', { token: viewer.token, body: { fileIds: [file.id], tagIds: [tag.id] } });
      const seen = async () => ({
        favorite: (await favIds(viewer.token)).includes(file.id),
        count: (await categories(viewer.token)).find((c: any) => c.id === 0).count,
        tagged: (await ok(app(), 'GET', `/api/User/Tags/${tag.id}/Files`, { token: viewer.token })).data.map((i: any) => i.id),
        tagCount: (await ok(app(), 'GET', '/api/User/Tags', { token: viewer.token })).find((t: any) => t.id === tag.id).count,
      });
      const before = await seen();
      expect(before).toMatchObject({ favorite: true, tagged: [file.id], tagCount: 1 });

      // into the editor's personal space: the viewer can no longer read it
      const editorRoot = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: editor.token }))[0];
      await ok(app(), 'POST', '/api/User/Files/Move', { token: editor.token, body: { ids: [file.id], targetId: editorRoot.id } });
      expect(await seen()).toEqual({ favorite: false, count: before.count - 1, tagged: [], tagCount: 0 });
      // back into the enterprise space, then into the recycle bin and out again
      await ok(app(), 'POST', '/api/User/Files/Move', { token: editor.token, body: { ids: [file.id], targetId: publicRoot.id } });
      expect(await seen()).toEqual(before);
      await ok(app(), 'DELETE', '/api/User/Files', { token: editor.token, body: [file.id] });
      expect(await seen()).toEqual({ favorite: false, count: before.count - 1, tagged: [], tagCount: 0 });
      await ok(app(), 'POST', '/api/User/Recycle/Restore', { token: editor.token, body: [file.id] });
      expect(await seen()).toEqual(before);
    });
  });

  describe('tags', () => {
    const tagsOf = (token: string) => ok(app(), 'GET', '/api/User/Tags', { token });
    const newTag = (token: string, body: Record<string, unknown>) => call(app(), 'POST', '/api/User/Tags', { token, body });
    const tagFiles = (token: string, fileIds: string[], tagIds: string[]) => call(app(), 'POST', '/api/User/Tags/Files', { token, body: { fileIds, tagIds } });
    const untag = (token: string, fileIds: string[], tagIds: string[]) => call(app(), 'DELETE', '/api/User/Tags/Files', { token, body: { fileIds, tagIds } });
    const tagItems = async (token: string, id: string) => ok(app(), 'GET', `/api/User/Tags/${id}/Files`, { token, query: { pageSize: 1000 } });
    let tagAdmin: TestUser;

    beforeAll(async () => {
      tagAdmin = viewer;
      await app().db.updateTable('users').set({ is_tag_admin: 1 }).where('id', '=', Number(tagAdmin.userId)).execute();
    });

    test('personal tags: made, renamed, checked, seen by their owner alone', async () => {
      const made = await newTag(owner.token, { name: '待审', color: '#FA8C16' });
      expect(made.status).toBe(200);
      expect(made.body.result).toEqual({ id: expect.any(String), name: '待审', color: '#fa8c16', isPublic: false, count: 0, editable: true });
      expect((await tagsOf(owner.token)).map((t: any) => t.name)).toContain('待审');
      expect((await tagsOf(outsider.token)).map((t: any) => t.name)).not.toContain('待审');

      expectError(await newTag(owner.token, { name: '待审', color: '#000000' }), 409, 40901);
      expectError(await newTag(owner.token, { name: '', color: '#000000' }), 400, 40001);
      expectError(await newTag(owner.token, { name: '红', color: 'red' }), 400, 40001);
      // the same name for another user is another tag
      expect((await newTag(outsider.token, { name: '待审', color: '#000000' })).status).toBe(200);

      const id = made.body.result.id;
      const renamed = await ok(app(), 'PUT', `/api/User/Tags/${id}`, { token: owner.token, body: { name: '待审核', color: '#52c41a' } });
      expect(renamed).toMatchObject({ id, name: '待审核', color: '#52c41a' });
      // another user cannot see, change or use it
      expectError(await call(app(), 'PUT', `/api/User/Tags/${id}`, { token: outsider.token, body: { name: 'x', color: '#000000' } }), 404, 404);
      expectError(await call(app(), 'DELETE', `/api/User/Tags/${id}`, { token: outsider.token }), 404, 404);
      expectError(await call(app(), 'GET', `/api/User/Tags/${id}/Files`, { token: outsider.token }), 404, 404);
      const theirs = await create(outsider.token, (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0].id, '外人文件.txt');
      expectError(await tagFiles(outsider.token, [theirs.id], [id]), 404, 404);
      expect((await tagsOf(owner.token)).find((t: any) => t.id === id).name).toBe('待审核');
    });

    test('public tags: only a tag administrator makes and changes them; everyone sees them', async () => {
      expectError(await newTag(owner.token, { name: '机密', color: '#f5222d', isPublic: true }), 403, 40301);
      expect((await tagsOf(owner.token)).map((t: any) => t.name)).not.toContain('机密');
      const made = await newTag(tagAdmin.token, { name: '机密', color: '#f5222d', isPublic: true });
      expect(made.status).toBe(200);
      expect(made.body.result).toMatchObject({ isPublic: true, editable: true });
      const seen = (await tagsOf(owner.token)).find((t: any) => t.name === '机密');
      expect(seen).toMatchObject({ isPublic: true, editable: false });
      expectError(await call(app(), 'PUT', `/api/User/Tags/${seen.id}`, { token: owner.token, body: { name: '改', color: '#000000' } }), 403, 40301);
      expectError(await call(app(), 'DELETE', `/api/User/Tags/${seen.id}`, { token: owner.token }), 403, 40301);
      expect((await tagsOf(owner.token)).find((t: any) => t.id === seen.id).name).toBe('机密');
      expectError(await newTag(tagAdmin.token, { name: '机密', color: '#000000', isPublic: true }), 409, 40901);
    });

    test('tagging: items carry the caller’s tags; public tags need the right to edit; the tag’s items follow rights', async () => {
      const dir = await create(editor.token, publicRoot.id, '标签目录', 'folder');
      const doc = await create(editor.token, dir.id, '制度.docx');
      const other = await create(editor.token, dir.id, '通知.docx');
      const mine = (await newTag(viewer.token, { name: '我的阅读', color: '#1677ff' })).body.result;
      const pub = (await newTag(tagAdmin.token, { name: '制度文件', color: '#722ed1', isPublic: true })).body.result;

      // the viewer reads the enterprise space (level 2 by default): a personal tag is fine
      expect((await tagFiles(viewer.token, [doc.id, other.id], [mine.id])).body.result).toEqual({ added: 2 });
      expect((await tagFiles(viewer.token, [doc.id], [mine.id])).body.result).toEqual({ added: 0 });
      // …a public tag needs editing (level 3): the viewer (tag admin, but only a reader here) is refused
      expectError(await tagFiles(viewer.token, [doc.id], [pub.id]), 403, 40301);
      expect((await getItem(viewer.token, doc.id)).tags).toEqual([{ id: mine.id, name: '我的阅读', color: '#1677ff' }]);
      expect((await tagFiles(editor.token, [doc.id], [pub.id])).status).toBe(200);

      // public first, then personal; another user sees only the public one
      expect((await getItem(viewer.token, doc.id)).tags.map((t: any) => t.name)).toEqual(['制度文件', '我的阅读']);
      expect((await getItem(editor.token, doc.id)).tags.map((t: any) => t.name)).toEqual(['制度文件']);
      expect((await listed(owner.token, dir.id)).find((i: any) => i.id === doc.id).tags.map((t: any) => t.name)).toEqual(['制度文件']);

      const items = await tagItems(viewer.token, mine.id);
      expect(items.total).toBe(2);
      expect(items.data.map((i: any) => i.id).sort()).toEqual([doc.id, other.id].sort());
      expect((await tagsOf(viewer.token)).find((t: any) => t.id === mine.id).count).toBe(2);

      // a reader who loses the folder loses its items from the tag, and their count
      await setPolicies(dir.id, [{ subjectType: 1, subjectId: viewer.userId, level: 0 }]);
      expect((await tagItems(viewer.token, mine.id)).total).toBe(0);
      expect((await tagsOf(viewer.token)).find((t: any) => t.id === mine.id).count).toBe(0);
      await setPolicies(dir.id, []);

      expect((await untag(viewer.token, [other.id], [mine.id])).body.result).toEqual({ removed: 1 });
      expect((await tagItems(viewer.token, mine.id)).data.map((i: any) => i.id)).toEqual([doc.id]);

      // deleting the tag takes it off every item
      await ok(app(), 'DELETE', `/api/User/Tags/${mine.id}`, { token: viewer.token });
      expect((await getItem(viewer.token, doc.id)).tags.map((t: any) => t.name)).toEqual(['制度文件']);
      expectError(await call(app(), 'GET', `/api/User/Tags/${mine.id}/Files`, { token: viewer.token }), 404, 404);
    });

    test('a personal tag on a personal file never shows to anyone else, and the file cannot be tagged by them', async () => {
      const file = await create(owner.token, ownerRoot.id, '私密标签.txt');
      const tag = (await newTag(owner.token, { name: '私密', color: '#8c8c8c' })).body.result;
      await tagFiles(owner.token, [file.id], [tag.id]);
      expect((await getItem(owner.token, file.id)).tags.map((t: any) => t.name)).toEqual(['私密']);
      const theirTag = (await newTag(outsider.token, { name: '别人的', color: '#8c8c8c' })).body.result;
      expectError(await tagFiles(outsider.token, [file.id], [theirTag.id]), 404, 404);
      expectError(await call(app(), 'GET', `/api/User/Files/${file.id}`, { token: outsider.token }), 404, 404);
    });
  });
});

test('upgrading a SQLite database copies each favourite’s and tag’s item state onto its row', async () => {
  const sqlite = new Database(':memory:');
  registerSqliteFunctions(sqlite);
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const all = buildMigrations('sqlite');
    const before = Object.keys(all).sort().filter((n) => n < '2026-11-24-0014');
    const migrator = new Migrator({ db, provider: { getMigrations: async () => Object.fromEntries(before.map((n) => [n, all[n]])) } });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const now = Date.now();
    const user = await db
      .insertInto('users')
      .values({ user_name: 'old', user_name_key: 'old', nick_name: '老用户', password_hash: 'x', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = (name: string, deleted: boolean) =>
      db
        .insertInto('items')
        .values({ space_type: 2, owner_id: user.id, name, name_key: name, type: 'file', type_order: 1, created_at: now, updated_at: now, deleted_at: deleted ? now : null })
        .returning('id')
        .executeTakeFirstOrThrow();
    const live = await item('在用.docx', false);
    const gone = await item('已删除.docx', true);
    const tag = await db
      .insertInto('tags')
      .values({ owner_id: user.id, is_public: 0, name: '旧标签', name_key: '旧标签', color: '#1677ff', created_by: user.id, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const it of [live, gone]) {
      await db.insertInto('favorites').values({ user_id: user.id, item_id: it.id, category_id: null, created_at: now }).execute();
      await db.insertInto('item_tags').values({ tag_id: tag.id, item_id: it.id, created_by: user.id, created_at: now }).execute();
    }
    await migrateToLatest(db, 'sqlite');
    for (const table of ['favorites', 'item_tags']) {
      const rows = await db.selectFrom(table).select(['item_id', 'item_deleted', 'item_space_type', 'item_owner_id']).orderBy('item_id').execute();
      expect(rows).toEqual([
        { item_id: live.id, item_deleted: 0, item_space_type: 2, item_owner_id: user.id },
        { item_id: gone.id, item_deleted: 1, item_space_type: 2, item_owner_id: user.id },
      ]);
    }
  } finally {
    await db.destroy();
  }
});
