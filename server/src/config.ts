// 云文档 API server configuration, read from the environment (docs/integration.md, "Server").
// Every default works with nothing installed: SQLite under ./data, port 8080.
import fs from 'node:fs';
import path from 'node:path';
import { parseAddressList } from './lib/address-list';
import { which } from './lib/executables';

export const REMOTE_NAMES = ['files', 'workflow', 'swapspace', 'ferry', 'share'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];
export type Mode = 'full' | 'simple';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ThrottleConfig {
  // an account's own limit is the password policy's lockout (lockoutThreshold, lockoutMinutes)
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
  /** OPLOG_RETENTION_DAYS: the operation log keeps records this many days (at least 180, the default) */
  oplogRetentionDays: number;
  /** OPLOG_RECORDING=off stops recording (only to measure what recording costs: bench figure 10) */
  oplogRecording: boolean;
  /** SEARCH_INDEX_POLL_MS: how often queued files are read for full-text search (default 2000; 0 stops the background indexer) */
  searchIndexPollMs: number;
  ferry: FerryConfig;
  preview: PreviewConfig;
  /**
   * SECRET_KEY (at least 32 characters): seals secrets kept for later use (TOTP keys). Unset:
   * a key is made on the first start in `$DATA_DIR/secret.key`. Every instance needs the same.
   */
  secretKey: string | null;
  /** DingTalk sign-in (docs/integration.md, "DingTalk"); null: off */
  dingtalk: DingTalkConfig | null;
  /** how long a client may keep a connection without making progress, and how many it may hold */
  http: HttpLimitsConfig;
  uploads: UploadConfig;
  /** where file contents live: `$DATA_DIR` (default) or an S3-compatible store */
  storage: StorageConfig;
}

/** File contents in an S3-compatible store (docs/integration.md, "Object storage"); `local`: under DATA_DIR. */
export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      /** S3_ENDPOINT: the store's address (empty for AWS itself) */
      endpoint: string | null;
      /** S3_REGION (default us-east-1) */
      region: string;
      /** S3_BUCKET: the bucket; setting it switches the contents to the store */
      bucket: string;
      /** S3_ACCESS_KEY_ID */
      accessKeyId: string;
      /** S3_SECRET_ACCESS_KEY */
      secretAccessKey: string;
      /** S3_FORCE_PATH_STYLE: `http://host/bucket/key` addresses (default true when S3_ENDPOINT is set) */
      forcePathStyle: boolean;
      /** S3_PREFIX: a folder inside the bucket for every key (default none), e.g. `yunwendang/` */
      prefix: string;
    };

/** Upload limits that protect the disk and the other users (docs/integration.md, "Upload"). */
export interface UploadConfig {
  /** UPLOAD_MIN_FREE_MB (default 1024): uploads never take the last this many MiB of the data volume */
  minFreeBytes: number;
  /** DISK_WARN_PERCENT (default 10): administrators are warned while less than this share of the data volume is free */
  diskWarnPercent: number;
  /** UPLOAD_MAX_OPEN_SESSIONS (default 100): unfinished uploads one person (or one external share) may hold */
  maxOpenSessions: number;
  /** UPLOAD_MAX_PENDING_GB (default 20): declared bytes of one person's unfinished uploads, together */
  maxPendingBytes: number;
}

/**
 * Connection limits of the 云文档 HTTP server (docs/integration.md, "Slow and idle
 * connections"). Each one bounds a phase in which the server waits for the client; none bounds
 * a request whose bytes keep moving, so an upload on a slow link or a download that runs for
 * hours is never cut.
 */
export interface HttpLimitsConfig {
  /** HTTP_HEADERS_TIMEOUT_MS: the request line and headers must arrive within this time of the first byte (or of the connection) */
  headersTimeoutMs: number;
  /** HTTP_BODY_TIMEOUT_MS: a request body must deliver bodyMinBytes in every period this long (0: no check) */
  bodyTimeoutMs: number;
  /** HTTP_BODY_MIN_BYTES */
  bodyMinBytes: number;
  /** HTTP_SEND_TIMEOUT_MS: a client that takes none of the waiting response for this long is cut (0: no check) */
  sendTimeoutMs: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: an idle connection between two requests is closed after this */
  keepAliveTimeoutMs: number;
  /**
   * HTTP_CONN_PER_IP: open connections one address may hold (0: no limit). Addresses that
   * TRUST_PROXY names as proxies are not limited (behind a balancer every connection comes
   * from it); TRUST_PROXY=true or a hop count means every peer is a proxy, so no limit.
   */
  connPerIp: number;
}

