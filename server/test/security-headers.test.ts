// Security headers of what 云文档 serves: the HTML pages (/, /s/{id}, /file/personal, …) carry
// a Content-Security-Policy built from the runtime configuration (remote origins, DingTalk's QR
// login), refuse to be framed and keep a share page's key out of Referer; the API, the remotes'
// files and downloads may be framed only by the product itself (its download frames).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, login, ok, startServer, type TestServer } from './support/harness';
import { uploadFile } from './support/uploads';

const INDEX_HTML = '<!doctype html><html><head><title>云文档</title></head><body><div id="root"></div></body></html>';

function makeWebRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-web-headers-'));
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  put('shell/dist/index.html', INDEX_HTML);
  put('shell/dist/main.0123abcd.js', 'console.log("云文档");');
  put('remote-files/dist/index.html', '<!doctype html><title>files</title>');
  put('remote-files/dist/remoteEntry.js', 'var files;');
  return root;
}

/** The directives of a policy: name → sources. */
function directives(policy: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of String(policy ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources;
  }
  return out;
}

const PAGES = ['/', '/login', '/file/personal', '/file/personal/12/34', '/s/AbCdEf123?key=Abcd1234', '/preview/eyJmaWxlSWQiOiIxIn0', '/mobilityPreview?previewData=x'];

