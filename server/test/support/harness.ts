// Test harness of the 云文档 server: builds the app on a fresh data folder (and, when
// TEST_DATABASE_URL is set, a fresh PostgreSQL database) and talks to it with inject().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp, type App } from '../../src/app';
import { loadConfig, type AppConfig } from '../../src/config';

// Sign-ins cost a memory-hard scrypt each (tens of milliseconds, more on a busy machine):
// suites that sign in dozens of times need more than Jest's default 5 s per test.
jest.setTimeout(30_000);

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'Test-Admin-Passw0rd!';

export type DbKind = 'sqlite' | 'postgres';

/** Every suite runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set. */
export function databaseKinds(): DbKind[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

let dbSeq = 0;

async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `yd_test_${process.pid}_${++dbSeq}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export interface TestServer {
  app: App;
  config: AppConfig;
  /** builds a second app on the same data folder and database (a restart) */
  restart(env?: Record<string, string>): Promise<App>;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** changes to the configuration after it was read from the environment */
  tweak?: (config: AppConfig) => void;
}

export async function startServer(kind: DbKind, options: StartOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-server-test-'));
  const pgDb = kind === 'postgres' ? await createPgDatabase() : null;
  const configFor = (env: Record<string, string> = {}) => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_USER,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'silent',
      WEB_ROOT: path.join(dataDir, 'no-web-root'),
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      ...options.env,
      ...env,
    });
    options.tweak?.(config);
    return config;
  };
  const apps: App[] = [];
  const config = configFor();
  let app: App;
  try {
    app = await buildApp(config);
    await app.ready();
  } catch (err) {
    await pgDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  apps.push(app);
  return {
    app,
    config,
    async restart(env) {
      const next = await buildApp(configFor(env));
      await next.ready();
      apps.push(next);
      return next;
    },
    async close() {
      for (const a of apps) await a.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  token?: string;
  cookie?: string;
  body?: unknown;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface CallResult<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** parsed JSON, or the text when the reply is not JSON */
  body: T;
  text: string;
  /** the reply's bytes (a file) */
  raw: Buffer;
  cookies: { name: string; value: string; [k: string]: unknown }[];
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS';

export async function call<T = any>(app: App, method: Method, url: string, o: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
  if (o.cookie !== undefined) headers.cookie = `token=${o.cookie}`;
  if (o.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await app.inject({
    method,
    url,
    query: o.query ? Object.fromEntries(Object.entries(o.query).map(([k, v]) => [k, String(v)])) : undefined,
    headers,
    payload: o.body === undefined ? undefined : typeof o.body === 'string' || Buffer.isBuffer(o.body) ? o.body : JSON.stringify(o.body),
    remoteAddress: o.remoteAddress,
  });
  let body: unknown = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, headers: res.headers, body: body as T, text: res.body, raw: res.rawPayload, cookies: res.cookies as CallResult['cookies'] };
}

/** Expects envelope code 200 and returns its result. */
export async function ok<T = any>(app: App, method: Method, url: string, o: CallOptions = {}): Promise<T> {
  const res = await call(app, method, url, o);
  if (res.status !== 200 || res.body?.code !== 200) {
    throw new Error(`${method} ${url} -> HTTP ${res.status} ${res.text.slice(0, 300)}`);
  }
  return res.body.result as T;
}

export async function login(app: App, userName = ADMIN_USER, password = ADMIN_PASSWORD, remoteAddress?: string) {
  return ok(app, 'POST', '/api/login', { body: { userName, password, mode: 'password' }, remoteAddress });
}

let userSeq = 0;

export async function createUser(app: App, adminToken: string, o: { userName?: string; password?: string; nickName?: string; isDocAdmin?: boolean } = {}) {
  const n = ++userSeq;
  const user = {
    userName: o.userName ?? `user${n}_${Math.random().toString(36).slice(2, 7)}`,
    nickName: o.nickName ?? `测试用户${n}`,
    password: o.password ?? `User-Passw0rd-${n}`,
  };
  const result = await ok<{ userId: string }>(app, 'POST', '/api/Admin/Users', {
    token: adminToken,
    body: { ...user, deptId: null, mustChangePassword: false, ...(o.isDocAdmin !== undefined ? { isDocAdmin: o.isDocAdmin } : {}) },
  });
  return { ...user, userId: result.userId };
}

/** A user and a signed-in token. */
export async function userWithToken(app: App, adminToken: string, o: Parameters<typeof createUser>[2] = {}) {
  const user = await createUser(app, adminToken, o);
  const session = await login(app, user.userName, user.password);
  return { ...user, token: session.token as string, jwtId: session.jwtId as string };
}

export type TestUser = Awaited<ReturnType<typeof userWithToken>>;

/**
 * The users of a role matrix, signed in: a personal-space owner, another normal user, an
 * enterprise editor (isDocAdmin), an enterprise viewer and a disabled user; with the owner's
 * and the editor's personal roots and the enterprise root.
 */
export async function roleCast(app: App) {
  const adminToken = (await login(app)).token as string;
  const owner = await userWithToken(app, adminToken, { nickName: '所有者' });
  const outsider = await userWithToken(app, adminToken, { nickName: '外人' });
  const editor = await userWithToken(app, adminToken, { nickName: '编辑', isDocAdmin: true });
  const viewer = await userWithToken(app, adminToken, { nickName: '读者' });
  const disabled = await userWithToken(app, adminToken, { nickName: '停用者' });
  await ok(app, 'POST', `/api/Admin/Users/${disabled.userId}/Disable`, { token: adminToken });
  const personalRoot = async (token: string) => (await ok(app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0];
  return {
    adminToken, owner, outsider, editor, viewer, disabled,
    ownerRoot: await personalRoot(owner.token),
    editorRoot: await personalRoot(editor.token),
    publicRoot: (await ok(app, 'GET', '/api/User/Folders/Public/RootFolders', { token: editor.token }))[0],
  };
}

export const HAN = /[\u4e00-\u9fff]/;
/** Fastify's and Ajv's own English texts must never reach the client. */
export const ENGLISH_FRAMEWORK_TEXT = /must (have|be|match|NOT)|body\/|querystring\/|params\/|Unexpected token|Bad Request|FST_/;
