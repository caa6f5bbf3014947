// Names that spoof or break other systems are refused with a Chinese reason at every door a
// name comes in by: create, rename, upload (the file's name and the folders of a dropped
// folder), the empty folders of a dropped folder, and copy's rename; nothing is made.
import { call, databaseKinds, HAN, login, ok, startServer, type TestServer } from './support/harness';
import { createFolders, createTask } from './support/uploads';

const BAD_NAMES: [string, RegExp][] = [
  ['invoice\u202Efdp.exe', /改变文字方向或不可见/],
  ['a\u200Fb.txt', /改变文字方向或不可见/],
  ['a\u2066b\u2069.txt', /改变文字方向或不可见/],
  ['zero\u200Bwidth.txt', /改变文字方向或不可见/],
  ['CON', /保留名称/],
  ['nul.txt', /保留名称/],
  ['Com1.tar.gz', /保留名称/],
  ['AUX', /保留名称/],
  ['lpt9.doc', /保留名称/],
  ['报告.', /不能以 \. 结尾/],
  ['报告. .', /不能以 \. 结尾/],
  ['a:b.txt', /: \* \? " < > \|/],
  ['a*b', /: \* \? " < > \|/],
  ['what?.txt', /: \* \? " < > \|/],
  ['"quoted"', /: \* \? " < > \|/],
  ['<x>', /: \* \? " < > \|/],
  ['a|b', /: \* \? " < > \|/],
  ['a/b', /\//],
  ['tab\there', /控制字符/],
];
/** Names that look close to the refused ones but are fine. */
const GOOD_NAMES = ['console.log', 'CONFIG', 'nullable.ts', 'com10.txt', '.bashrc', '报告（最终）.docx', 'a b', 'ℂ𝕆ℕ', 'a.b.c'];

describe.each(databaseKinds())('names that spoof or break other systems (%s)', (kind) => {
  let server: TestServer;
  let token: string;
  let rootId: string;

  beforeAll(async () => {
    server = await startServer(kind);
    token = (await login(server.app)).token;
    rootId = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const names = async (folderId = rootId) =>
    (await ok(server.app, 'GET', `/api/User/Folders/${folderId}/Items`, { token, query: { pageSize: 1000 } })).items.data.map((i: any) => i.name);
  const expectRefused = (res: { status: number; body: any }, reason: RegExp) => {
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 40001 });
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).toMatch(reason);
  };

  test('create refuses each bad name with its reason, and accepts look-alikes that are fine', async () => {
    for (const [name, reason] of BAD_NAMES) {
      for (const type of ['folder', 'file']) {
        expectRefused(await call(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId: rootId, name, type } }), reason);
      }
    }
    expect(await names()).toEqual([]);
    for (const name of GOOD_NAMES) await ok(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId: rootId, name, type: 'file' } });
    expect((await names()).sort()).toEqual([...GOOD_NAMES].sort());
  });

  test('rename and copy-with-rename refuse them; the item keeps its name', async () => {
    const folder = await ok(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId: rootId, name: '改名', type: 'folder' } });
    const file = await ok(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId: folder.id, name: '原名.txt', type: 'file' } });
    for (const [name, reason] of BAD_NAMES) {
      expectRefused(await call(server.app, 'PUT', `/api/User/Files/Rename/${file.id}`, { token, query: { fileName: name } }), reason);
      // a copy into the same folder clashes with itself: renaming it to a bad name is refused
      expectRefused(await call(server.app, 'POST', '/api/User/Files/Copy', { token, body: { ids: [file.id], targetId: folder.id, strategy: 2, newFileName: name } }), reason);
    }
    expect(await names(folder.id)).toEqual(['原名.txt']);
  });

  test('an upload refuses a bad file name, and a bad folder in its relative path makes no folder', async () => {
    for (const [name, reason] of BAD_NAMES.filter(([n]) => !n.includes('/'))) {
      expectRefused(await createTask(server.app, { token }, { folderId: rootId, fileName: name, size: 3 }), reason);
    }
    const before = await names();
    // a Windows path as the relative path: "C:" is no folder name
    expectRefused(await createTask(server.app, { token }, { folderId: rootId, fileName: 'x.txt', size: 3, relativePath: 'C:\\win\\x.txt' }), /: \* \? " < > \|/);
    expectRefused(await createTask(server.app, { token }, { folderId: rootId, fileName: 'x.txt', size: 3, relativePath: '项目/CON/x.txt' }), /保留名称/);
    expectRefused(await createTask(server.app, { token }, { folderId: rootId, fileName: 'x.txt', size: 3, relativePath: '项目\u202E/x.txt' }), /改变文字方向/);
    expect(await names()).toEqual(before);
  });

  test("a dropped folder's empty folders with bad names are reported, the good ones made", async () => {
    const target = await ok(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId: rootId, name: '拖入', type: 'folder' } });
    const res = await createFolders(server.app, { token }, target.id, ['好的/子目录', 'C:/win', '坏的/aux', '坏的\u202Egpj']);
    expect(res.body.code).toBe(200);
    // a path is checked whole before any of it is made: 好的 and 好的/子目录 only
    expect(res.body.result.created).toBe(2);
    expect(res.body.result.failed.map((f: any) => f.path)).toEqual(['C:/win', '坏的/aux', '坏的\u202Egpj']);
    for (const f of res.body.result.failed) expect(f.message).toMatch(HAN);
    expect(await names(target.id)).toEqual(['好的']);
  });
});
