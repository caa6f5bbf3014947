// The spool channel of 云文档's file ferry (issue 13): what a network gateway (网闸) or a
// one-way transfer appliance carries from one zone's directory to the other's.
//
// A package is a directory `<packageId>.pkg` holding `files/<n>` (the approved bytes),
// `manifest.json` (names, sizes, SHA-256, task, zones, recipients, expiry) and `manifest.sig`
// (HMAC-SHA256 of the manifest's exact bytes with the secret the two zones share). The sender
// builds it under a temporary name and renames it into place once every byte is on disk, so a
// receiver never sees half a package. The receiver imports only packages whose signature
// holds, whose id it has not seen, and whose every file has the manifest's size and SHA-256;
// anything else moves to `quarantine/` with the reason beside it, and (see REPORTED_REFUSALS) the
// sender may hear of it through a refusal receipt.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

export const MANIFEST_VERSION = 1;
const PACKAGE_SUFFIX = '.pkg';
const TEMP_PREFIX = '.incoming-';
export const QUARANTINE_DIR = 'quarantine';

export interface ManifestFile {
  name: string;
  size: number;
  /** hex SHA-256 of the content */
  sha256: string;
}

/** What a receipt tells the sending zone about its task. */
export interface Receipt {
  /** refused: the package did not pass the receiving zone's checks (reason and detail say why) */
  event: 'received' | 'downloaded' | 'expired' | 'removed' | 'refused';
  /** epoch ms */
  at: number;
  byName: string;
  /** the package the receipt is about */
  packageId: string;
  /** refused only: why */
  reason?: RejectReason;
  /** refused only: the file concerned, when there is one */
  detail?: string;
}

export interface Manifest {
  version: typeof MANIFEST_VERSION;
  /** files (the default) or a receipt going back to the sender (no files) */
  kind?: 'files' | 'receipt';
  /** random, unique: a package seen once is never imported again */
  packageId: string;
  taskId: string;
  fromZone: string;
  toZone: string;
  /** user names on the receiving side */
  recipients: string[];
  reason: string;
  /** epoch ms */
  createdAt: number;
  expiresAt: number;
  files: ManifestFile[];
  /** the sender's number of the task and the requester's name, shown to recipients */
  taskNumber?: string;
  senderName?: string;
  receipt?: Receipt;
}

/** A file to pack: where its bytes are, and what the approval saw of them. */
export interface PackSource extends ManifestFile {
  file: string | null;
}

export type RejectReason =
  | 'unreadable'
  | 'badSignature'
  | 'replayed'
  | 'missingFile'
  | 'sizeMismatch'
  | 'hashMismatch'
  | 'wrongZone'
  | 'directionClosed'
  | 'unknownTask';

export const REJECT_MESSAGES: Record<RejectReason, string> = {
  unreadable: '摆渡包不完整或格式错误',
  badSignature: '摆渡包签名无效',
  replayed: '摆渡包已接收过（重放）',
  missingFile: '摆渡包缺少文件',
  sizeMismatch: '文件大小与清单不符',
  hashMismatch: '文件的 SHA-256 与清单不符',
  wrongZone: '摆渡包的目标网络区域不是本区域',
  directionClosed: '摆渡设置不允许从该区域摆渡到本区域',
  unknownTask: '回执对应的摆渡任务不存在',
};

/**
 * The same reasons as the sender's task shows them after 被拒收 (short, for the person who sent
 * the files).
 */
export const REFUSAL_TEXT: Record<RejectReason, string> = {
  unreadable: '摆渡包不完整或格式错误',
  badSignature: '签名校验失败',
  replayed: '重复的摆渡包',
  missingFile: '摆渡包缺少文件',
  sizeMismatch: '文件大小不符',
  hashMismatch: '文件哈希不符',
  wrongZone: '目标网络区域不符',
  directionClosed: '对方未开放该摆渡方向',
  unknownTask: '没有对应的摆渡任务',
};

/**
 * Refusals a receiving zone reports back to the sender in a refusal receipt (spool). Not an
 * unreadable package (nothing identifies it), not a replay (the package was imported here once,
 * so the sender has its 已送达 or will have it), not another zone's package (the sender's task is
 * in transit to that zone, not to this one), and never anything about a receipt.
 */
export const REPORTED_REFUSALS: ReadonlySet<RejectReason> = new Set<RejectReason>(['badSignature', 'missingFile', 'sizeMismatch', 'hashMismatch', 'directionClosed']);

/** Thrown by a receiver's `accept` to refuse a package that verified (direction closed…). */
export class PackageRefused extends Error {
  constructor(
    readonly reason: RejectReason,
    readonly detail: string = '',
  ) {
    super(REJECT_MESSAGES[reason]);
    this.name = 'PackageRefused';
  }
}