describe('security headers', () => {
  let webRoot: string;
  let server: TestServer;

  beforeAll(async () => {
    webRoot = makeWebRoot();
    server = await startServer('sqlite', { env: { WEB_ROOT: webRoot } });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  test('every page refuses framing and sends a policy with nothing from elsewhere', async () => {
    for (const url of PAGES) {
      const res = await call(server.app, 'GET', url);
      expect({ url, status: res.status, text: res.text }).toEqual({ url, status: 200, text: INDEX_HTML });
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const csp = directives(res.headers['content-security-policy']);
      expect(csp).toEqual({
        'default-src': ["'self'"],
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", 'blob:'],
        'media-src': ["'self'", 'blob:'],
        'worker-src': ["'self'", 'blob:'],
        'frame-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      });
    }
  });

  test("a share page's address (with its key) is never sent as Referer; other pages send only their origin", async () => {
    for (const url of PAGES) {
      const res = await call(server.app, 'GET', url);
      expect({ url, policy: res.headers['referrer-policy'] }).toEqual({ url, policy: url.startsWith('/s/') ? 'no-referrer' : 'strict-origin-when-cross-origin' });
    }
  });

  test('remotes on other origins (REMOTE_*_URL) may be loaded, fetched, styled and pictured from; nothing else of them', async () => {
    const app = await server.restart({
      REMOTE_FILES_URL: 'http://127.0.0.1:3001/mf-manifest.json',
      REMOTE_SHARE_URL: 'https://share.example.com:8443/web/share/mf-manifest.json',
      REMOTE_FERRY_URL: '/elsewhere/ferry/mf-manifest.json',
    });
    const csp = directives((await call(app, 'GET', '/file/personal')).headers['content-security-policy']);
    const remotes = ['http://127.0.0.1:3001', 'https://share.example.com:8443'];
    for (const name of ['script-src', 'style-src', 'connect-src', 'img-src', 'font-src']) expect({ name, has: csp[name] }).toEqual({ name, has: expect.arrayContaining(remotes) });
    expect(csp['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", ...remotes]);
    for (const name of ['frame-src', 'media-src', 'worker-src', 'default-src']) expect(csp[name].some((s) => remotes.includes(s))).toBe(false);
  });

  test("DingTalk's QR login adds its script's origin and its frame's, only in the QR mode", async () => {
    const dingtalk = { DINGTALK_APP_KEY: 'dingappkey1', DINGTALK_APP_SECRET: 'secret-1' };
    const redirect = directives((await call(await server.restart(dingtalk), 'GET', '/login')).headers['content-security-policy']);
    expect(redirect['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(redirect['frame-src']).toEqual(["'self'"]);

    const qr = directives((await call(await server.restart({ ...dingtalk, DINGTALK_LOGIN_MODE: 'qr' }), 'GET', '/login')).headers['content-security-policy']);
    expect(qr['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", 'https://g.alicdn.com']);
    expect(qr['frame-src']).toEqual(["'self'", 'https://login.dingtalk.com', 'https://g.alicdn.com']);

    const mirrored = directives(
      (
        await call(
          await server.restart({ ...dingtalk, DINGTALK_LOGIN_MODE: 'qr', DINGTALK_QR_SDK_URL: 'http://static.corp.example/ddlogin.js', DINGTALK_LOGIN_BASE: 'https://dt-login.corp.example' }),
          'GET',
          '/login',
        )
      ).headers['content-security-policy'],
    );
    expect(mirrored['script-src']).toContain('http://static.corp.example');
    expect(mirrored['frame-src']).toEqual(["'self'", 'https://dt-login.corp.example', 'http://static.corp.example']);
    expect(mirrored['connect-src']).toEqual(["'self'", 'blob:']);
  });

  test("a remote's own page gets the page headers; its scripts only the common ones", async () => {
    const page = await call(server.app, 'GET', '/remotes/files/');
    expect(page.status).toBe(200);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(directives(page.headers['content-security-policy'])['frame-ancestors']).toEqual(["'none'"]);

    for (const url of ['/remotes/files/remoteEntry.js', '/main.0123abcd.js']) {
      const res = await call(server.app, 'GET', url);
      expect(res.status).toBe(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy']).toBe("frame-ancestors 'self'");
    }
    expect((await call(server.app, 'GET', '/remotes/files/remoteEntry.js')).headers['access-control-allow-origin']).toBe('*');
  });

  test('API answers and downloads may be framed only by the product (its download frames), and send no Referer', async () => {
    for (const url of ['/api/User/Folders/Personal/RootFolders', '/runtime-config.json', '/api/no-such-call']) {
      const res = await call(server.app, 'GET', url);
      expect({ url, xfo: res.headers['x-frame-options'], csp: res.headers['content-security-policy'], ref: res.headers['referrer-policy'], nosniff: res.headers['x-content-type-options'] }).toEqual({
        url,
        xfo: 'SAMEORIGIN',
        csp: "frame-ancestors 'self'",
        ref: 'no-referrer',
        nosniff: 'nosniff',
      });
    }

    const { token } = await login(server.app);
    const root = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0];
    const file = await uploadFile(server.app, { token }, root.id, '说明.txt', Buffer.from('云文档'), 5 * 1024 * 1024);
    const download = await call(server.app, 'GET', `/api/User/FileTransfer/Download/${file.id}`, { token });
    expect(download.status).toBe(200);
    expect(download.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(directives(download.headers['content-security-policy'])['frame-ancestors']).toEqual(["'self'"]);
  });

  test("the shell's inline script (its sign-in form before any script) runs by its hash, read again after a build", async () => {
    const index = path.join(webRoot, 'shell', 'dist', 'index.html');
    const withScript = (code: string) => `<!doctype html><html><head><script defer src="/main.0123abcd.js"></script></head><body><div id="root"></div><script>${code}</script></body></html>`;
    const hashOf = (code: string) => `'sha256-${crypto.createHash('sha256').update(code).digest('base64')}'`;
    try {
      fs.writeFileSync(index, withScript('document.title="云文档"'));
      for (const url of ['/login', '/', '/file/personal', '/remotes/files/']) {
        const csp = directives((await call(server.app, 'GET', url)).headers['content-security-policy']);
        expect({ url, scripts: csp['script-src'] }).toEqual({ url, scripts: ["'self'", "'wasm-unsafe-eval'", hashOf('document.title="云文档"')] });
      }
      // a new build with another script: its hash, and no longer the old one
      fs.writeFileSync(index, withScript('document.title="云文档 · 登录"'));
      const csp = directives((await call(server.app, 'GET', '/login')).headers['content-security-policy']);
      expect(csp['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", hashOf('document.title="云文档 · 登录"')]);
    } finally {
      fs.writeFileSync(index, INDEX_HTML);
    }
    const csp = directives((await call(server.app, 'GET', '/login')).headers['content-security-policy']);
    expect(csp['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  });

  test('the shell served apart by scripts/serve-static.mjs (docker-compose) sends the API\'s page headers', async () => {
    // a remote on another origin, so the policy the API builds is not the default one
    const api = await startServer('sqlite', { env: { WEB_ROOT: webRoot, REMOTE_FILES_URL: 'https://files.example.com/mf-manifest.json' } });
    const { createStaticServer } = await import('../../scripts/serve-static.mjs');
    try {
      const apiUrl = await api.app.listen({ port: 0, host: '127.0.0.1' });
      const expected = (await call(api.app, 'GET', '/')).headers['content-security-policy'];
      expect(String(expected)).toContain('https://files.example.com');
      const shell = createStaticServer({ dir: path.join(webRoot, 'shell', 'dist'), proxy: apiUrl, log: false });
      await new Promise<void>((resolve) => shell.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(shell.address() as { port: number }).port}`;
      try {
        for (const page of ['/', '/file/personal', '/s/AbCdEf123?key=Abcd1234']) {
          const res = await fetch(`${base}${page}`);
          expect(await res.text()).toBe(INDEX_HTML);
          expect(res.headers.get('content-security-policy')).toBe(expected);
          expect(res.headers.get('x-frame-options')).toBe('DENY');
          expect(res.headers.get('referrer-policy')).toBe(page.startsWith('/s/') ? 'no-referrer' : 'strict-origin-when-cross-origin');
        }
        // a script is no page: no page headers
        const script = await fetch(`${base}/main.0123abcd.js`);
        expect(script.headers.get('content-security-policy')).toBeNull();
      } finally {
        await new Promise((resolve) => shell.close(resolve));
      }

      // a shell build of its own, whose index.html has an inline script the API's build lacks:
      // the API's policy, and that script allowed by its hash
      const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-web-own-'));
      const code = 'document.title="云文档"';
      fs.writeFileSync(path.join(ownDir, 'index.html'), `<!doctype html><body><div id="root"></div><script>${code}</script></body>`);
      const own = createStaticServer({ dir: ownDir, proxy: apiUrl, log: false });
      await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
      try {
        const res = await fetch(`http://127.0.0.1:${(own.address() as { port: number }).port}/login`);
        const csp = directives(res.headers.get('content-security-policy'));
        const hash = `'sha256-${crypto.createHash('sha256').update(code).digest('base64')}'`;
        expect(csp['script-src']).toEqual([...directives(expected)['script-src'], hash]);
        expect({ ...csp, 'script-src': [] }).toEqual({ ...directives(expected), 'script-src': [] });
      } finally {
        await new Promise((resolve) => own.close(resolve));
        fs.rmSync(ownDir, { recursive: true, force: true });
      }
    } finally {
      await api.close();
    }
  });
});
