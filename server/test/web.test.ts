// What 云文档 serves besides /api: the shell with deep-link fallback, the remotes with CORS,
// /runtime-config.json, /json/config.json and the OpenAPI document at /api/docs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { call, databaseKinds, HAN, startServer, type TestServer } from './support/harness';

const INDEX_HTML = '<!doctype html><html><head><title>云文档</title></head><body><div id="root"></div></body></html>';
const START_JS = `/* 云文档 */ ${'var start = "云文档";\n'.repeat(200)}`;
const MANIFEST = JSON.stringify({ id: 'files', name: 'files', metaData: { remoteEntry: { name: 'remoteEntry.js' } } });

function makeWebRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-web-root-'));
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  put('shell/dist/index.html', INDEX_HTML);
  put('shell/dist/main.0123abcd.js', 'console.log("云文档");');
  put('shell/dist/json/config.json', '{"VITE_GLOB_APP_VERSION":"1.1.0-test"}');
  // the gzip copies a build makes beside its text assets (shared/build/gzip-plugin.cjs)
  put('shell/dist/start.0123abcd.js', START_JS);
  fs.writeFileSync(path.join(root, 'shell/dist/start.0123abcd.js.gz'), zlib.gzipSync(START_JS, { level: 9 }));
  fs.writeFileSync(path.join(root, 'shell/dist/index.html.gz'), zlib.gzipSync(INDEX_HTML, { level: 9 }));
  put('remote-files/dist/mf-manifest.json', MANIFEST);
  put('remote-files/dist/remoteEntry.js', 'var files;');
  put('remote-files/dist/index.html', '<!doctype html><title>files</title>');
  put('secret.txt', 'top secret');
  return root;
}

const FULL_REMOTES = [
  { name: 'files', entry: '/remotes/files/mf-manifest.json' },
  { name: 'workflow', entry: '/remotes/workflow/mf-manifest.json' },
  { name: 'swapspace', entry: '/remotes/swapspace/mf-manifest.json' },
  { name: 'ferry', entry: '/remotes/ferry/mf-manifest.json' },
  { name: 'share', entry: '/remotes/share/mf-manifest.json' },
];

