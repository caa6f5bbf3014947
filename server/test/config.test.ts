// 云文档 server configuration from the environment (docs/integration.md, "Server").
import path from 'node:path';
import { ConfigError, loadConfig, REPOSITORY_ROOT } from '../src/config';

test('defaults need nothing installed', () => {
  const c = loadConfig({}, '/srv/app');
  expect(c).toMatchObject({
    port: 8080,
    host: '0.0.0.0',
    dataDir: path.resolve('/srv/app', 'data'),
    databaseUrl: null,
    adminUser: 'admin',
    adminPassword: null,
    mode: 'full',
    webRoot: REPOSITORY_ROOT,
    remoteUrls: {},
    tzName: 'Asia/Shanghai',
    logLevel: 'info',
    trustProxy: false,
    throttle: { addressLimit: 20, windowMs: 15 * 60 * 1000 },
    sessionTtlMs: 720 * 24 * 60 * 60 * 1000,
  });
  expect(REPOSITORY_ROOT).toBe(path.resolve(__dirname, '..', '..'));
});

test('every variable of the integration page is read', () => {
  const c = loadConfig(
    {
      PORT: '9090',
      HOST: '127.0.0.1',
      DATA_DIR: 'var/data',
      DATABASE_URL: 'postgres://u@db/x',
      ADMIN_USER: 'root',
      ADMIN_PASSWORD: 'Secret-Passw0rd',
      MODE: 'simple',
      WEB_ROOT: '/opt/web',
      REMOTE_FILES_URL: 'http://h:3001/mf-manifest.json',
      REMOTE_SHARE_URL: 'http://h:3005/mf-manifest.json',
      TZ_NAME: 'UTC',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
    },
    '/srv/app',
  );
  expect(c).toMatchObject({
    port: 9090,
    host: '127.0.0.1',
    dataDir: '/srv/app/var/data',
    databaseUrl: 'postgres://u@db/x',
    adminUser: 'root',
    adminPassword: 'Secret-Passw0rd',
    mode: 'simple',
    webRoot: '/opt/web',
    remoteUrls: { files: 'http://h:3001/mf-manifest.json', share: 'http://h:3005/mf-manifest.json' },
    tzName: 'UTC',
    logLevel: 'warn',
    trustProxy: true,
  });
  expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
});

test.each([
  [{ PORT: 'eighty' }, 'PORT'],
  [{ MODE: 'lite' }, 'MODE'],
  [{ TZ_NAME: 'Mars/Olympus' }, 'TZ_NAME'],
  [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
])('a wrong value is refused with a Chinese message naming the variable: %o', (env, name) => {
  expect(() => loadConfig(env)).toThrow(ConfigError);
  expect(() => loadConfig(env)).toThrow(new RegExp(`${name}.*[\\u4e00-\\u9fff]|[\\u4e00-\\u9fff].*${name}`));
});