/** A file changed between the approval and the packing: it must not cross. */
export class ChangedAfterApproval extends Error {
  constructor(readonly fileName: string) {
    super(`文件“${fileName}”在审批后被修改，不能摆渡，请重新发起`);
    this.name = 'ChangedAfterApproval';
  }
}

export function sign(manifestBytes: Buffer, secret: string): string {
  return crypto.createHmac('sha256', secret).update(manifestBytes).digest('hex');
}

function signatureHolds(manifestBytes: Buffer, signature: string, secret: string): boolean {
  const expected = Buffer.from(sign(manifestBytes, secret), 'hex');
  const given = Buffer.from(signature.trim(), 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** Copies (or only reads, `to` null) a file, returning its size and SHA-256. */
async function hashCopy(from: string | null, to: string | null): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  if (from === null) {
    if (to) await fs.promises.writeFile(to, '');
    return { size: 0, sha256: hash.digest('hex') };
  }
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  if (to) {
    await pipeline(fs.createReadStream(from), tap, fs.createWriteStream(to, { flags: 'wx' }));
  } else {
    await pipeline(fs.createReadStream(from), tap, async function* (source) {
      for await (const _ of source) void _;
    });
  }
  return { size, sha256: hash.digest('hex') };
}

async function syncPath(p: string): Promise<void> {
  const fh = await fs.promises.open(p, 'r');
  try {
    await fh.sync();
  } catch {
    /* directories cannot be synced on every platform */
  } finally {
    await fh.close();
  }
}

/**
 * Writes a package into `spoolDir`, atomically. Each source is re-hashed as it is packed; a
 * file whose size or SHA-256 differ from what was approved stops the whole package
 * (ChangedAfterApproval) and nothing appears in the spool.
 */
export async function writePackage(
  spoolDir: string,
  meta: Omit<Manifest, 'version' | 'files' | 'packageId'> & { packageId?: string },
  sources: readonly PackSource[],
  secret: string,
): Promise<{ packageId: string; dir: string }> {
  const packageId = meta.packageId ?? crypto.randomUUID();
  await fs.promises.mkdir(spoolDir, { recursive: true });
  const temp = path.join(spoolDir, `${TEMP_PREFIX}${packageId}`);
  await fs.promises.mkdir(path.join(temp, 'files'), { recursive: true });
  try {
    for (const [i, s] of sources.entries()) {
      const target = path.join(temp, 'files', String(i));
      const got = await hashCopy(s.file, target);
      if (got.size !== s.size || got.sha256 !== s.sha256) throw new ChangedAfterApproval(s.name);
      await syncPath(target);
    }
    const manifest: Manifest = {
      version: MANIFEST_VERSION,
      kind: meta.kind ?? 'files',
      packageId,
      taskId: meta.taskId,
      fromZone: meta.fromZone,
      toZone: meta.toZone,
      recipients: meta.recipients,
      reason: meta.reason,
      createdAt: meta.createdAt,
      expiresAt: meta.expiresAt,
      files: sources.map(({ name, size, sha256 }) => ({ name, size, sha256 })),
      ...(meta.taskNumber !== undefined ? { taskNumber: meta.taskNumber } : {}),
      ...(meta.senderName !== undefined ? { senderName: meta.senderName } : {}),
      ...(meta.receipt ? { receipt: meta.receipt } : {}),
    };
    const bytes = Buffer.from(JSON.stringify(manifest));
    await fs.promises.writeFile(path.join(temp, 'manifest.json'), bytes);
    await fs.promises.writeFile(path.join(temp, 'manifest.sig'), sign(bytes, secret));
    await syncPath(path.join(temp, 'manifest.json'));
    await syncPath(path.join(temp, 'manifest.sig'));
    await syncPath(path.join(temp, 'files'));
    const dir = path.join(spoolDir, `${packageId}${PACKAGE_SUFFIX}`);
    await fs.promises.rename(temp, dir);
    await syncPath(spoolDir);
    return { packageId, dir };
  } catch (err) {
    await fs.promises.rm(temp, { recursive: true, force: true });
    throw err;
  }
}

/** A verified package: its manifest and where each file's bytes are. */
export interface ReceivedPackage {
  manifest: Manifest;
  dir: string;
  files: string[];
  /** each file's MD5, computed in the same read as its SHA-256 (the file store keys content by MD5) */
  md5s: string[];
  /** each file's CRC-32 from the same read (kept with its blob, for zip archives) */
  crc32s: number[];
}

/** SHA-256, MD5 and CRC-32 of a file in one read. */
async function hashBoth(file: string): Promise<{ sha256: string; md5: string; crc32: number }> {
  const sha = crypto.createHash('sha256');
  const md5 = crypto.createHash('md5');
  let crc32 = 0;
  await pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), async function* (source) {
    for await (const chunk of source) {
      sha.update(chunk as Buffer);
      md5.update(chunk as Buffer);
      crc32 = zlib.crc32(chunk as Buffer, crc32);
    }
  });
  return { sha256: sha.digest('hex'), md5: md5.digest('hex'), crc32 };
}