export interface DingTalkConfig {
  /** DINGTALK_APP_KEY: the app's key (the client_id and the appId of LoginWithDingtalk) */
  appKey: string;
  /** DINGTALK_APP_SECRET */
  appSecret: string;
  /** DINGTALK_API_BASE (default https://api.dingtalk.com): token exchange and user info */
  apiBase: string;
  /** DINGTALK_LOGIN_BASE (default https://login.dingtalk.com): where the browser signs in */
  loginBase: string;
  /** DINGTALK_OAPI_BASE (default https://oapi.dingtalk.com): the contacts (departments and members) of 通讯录同步, and 工作通知 */
  oapiBase: string;
  /** DINGTALK_AUTO_CREATE: a DingTalk user matching no account gets one (default off) */
  autoCreate: boolean;
  /** DINGTALK_LOGIN_MODE: `redirect` (default) sends the browser to DingTalk; `qr` shows DingTalk's QR code inside the login page */
  loginMode: 'redirect' | 'qr';
  /** DINGTALK_QR_SDK_URL: DingTalk's login script (DTFrameLogin) for the QR mode */
  qrSdkUrl: string;
  /**
   * DINGTALK_AGENT_ID: the AgentId of the app's 工作通知 (a number, as the app's page in DingTalk's
   * developer console shows it). Set: notices go to people's DingTalk too (the channel 钉钉 of
   * 通知设置); null (default): no such channel.
   */
  agentId: string | null;
}

/** File preview (docs/integration.md, "Preview"). */
export interface PreviewConfig {
  /** PREVIEW_SOFFICE: LibreOffice's soffice (default: found on PATH); null: office documents are not previewed (`off`, or none installed) */
  soffice: string | null;
  /** PREVIEW_WORKERS: conversions at a time in this instance (default 2, 1–8) */
  workers: number;
  /** PREVIEW_TIMEOUT_MS: a conversion taking longer is stopped and fails (default 120000) */
  timeoutMs: number;
  /** PREVIEW_POLL_MS: how often queued conversions are looked for (default 1000; 0 stops the converter of this instance) */
  pollMs: number;
  /** PREVIEW_SWEEP_MS: how often previews of contents no file holds any more are removed (default 3600000; 0: never, in this instance) */
  sweepMs: number;
}

/** A zone this deployment may send to, and how packages get there. */
export type FerryPeer =
  | { zone: string; channel: 'spool'; dir: string }
  | { zone: string; channel: 'https'; url: string };

