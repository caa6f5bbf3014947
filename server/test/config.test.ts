// 云文档 server configuration from the environment (docs/integration.md, "Server").
import path from 'node:path';
import { ConfigError, loadConfig, REPOSITORY_ROOT } from '../src/config';
import { parseAddressList } from '../src/lib/address-list';

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
  [{ TRUST_PROXY: 'proxy.example.com' }, 'TRUST_PROXY'],
  [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
  [{ HTTP_HEADERS_TIMEOUT_MS: '0' }, 'HTTP_HEADERS_TIMEOUT_MS'],
  [{ HTTP_BODY_TIMEOUT_MS: '50' }, 'HTTP_BODY_TIMEOUT_MS'],
  [{ HTTP_BODY_MIN_BYTES: '0' }, 'HTTP_BODY_MIN_BYTES'],
  [{ HTTP_SEND_TIMEOUT_MS: 'long' }, 'HTTP_SEND_TIMEOUT_MS'],
  [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '0' }, 'HTTP_KEEP_ALIVE_TIMEOUT_MS'],
  [{ HTTP_CONN_PER_IP: '-1' }, 'HTTP_CONN_PER_IP'],
  [{ UPLOAD_MIN_FREE_MB: 'lots' }, 'UPLOAD_MIN_FREE_MB'],
  [{ DISK_WARN_PERCENT: '95' }, 'DISK_WARN_PERCENT'],
  [{ UPLOAD_MAX_OPEN_SESSIONS: '0' }, 'UPLOAD_MAX_OPEN_SESSIONS'],
  [{ UPLOAD_MAX_PENDING_GB: '1.5' }, 'UPLOAD_MAX_PENDING_GB'],
])('a wrong value is refused with a Chinese message naming the variable: %o', (env, name) => {
  expect(() => loadConfig(env)).toThrow(ConfigError);
  expect(() => loadConfig(env)).toThrow(new RegExp(`${name}.*[\\u4e00-\\u9fff]|[\\u4e00-\\u9fff].*${name}`));
});

test('upload limits: a reserve of free space, a warning threshold, unfinished uploads per person', () => {
  expect(loadConfig({}).uploads).toEqual({ minFreeBytes: 1024 ** 3, diskWarnPercent: 10, maxOpenSessions: 100, maxPendingBytes: 20 * 1024 ** 3 });
  expect(loadConfig({ UPLOAD_MIN_FREE_MB: '0', DISK_WARN_PERCENT: '25', UPLOAD_MAX_OPEN_SESSIONS: '10', UPLOAD_MAX_PENDING_GB: '100' }).uploads).toEqual({
    minFreeBytes: 0,
    diskWarnPercent: 25,
    maxOpenSessions: 10,
    maxPendingBytes: 100 * 1024 ** 3,
  });
});

test('connection limits: defaults that a slow but live upload never meets, each one configurable', () => {
  expect(loadConfig({}).http).toEqual({
    headersTimeoutMs: 20_000,
    bodyTimeoutMs: 30_000,
    bodyMinBytes: 16_384,
    sendTimeoutMs: 120_000,
    keepAliveTimeoutMs: 65_000,
    connPerIp: 128,
  });
  expect(
    loadConfig({
      HTTP_HEADERS_TIMEOUT_MS: '5000',
      HTTP_BODY_TIMEOUT_MS: '0',
      HTTP_BODY_MIN_BYTES: '1024',
      HTTP_SEND_TIMEOUT_MS: '0',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000',
      HTTP_CONN_PER_IP: '0',
    }).http,
  ).toEqual({ headersTimeoutMs: 5000, bodyTimeoutMs: 0, bodyMinBytes: 1024, sendTimeoutMs: 0, keepAliveTimeoutMs: 75_000, connPerIp: 0 });
  // the proxy lists TRUST_PROXY accepts
  for (const list of ['loopback', '10.0.0.0/8, 192.168.1.7', 'fd00::/8,::1', '10.0.0.0/255.0.0.0', 'uniquelocal,linklocal']) {
    expect(loadConfig({ TRUST_PROXY: list }).trustProxy).toBe(list);
  }
});

test('a TRUST_PROXY list matches peers as Fastify reads it (the connection ceiling spares them)', () => {
  const trusted = parseAddressList('loopback, 10.0.0.0/255.0.0.0, fd00::/8')!;
  for (const a of ['127.0.0.1', '127.8.9.10', '::ffff:127.0.0.1', '::1', '10.9.8.7', 'fd12::1']) expect({ a, m: trusted(a) }).toEqual({ a, m: true });
  for (const a of ['11.0.0.1', '192.168.1.1', 'fe80::1', '', 'not-an-address']) expect({ a, m: trusted(a) }).toEqual({ a, m: false });
  expect(parseAddressList('10.0.0.0/255.0.255.0')).toBeNull();
  expect(parseAddressList(' , ')).toBeNull();
});

test('DINGTALK_AGENT_ID: the AgentId of DingTalk 工作通知, read with the app; a wrong value or one without the app is refused in Chinese', () => {
  const app = { DINGTALK_APP_KEY: 'dingapp', DINGTALK_APP_SECRET: 'dingsecret' };
  expect(loadConfig(app).dingtalk?.agentId).toBeNull();
  expect(loadConfig({ ...app, DINGTALK_AGENT_ID: '2876543210' }).dingtalk?.agentId).toBe('2876543210');
  expect(loadConfig({ ...app, DINGTALK_AGENT_ID: ' ' }).dingtalk?.agentId).toBeNull();
  expect(() => loadConfig({ ...app, DINGTALK_AGENT_ID: 'agent-1' })).toThrow(/DINGTALK_AGENT_ID 的值 "agent-1" 不是有效的 AgentId/);
  expect(() => loadConfig({ DINGTALK_AGENT_ID: '2876543210' })).toThrow(/设置了 DINGTALK_AGENT_ID 但没有设置 DINGTALK_APP_KEY 和 DINGTALK_APP_SECRET/);
});