export interface Rejected {
  /** the package's directory name (the id may be unreadable) */
  name: string;
  packageId: string | null;
  reason: RejectReason;
  detail: string;
  /** where it now lies */
  quarantined: string;
  /** the manifest as far as it could be read (null: unreadable) */
  manifest: Manifest | null;
  /** whether the manifest's signature held: when not, everything it names is only claimed */
  signed: boolean;
}

const REJECT_REASONS = Object.keys(REJECT_MESSAGES);

/** Parses a manifest's bytes and checks their shape (not their signature); null when malformed. */
export function parseManifest(bytes: Buffer): Manifest | null {
  try {
    const m = JSON.parse(bytes.toString('utf8')) as Manifest;
    const okFile = (f: ManifestFile) =>
      typeof f?.name === 'string' && Number.isSafeInteger(f.size) && f.size >= 0 && /^[0-9a-f]{64}$/.test(f.sha256);
    if (
      m?.version !== MANIFEST_VERSION ||
      typeof m.packageId !== 'string' ||
      !/^[0-9a-zA-Z-]{8,64}$/.test(m.packageId) ||
      typeof m.taskId !== 'string' ||
      typeof m.toZone !== 'string' ||
      !Array.isArray(m.files) ||
      !m.files.every(okFile) ||
      !Array.isArray(m.recipients) ||
      !m.recipients.every((r) => typeof r === 'string') ||
      typeof m.fromZone !== 'string' ||
      !Number.isSafeInteger(m.expiresAt) ||
      (m.kind !== undefined && m.kind !== 'files' && m.kind !== 'receipt')
    ) {
      return null;
    }
    if (m.kind === 'receipt') {
      const r = m.receipt;
      const events = ['received', 'downloaded', 'expired', 'removed', 'refused'];
      if (!r || !events.includes(r.event) || !Number.isSafeInteger(r.at) || typeof r.byName !== 'string' || typeof r.packageId !== 'string' || m.files.length) return null;
      if (r.event === 'refused' && (!REJECT_REASONS.includes(r.reason as string) || (r.detail !== undefined && (typeof r.detail !== 'string' || r.detail.length > 1000)))) return null;
    }
    return m;
  } catch {
    return null;
  }
}

/** Checks one complete package; null when it may be imported, else why not. */
async function verify(
  dir: string,
  secret: string,
  zone: string,
  seen: (packageId: string) => Promise<boolean>,
): Promise<{ manifest: Manifest | null; signed: boolean; reason: RejectReason | null; detail: string; md5s: string[]; crc32s: number[] }> {
  let bytes: Buffer;
  let signature: string;
  try {
    bytes = await fs.promises.readFile(path.join(dir, 'manifest.json'));
    signature = await fs.promises.readFile(path.join(dir, 'manifest.sig'), 'utf8');
  } catch {
    return { manifest: null, signed: false, reason: 'unreadable', detail: '缺少清单或签名', md5s: [], crc32s: [] };
  }
  const refuse = (m: Manifest | null, reason: RejectReason, detail = '') => ({ manifest: m, signed: true, reason, detail, md5s: [], crc32s: [] });
  // what an unsigned manifest names is kept for the audit, as a claim; it is never imported
  if (!signatureHolds(bytes, signature, secret)) return { ...refuse(parseManifest(bytes), 'badSignature'), signed: false };
  const manifest = parseManifest(bytes);
  if (!manifest) return refuse(null, 'unreadable', '清单格式错误');
  if (manifest.toZone !== zone) return refuse(manifest, 'wrongZone', manifest.toZone);
  if (await seen(manifest.packageId)) return refuse(manifest, 'replayed', manifest.packageId);
  const md5s: string[] = [];
  const crc32s: number[] = [];
  for (const [i, f] of manifest.files.entries()) {
    const file = path.join(dir, 'files', String(i));
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) return refuse(manifest, 'missingFile', f.name);
    if (stat.size !== f.size) return refuse(manifest, 'sizeMismatch', f.name);
    const got = await hashBoth(file);
    if (got.sha256 !== f.sha256) return refuse(manifest, 'hashMismatch', f.name);
    md5s.push(got.md5);
    crc32s.push(got.crc32);
  }
  return { manifest, signed: true, reason: null, detail: '', md5s, crc32s };
}