/** The file ferry (docs/integration.md, "File ferry"): this deployment's zone and its channels. */
export interface FerryConfig {
  /** FERRY_ZONE: the network zone this deployment belongs to (default 内网) */
  zone: string;
  /** FERRY_SECRET: shared with the peers; signs every manifest (HMAC-SHA256). null: nothing crosses */
  secret: string | null;
  /** FERRY_PEERS: `外网=spool:/srv/spool/to-outer,研发网=https://rd.example.com` */
  peers: FerryPeer[];
  /** FERRY_SPOOL_IN: directories (comma-separated) whose packages are imported here */
  spoolIn: string[];
  /** FERRY_ACCEPT_FROM: zones that send here over a one-way link (no channel back, so not peers) */
  acceptFrom: string[];
  /** FERRY_POLL_MS: how often the spool is read and queued work is retried (default 5000) */
  pollMs: number;
  /** CLAMAV_DB: a signature database (file or directory) for clamscan; null: ClamAV's own */
  clamavDb: string | null;
  /** CLAMD_SOCKET: scan through clamd on this Unix socket instead of running clamscan */
  clamdSocket: string | null;
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
    else if (parseAddressList(trustText) === null) {
      throw new ConfigError(`环境变量 TRUST_PROXY 的值 "${trustText}" 无效：应为 true、false、代理的层数，或以逗号分隔的代理地址与网段（如 10.0.0.0/8、loopback）`);
    } else trustProxy = trustText;
  }

  const retentionText = nonEmpty(env.RECYCLE_RETENTION_DAYS) ?? '30';
  const recycleRetentionDays = Number(retentionText);
  if (!Number.isInteger(recycleRetentionDays) || recycleRetentionDays < 1 || recycleRetentionDays > 36500) {
    throw new ConfigError(`环境变量 RECYCLE_RETENTION_DAYS 的值 "${retentionText}" 不是有效的天数（1–36500 的整数）`);
  }

  const pollText = nonEmpty(env.SEARCH_INDEX_POLL_MS) ?? '2000';
  const searchIndexPollMs = Number(pollText);
  if (!Number.isInteger(searchIndexPollMs) || (searchIndexPollMs !== 0 && searchIndexPollMs < 100) || searchIndexPollMs > 3600000) {
    throw new ConfigError(`环境变量 SEARCH_INDEX_POLL_MS 的值 "${pollText}" 无效（0，或 100–3600000 毫秒）`);
  }

  const adminUser = nonEmpty(env.ADMIN_USER) ?? 'admin';
  const ferry = loadFerryConfig(env, cwd);
  const preview = loadPreviewConfig(env);
  const secretKey = env.SECRET_KEY ? env.SECRET_KEY : null;
  const dingtalk = loadDingTalkConfig(env);
  const http = loadHttpLimits(env);
  const uploads: UploadConfig = {
    minFreeBytes: integerSetting(env, 'UPLOAD_MIN_FREE_MB', 1024, 1, 1_048_576, true) * 1024 * 1024,
    diskWarnPercent: integerSetting(env, 'DISK_WARN_PERCENT', 10, 1, 90),
    maxOpenSessions: integerSetting(env, 'UPLOAD_MAX_OPEN_SESSIONS', 100, 1, 100_000),
    maxPendingBytes: integerSetting(env, 'UPLOAD_MAX_PENDING_GB', 20, 1, 1_048_576) * 1024 ** 3,
  };
  if (secretKey !== null && secretKey.length < 32) throw new ConfigError('环境变量 SECRET_KEY 至少需要 32 个字符');
  const storage = loadStorageConfig(env);
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
    throttle: { addressLimit: 20, windowMs: 15 * 60 * 1000 },
    sessionTtlMs: 720 * DAY_MS,
    trustProxy,
    recycleRetentionDays,
    oplogRetentionDays: integerSetting(env, 'OPLOG_RETENTION_DAYS', 180, 180, 36500),
    oplogRecording: !/^(off|false|no|0)$/i.test(nonEmpty(env.OPLOG_RECORDING) ?? 'on'),
    searchIndexPollMs,
    ferry,
    preview,
    secretKey,
    dingtalk,
    http,
    uploads,
    storage,
  };
}

function loadStorageConfig(env: NodeJS.ProcessEnv): StorageConfig {
  const bucket = nonEmpty(env.S3_BUCKET);
  const named = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((n) => nonEmpty(env[n]));
  if (!bucket) {
    if (named.length) throw new ConfigError(`设置了 ${named.join('、')} 但没有设置 S3_BUCKET：使用对象存储须同时设置存储桶`);
    return { kind: 'local' };
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`环境变量 S3_BUCKET 的值 "${bucket}" 不是有效的存储桶名称（3–63 个小写字母、数字、点或连字符）`);
  const endpointText = nonEmpty(env.S3_ENDPOINT) ?? null;
  let endpoint: string | null = null;
  if (endpointText) {
    try {
      const url = new URL(endpointText);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error();
      endpoint = endpointText.replace(/\/+$/, '');
    } catch {
      throw new ConfigError(`环境变量 S3_ENDPOINT 的值 "${endpointText}" 不是有效的 http(s) 地址`);
    }
  }
  const accessKeyId = nonEmpty(env.S3_ACCESS_KEY_ID);
  const secretAccessKey = nonEmpty(env.S3_SECRET_ACCESS_KEY);
  if (!accessKeyId || !secretAccessKey) throw new ConfigError('使用对象存储须设置 S3_ACCESS_KEY_ID 和 S3_SECRET_ACCESS_KEY');
  const pathStyleText = (nonEmpty(env.S3_FORCE_PATH_STYLE) ?? (endpoint ? 'true' : 'false')).toLowerCase();
  if (!['true', 'false', '1', '0'].includes(pathStyleText)) throw new ConfigError(`环境变量 S3_FORCE_PATH_STYLE 的值 "${pathStyleText}" 应为 true 或 false`);
  let prefix = (nonEmpty(env.S3_PREFIX) ?? '').replace(/^\/+/, '');
  if (prefix && !prefix.endsWith('/')) prefix += '/';
  if (prefix.length > 200 || /[\\\u0000-\u001f]/.test(prefix)) throw new ConfigError(`环境变量 S3_PREFIX 的值 "${prefix}" 无效`);
  return {
    kind: 's3',
    endpoint,
    region: nonEmpty(env.S3_REGION) ?? 'us-east-1',
    bucket,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: pathStyleText === 'true' || pathStyleText === '1',
    prefix,
  };
}