describe.each(databaseKinds())('web builds and runtime configuration (%s)', (kind) => {
  let webRoot: string;
  let server: TestServer;

  beforeAll(async () => {
    webRoot = makeWebRoot();
    server = await startServer(kind, { env: { WEB_ROOT: webRoot } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  test('runtime-config.json in full mode lists every remote under /remotes, never cached', async () => {
    const res = await call(server.app, 'GET', '/runtime-config.json');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      mode: 'full',
      appTitle: '云文档',
      apiUrl: '',
      apiUrlPrefix: '/api',
      fileUrl: '',
      workflowFileNumber: 20,
      remotes: FULL_REMOTES,
      dingtalk: null,
    });
  });

  test('with DingTalk configured, runtime-config.json tells the login page where to send the browser', async () => {
    const app = await server.restart({ DINGTALK_APP_KEY: 'dingappkey1', DINGTALK_APP_SECRET: 'secret-1', DINGTALK_LOGIN_BASE: 'https://login.example.com/' });
    const res = await call(app, 'GET', '/runtime-config.json');
    expect(res.body.dingtalk).toEqual({ appId: 'dingappkey1', authorizeUrl: 'https://login.example.com/oauth2/auth', mode: 'redirect' });

    // the QR mode names DingTalk's login script as well
    const qr = await server.restart({ DINGTALK_APP_KEY: 'dingappkey1', DINGTALK_APP_SECRET: 'secret-1', DINGTALK_LOGIN_MODE: 'QR' });
    expect((await call(qr, 'GET', '/runtime-config.json')).body.dingtalk).toEqual({
      appId: 'dingappkey1',
      authorizeUrl: 'https://login.dingtalk.com/oauth2/auth',
      mode: 'qr',
      sdkUrl: 'https://g.alicdn.com/dingding/h5-dingtalk-login/0.21.0/ddlogin.js',
    });
    await expect(server.restart({ DINGTALK_APP_KEY: 'k', DINGTALK_APP_SECRET: 's', DINGTALK_LOGIN_MODE: 'popup' })).rejects.toThrow('DINGTALK_LOGIN_MODE 的值 "popup" 应为 redirect 或 qr');
  });

  test('runtime-config.json in simple mode lists only the ferry remote', async () => {
    const simple = await server.restart({ MODE: 'simple' });
    const res = await call(simple, 'GET', '/runtime-config.json');
    expect(res.body.mode).toBe('simple');
    expect(res.body.remotes).toEqual([{ name: 'ferry', entry: '/remotes/ferry/mf-manifest.json' }]);
  });

  test('REMOTE_FILES_URL replaces the entry of the files remote only', async () => {
    const url = 'http://127.0.0.1:3001/mf-manifest.json';
    const app = await server.restart({ REMOTE_FILES_URL: url, REMOTE_FERRY_URL: 'https://ferry.example.com/mf-manifest.json' });
    const res = await call(app, 'GET', '/runtime-config.json');
    expect(res.body.remotes).toEqual([
      { name: 'files', entry: url },
      ...FULL_REMOTES.slice(1, 3),
      { name: 'ferry', entry: 'https://ferry.example.com/mf-manifest.json' },
      FULL_REMOTES[4],
    ]);
  });

  test('json/config.json is the shell build file, never cached', async () => {
    const res = await call(server.app, 'GET', '/json/config.json', { query: { timestamp: Date.now() } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ VITE_GLOB_APP_VERSION: '1.1.0-test' });
  });

  test('deep links that are not /api or files fall back to index.html', async () => {
    for (const url of ['/', '/login', '/file/personal', '/file/personal/12/34', '/s/AbCd', '/workflow/list/a/b?x=1']) {
      const res = await call(server.app, 'GET', url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toBe(INDEX_HTML);
    }
    // a browser navigation with a dot in the last segment is still a page
    const preview = await call(server.app, 'GET', '/preview/report.v2', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(preview.text).toBe(INDEX_HTML);
  });

  test('built files are served with their type; hashed ones are cached for good; missing ones are 404', async () => {
    const js = await call(server.app, 'GET', '/main.0123abcd.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.text).toContain('云文档');

    const missing = await call(server.app, 'GET', '/main.ffffffff.js');
    expect(missing.status).toBe(404);
    expect(missing.text).toMatch(HAN);
    expect(missing.text).not.toContain('<html');
  });

  test('a client that accepts gzip gets the gzip copy a build made; others, and files without one, get the file itself', async () => {
    const gz = await call(server.app, 'GET', '/start.0123abcd.js', { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.headers['content-type']).toMatch(/javascript/);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(gz.headers['content-length'])).toBeLessThan(Buffer.byteLength(START_JS) / 10);
    expect(zlib.gunzipSync(gz.raw).toString()).toBe(START_JS);

    const plain = await call(server.app, 'GET', '/start.0123abcd.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(START_JS);

    const noCopy = await call(server.app, 'GET', '/main.0123abcd.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(noCopy.headers['content-encoding']).toBeUndefined();
    expect(noCopy.text).toContain('云文档');

    // a page: compressed, and still with its security headers
    const page = await call(server.app, 'GET', '/login', { headers: { 'accept-encoding': 'gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(zlib.gunzipSync(page.raw).toString()).toBe(INDEX_HTML);
  });

  test('/remotes/<name>/ serves the remote build with CORS', async () => {
    const res = await call(server.app, 'GET', '/remotes/files/mf-manifest.json', { headers: { origin: 'http://elsewhere.example' } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toEqual(JSON.parse(MANIFEST));

    const entry = await call(server.app, 'GET', '/remotes/files/remoteEntry.js');
    expect(entry.status).toBe(200);
    expect(entry.headers['access-control-allow-origin']).toBe('*');
    expect(entry.text).toBe('var files;');

    const preflight = await call(server.app, 'OPTIONS', '/remotes/files/remoteEntry.js', {
      headers: { origin: 'http://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');

    expect((await call(server.app, 'GET', '/remotes/files/')).text).toContain('<title>files</title>');
    const bare = await call(server.app, 'GET', '/remotes/files');
    expect(bare.status).toBe(302);
    expect(bare.headers.location).toBe('/remotes/files/');
  });

  test('a remote that is not built answers a Chinese 503 text, an unknown one 404', async () => {
    const res = await call(server.app, 'GET', '/remotes/workflow/mf-manifest.json');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('尚未构建');
    expect(res.headers['access-control-allow-origin']).toBe('*');

    const unknown = await call(server.app, 'GET', '/remotes/nope/mf-manifest.json');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toMatch(HAN);
    const missing = await call(server.app, 'GET', '/remotes/files/nothing.js');
    expect(missing.status).toBe(404);
  });

  test('paths cannot climb out of a build folder', async () => {
    for (const url of [
      '/remotes/files/%2e%2e/%2e%2e/secret.txt',
      '/remotes/files/..%2F..%2Fsecret.txt',
      '/%2e%2e/secret.txt',
      '/..%2Fsecret.txt',
      '/remotes/files/%2e%2e/%2e%2e/shell/dist/index.html',
    ]) {
      const res = await call(server.app, 'GET', url);
      expect(res.text).not.toContain('top secret');
      expect(res.text).not.toBe(INDEX_HTML);
      expect({ url, status: res.status }).toEqual({ url, status: 404 });
    }
  });

  test('/api/docs is the OpenAPI document generated from the route schemas', async () => {
    const res = await call(server.app, 'GET', '/api/docs');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('云文档 API');
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    for (const p of [
      '/api/login',
      '/api/login/quit',
      '/api/EnvironmentConfig',
      '/api/User/GlobalPolicies/FeaturePolicy',
      '/api/Login/PasswordPolicy',
      '/api/Client/Branding',
      '/api/User/Home',
      '/api/User/Folders/Personal/RootFolders',
      '/api/User/Folders/Public/RootFolders',
      '/api/User/Folders/{parentId}/Items',
      '/api/User/Files/CreateFile',
      '/api/Admin/Users',
      '/api/Admin/Users/{userId}/Disable',
      '/api/Admin/Users/{userId}/RevokeSessions',
      '/api/Admin/FeaturePolicy',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    const loginBody = doc.paths['/api/login'].post.requestBody.content['application/json'].schema;
    expect(loginBody.required).toEqual(expect.arrayContaining(['userName', 'password']));
    const items = doc.paths['/api/User/Folders/{parentId}/Items'].get;
    expect(items.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['parentId', 'page', 'pageSize', 'sortField', 'sortOrder', 'keyword']));
    const itemSchema = items.responses['200'].content['application/json'].schema.properties.result.properties.folder;
    expect(Object.keys(itemSchema.properties)).toEqual(expect.arrayContaining(['id', 'idPath', 'namePath', 'spaceType', 'permissions']));
    // web paths are not API calls
    expect(Object.keys(doc.paths).some((p) => !p.startsWith('/api/'))).toBe(false);
  });
});

describe('web builds missing (sqlite)', () => {
  let server: TestServer;
  let emptyRoot: string;

  beforeAll(async () => {
    emptyRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-empty-web-root-'));
    server = await startServer('sqlite', { env: { WEB_ROOT: emptyRoot } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(emptyRoot, { recursive: true, force: true });
  });

  test('pages answer a clear Chinese 503 text; the API and runtime-config.json keep working', async () => {
    const page = await call(server.app, 'GET', '/file/personal');
    expect(page.status).toBe(503);
    expect(page.headers['content-type']).toMatch(/^text\/plain; charset=utf-8/);
    expect(page.text).toContain('尚未构建');
    expect(page.text).toContain('npm run build');

    const version = await call(server.app, 'GET', '/json/config.json');
    expect(version.status).toBe(404);
    expect(version.text).toMatch(HAN);
    expect(version.headers['cache-control']).toBe('no-store');

    expect((await call(server.app, 'GET', '/runtime-config.json')).status).toBe(200);
    expect((await call(server.app, 'GET', '/api/EnvironmentConfig')).body.code).toBe(200);
  });
});