const CLAIM_SUFFIX = '.claimed';
/** A claimed package left behind by an instance that stopped while importing it. */
const STALE_CLAIM_MS = 10 * 60 * 1000;

async function reclaimStale(spoolDir: string): Promise<void> {
  const names = (await fs.promises.readdir(spoolDir).catch(() => [] as string[])).filter((n) => n.endsWith(`${PACKAGE_SUFFIX}${CLAIM_SUFFIX}`));
  for (const n of names) {
    const p = path.join(spoolDir, n);
    const stat = await fs.promises.stat(p).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > STALE_CLAIM_MS) await fs.promises.rename(p, p.slice(0, -CLAIM_SUFFIX.length)).catch(() => undefined);
  }
}

export type ReceiveOutcome = { accepted: string; rejected?: undefined } | { accepted?: undefined; rejected: Rejected };

/**
 * Verifies one complete package directory and imports it through `accept`, or moves it to
 * `quarantineRoot` with the reason (also when `accept` throws PackageRefused). An imported
 * package's directory is removed once `accept` returns. Any other error of `accept` leaves the
 * package where it is, to be tried again.
 */
export async function receivePackageDir(
  dir: string,
  quarantineRoot: string,
  secret: string,
  zone: string,
  seen: (packageId: string) => Promise<boolean>,
  accept: (pkg: ReceivedPackage) => Promise<void>,
  name: string = path.basename(dir),
): Promise<ReceiveOutcome> {
  const checked = await verify(dir, secret, zone, seen);
  let { reason, detail } = checked;
  const { manifest, signed } = checked;
  if (reason === null && manifest) {
    try {
      await accept({ manifest, dir, files: manifest.files.map((_, i) => path.join(dir, 'files', String(i))), md5s: checked.md5s, crc32s: checked.crc32s });
      await fs.promises.rm(dir, { recursive: true, force: true });
      return { accepted: manifest.packageId };
    } catch (err) {
      if (!(err instanceof PackageRefused)) throw err;
      reason = err.reason;
      detail = err.detail;
    }
  }
  await fs.promises.mkdir(quarantineRoot, { recursive: true });
  const quarantined = path.join(quarantineRoot, `${name}-${Date.now()}`);
  await fs.promises.rename(dir, quarantined);
  const why = reason ?? 'unreadable';
  await fs.promises.writeFile(path.join(quarantined, 'REJECTED.txt'), `${REJECT_MESSAGES[why]}${detail ? `：${detail}` : ''}\n`);
  return { rejected: { name, packageId: manifest?.packageId ?? null, reason: why, detail, quarantined, manifest, signed: signed && manifest !== null } };
}

/**
 * Reads the complete packages in `spoolDir` (oldest name first), verifying each. `seen` says
 * whether a package id was already imported here (the receiver's database); `accept` imports a
 * verified package, and the package leaves the spool only once it returns. Refused packages go
 * to quarantine. Half-written (temporary) packages are left alone.
 */
export async function receivePackages(
  spoolDir: string,
  secret: string,
  zone: string,
  seen: (packageId: string) => Promise<boolean>,
  accept: (pkg: ReceivedPackage) => Promise<void>,
): Promise<{ accepted: string[]; rejected: Rejected[] }> {
  const names = (await fs.promises.readdir(spoolDir).catch(() => [] as string[])).filter((n) => n.endsWith(PACKAGE_SUFFIX)).sort();
  const accepted: string[] = [];
  const rejected: Rejected[] = [];
  await reclaimStale(spoolDir);
  for (const name of names) {
    // another API instance reading the same spool may take the package first: the rename decides
    const claimed = path.join(spoolDir, `${name}${CLAIM_SUFFIX}`);
    try {
      await fs.promises.rename(path.join(spoolDir, name), claimed);
    } catch {
      continue;
    }
    // the claim's age is its directory's time: a package waiting long is not a stale claim
    const now = new Date();
    await fs.promises.utimes(claimed, now, now).catch(() => undefined);
    let outcome: ReceiveOutcome;
    try {
      outcome = await receivePackageDir(claimed, path.join(spoolDir, QUARANTINE_DIR), secret, zone, seen, accept, name);
    } catch (err) {
      // not refused, only not imported now (the database was away…): back into the spool
      await fs.promises.rename(claimed, path.join(spoolDir, name)).catch(() => undefined);
      throw err;
    }
    if (outcome.rejected) rejected.push(outcome.rejected);
    else accepted.push(outcome.accepted);
  }
  return { accepted, rejected };
}