function loadHttpLimits(env: NodeJS.ProcessEnv): HttpLimitsConfig {
  return {
    headersTimeoutMs: integerSetting(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000, 100, 600_000),
    bodyTimeoutMs: integerSetting(env, 'HTTP_BODY_TIMEOUT_MS', 30_000, 100, 3_600_000, true),
    bodyMinBytes: integerSetting(env, 'HTTP_BODY_MIN_BYTES', 16_384, 1, 10_485_760),
    sendTimeoutMs: integerSetting(env, 'HTTP_SEND_TIMEOUT_MS', 120_000, 100, 3_600_000, true),
    keepAliveTimeoutMs: integerSetting(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 100, 3_600_000),
    connPerIp: integerSetting(env, 'HTTP_CONN_PER_IP', 128, 1, 1_000_000, true),
  };
}

function loadDingTalkConfig(env: NodeJS.ProcessEnv): DingTalkConfig | null {
  const appKey = nonEmpty(env.DINGTALK_APP_KEY);
  const appSecret = nonEmpty(env.DINGTALK_APP_SECRET);
  const agentId = nonEmpty(env.DINGTALK_AGENT_ID) ?? null;
  if (agentId !== null && !/^[1-9][0-9]{0,14}$/.test(agentId)) throw new ConfigError(`环境变量 DINGTALK_AGENT_ID 的值 "${agentId}" 不是有效的 AgentId（应为钉钉开发者后台显示的数字）`);
  if (!appKey && !appSecret) {
    if (agentId !== null) throw new ConfigError('设置了 DINGTALK_AGENT_ID 但没有设置 DINGTALK_APP_KEY 和 DINGTALK_APP_SECRET：钉钉工作通知需要钉钉应用的凭证');
    return null;
  }
  if (!appKey || !appSecret) throw new ConfigError('钉钉登录需要同时设置 DINGTALK_APP_KEY 和 DINGTALK_APP_SECRET');
  const base = (name: string, fallback: string) => {
    const text = nonEmpty(env[name]) ?? fallback;
    try {
      const url = new URL(text);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error();
      return text.replace(/\/+$/, '');
    } catch {
      throw new ConfigError(`环境变量 ${name} 的值 "${text}" 不是有效的 http(s) 地址`);
    }
  };
  const autoText = (nonEmpty(env.DINGTALK_AUTO_CREATE) ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(autoText)) throw new ConfigError(`环境变量 DINGTALK_AUTO_CREATE 的值 "${autoText}" 应为 true 或 false`);
  const loginMode = (nonEmpty(env.DINGTALK_LOGIN_MODE) ?? 'redirect').toLowerCase();
  if (loginMode !== 'redirect' && loginMode !== 'qr') throw new ConfigError(`环境变量 DINGTALK_LOGIN_MODE 的值 "${loginMode}" 应为 redirect 或 qr`);
  return {
    appKey,
    appSecret,
    loginMode,
    qrSdkUrl: base('DINGTALK_QR_SDK_URL', 'https://g.alicdn.com/dingding/h5-dingtalk-login/0.21.0/ddlogin.js'),
    apiBase: base('DINGTALK_API_BASE', 'https://api.dingtalk.com'),
    loginBase: base('DINGTALK_LOGIN_BASE', 'https://login.dingtalk.com'),
    oapiBase: base('DINGTALK_OAPI_BASE', 'https://oapi.dingtalk.com'),
    autoCreate: autoText === 'true' || autoText === '1',
    agentId,
  };
}

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, zeroAllowed = false): number {
  const text = nonEmpty(env[name]) ?? String(fallback);
  const n = Number(text);
  if (!Number.isInteger(n) || ((n < min || n > max) && !(zeroAllowed && n === 0))) {
    throw new ConfigError(`环境变量 ${name} 的值 "${text}" 无效（${zeroAllowed ? '0，或 ' : ''}${min}–${max} 的整数）`);
  }
  return n;
}

