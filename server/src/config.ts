// 云文档 API server configuration, read from the environment (docs/integration.md, "Server").
// Every default works with nothing installed: SQLite under ./data, port 8080.
import path from 'node:path';

export const REMOTE_NAMES = ['files', 'workflow', 'swapspace', 'ferry', 'share'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];
export type Mode = 'full' | 'simple';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ThrottleConfig {
  /** failed sign-ins of one account inside the window before 429 */
  accountLimit: number;
  /** failed sign-ins from one client address inside the window before 429 */
  addressLimit: number;
  windowMs: number;
}

export interface AppConfig {
  port: number;
  host: string;
  /** absolute */
  dataDir: string;
  /** PostgreSQL when set, else SQLite at `$DATA_DIR/app.db` */
  databaseUrl: string | null;
  adminUser: string;
  /** null: generated on the first start and printed once */
  adminPassword: string | null;
  mode: Mode;
  /** absolute; holds shell/dist and remote-<name>/dist */
  webRoot: string;
  /** REMOTE_<NAME>_URL: absolute mf-manifest.json URLs that replace /remotes/<name>/mf-manifest.json */
  remoteUrls: Partial<Record<RemoteName, string>>;
  tzName: string;
  logLevel: LogLevel;
  throttle: ThrottleConfig;
  /** lifetime of a session and of its cookie (spec section 9: 720 days) */
  sessionTtlMs: number;
  /**
   * TRUST_PROXY (optional, off by default): behind a reverse proxy, take the client address
   * (sign-in throttling) and protocol (Secure cookie) from X-Forwarded-For/-Proto.
   * `true`, a number of hops, or a comma-separated list of proxy addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  /** RECYCLE_RETENTION_DAYS: items stay this many days in the recycle bin, then are purged */
  recycleRetentionDays: number;
}

export class ConfigError extends Error {}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The repository root: server/src/config.ts and server/dist/config.js both sit two levels below it. */
export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the configuration. `env` and `cwd` are parameters so tests can build a config
 * without touching the process.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): AppConfig {
  const portText = nonEmpty(env.PORT) ?? '8080';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`环境变量 PORT 的值 "${portText}" 不是有效的端口号`);
  }

  const modeText = (nonEmpty(env.MODE) ?? 'full').toLowerCase();
  if (modeText !== 'full' && modeText !== 'simple') {
    throw new ConfigError(`环境变量 MODE 只能是 full 或 simple，当前为 "${env.MODE}"`);
  }

  const tzName = nonEmpty(env.TZ_NAME) ?? 'Asia/Shanghai';
  if (!validTimeZone(tzName)) throw new ConfigError(`环境变量 TZ_NAME 的时区 "${tzName}" 无效`);

  const logLevel = (nonEmpty(env.LOG_LEVEL) ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`环境变量 LOG_LEVEL 只能是 ${LOG_LEVELS.join('、')} 之一`);
  }

  const remoteUrls: Partial<Record<RemoteName, string>> = {};
  for (const name of REMOTE_NAMES) {
    const url = nonEmpty(env[`REMOTE_${name.toUpperCase()}_URL`]);
    if (url) remoteUrls[name] = url;
  }

  const trustText = nonEmpty(env.TRUST_PROXY);
  let trustProxy: boolean | number | string = false;
  if (trustText) {
    if (/^(true|yes)$/i.test(trustText)) trustProxy = true;
    else if (/^(false|no)$/i.test(trustText)) trustProxy = false;
    else if (/^\d+$/.test(trustText)) trustProxy = Number(trustText) || false;
    else trustProxy = trustText;
  }

  const retentionText = nonEmpty(env.RECYCLE_RETENTION_DAYS) ?? '30';
  const recycleRetentionDays = Number(retentionText);
  if (!Number.isInteger(recycleRetentionDays) || recycleRetentionDays < 1 || recycleRetentionDays > 36500) {
    throw new ConfigError(`环境变量 RECYCLE_RETENTION_DAYS 的值 "${retentionText}" 不是有效的天数（1–36500 的整数）`);
  }

  const adminUser = nonEmpty(env.ADMIN_USER) ?? 'admin';
  return {
    port,
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    dataDir: path.resolve(cwd, nonEmpty(env.DATA_DIR) ?? './data'),
    databaseUrl: nonEmpty(env.DATABASE_URL) ?? null,
    adminUser,
    adminPassword: env.ADMIN_PASSWORD ? env.ADMIN_PASSWORD : null,
    mode: modeText,
    webRoot: path.resolve(cwd, nonEmpty(env.WEB_ROOT) ?? REPOSITORY_ROOT),
    remoteUrls,
    tzName,
    logLevel,
    throttle: { accountLimit: 5, addressLimit: 20, windowMs: 15 * 60 * 1000 },
    sessionTtlMs: 720 * DAY_MS,
    trustProxy,
    recycleRetentionDays,
  };
}