function loadPreviewConfig(env: NodeJS.ProcessEnv): PreviewConfig {
  const sofficeText = nonEmpty(env.PREVIEW_SOFFICE);
  let soffice: string | null;
  if (sofficeText && /^(off|false|no)$/i.test(sofficeText)) soffice = null;
  else if (sofficeText) soffice = path.resolve(sofficeText);
  else soffice = which('soffice') ?? which('libreoffice') ?? (fs.existsSync(BUNDLED_SOFFICE) ? BUNDLED_SOFFICE : null);
  return {
    soffice,
    workers: integerSetting(env, 'PREVIEW_WORKERS', 2, 1, 8),
    timeoutMs: integerSetting(env, 'PREVIEW_TIMEOUT_MS', 120_000, 5_000, 3_600_000),
    pollMs: integerSetting(env, 'PREVIEW_POLL_MS', 1000, 100, 3_600_000, true),
    sweepMs: integerSetting(env, 'PREVIEW_SWEEP_MS', 3_600_000, 60_000, 7 * 24 * 3_600_000, true),
  };
}

/** Where Debian's LibreOffice keeps soffice when no link to it is on PATH. */
const BUNDLED_SOFFICE = '/usr/lib/libreoffice/program/soffice';

const ZONE_NAME = /^[\p{L}\p{N}_-]{1,32}$/u;

function loadFerryConfig(env: NodeJS.ProcessEnv, cwd: string): FerryConfig {
  const zone = nonEmpty(env.FERRY_ZONE) ?? '内网';
  if (!ZONE_NAME.test(zone)) throw new ConfigError(`环境变量 FERRY_ZONE 的值 "${zone}" 不是有效的区域名称（1–32 个字母、数字、_ 或 -）`);
  const peers: FerryPeer[] = [];
  for (const part of (nonEmpty(env.FERRY_PEERS) ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    const name = eq > 0 ? part.slice(0, eq).trim() : '';
    const target = eq > 0 ? part.slice(eq + 1).trim() : '';
    if (!ZONE_NAME.test(name) || name === zone || peers.some((p) => p.zone === name)) {
      throw new ConfigError(`环境变量 FERRY_PEERS 中的 "${part}" 无效：应为 区域=spool:目录 或 区域=https://地址，区域不能重复，也不能是本区域`);
    }
    if (target.startsWith('spool:') && target.length > 'spool:'.length) {
      peers.push({ zone: name, channel: 'spool', dir: path.resolve(cwd, target.slice('spool:'.length)) });
    } else if (/^https?:\/\/[^\s]+$/.test(target)) {
      peers.push({ zone: name, channel: 'https', url: target.replace(/\/+$/, '') });
    } else {
      throw new ConfigError(`环境变量 FERRY_PEERS 中 "${name}" 的通道 "${target}" 无效：应为 spool:目录 或 https://地址`);
    }
  }
  const acceptFrom = (nonEmpty(env.FERRY_ACCEPT_FROM) ?? '').split(',').map((z) => z.trim()).filter(Boolean);
  for (const z of acceptFrom) {
    if (!ZONE_NAME.test(z) || z === zone) throw new ConfigError(`环境变量 FERRY_ACCEPT_FROM 中的区域 "${z}" 无效（不能是本区域）`);
  }
  const secret = env.FERRY_SECRET ? env.FERRY_SECRET : null;
  if (secret !== null && secret.length < 16) throw new ConfigError('环境变量 FERRY_SECRET 至少需要 16 个字符');
  const pollText = nonEmpty(env.FERRY_POLL_MS) ?? '5000';
  const pollMs = Number(pollText);
  if (!Number.isInteger(pollMs) || pollMs < 100 || pollMs > 3600000) {
    throw new ConfigError(`环境变量 FERRY_POLL_MS 的值 "${pollText}" 无效（100–3600000 毫秒）`);
  }
  return {
    zone,
    secret,
    peers,
    acceptFrom: [...new Set(acceptFrom.filter((z) => !peers.some((p) => p.zone === z)))],
    spoolIn: (nonEmpty(env.FERRY_SPOOL_IN) ?? '').split(',').map((d) => d.trim()).filter(Boolean).map((d) => path.resolve(cwd, d)),
    pollMs,
    clamavDb: nonEmpty(env.CLAMAV_DB) ? path.resolve(cwd, env.CLAMAV_DB as string) : null,
    clamdSocket: nonEmpty(env.CLAMD_SOCKET) ?? null,
  };
}
