// The direct channel of 云文档's ferry: a package pushed over HTTPS to the peer deployment's
// /api/Ferry/Channel/Packages, for zones allowed to talk to each other. The body is the package
// itself, streamed: a 4-byte big-endian manifest length, the manifest's exact bytes, the 64 hex
// characters of its HMAC-SHA256 signature, then every file's bytes in manifest order. The
// receiver checks the signature before it writes anything, then rebuilds the package directory
// and imports it exactly as it imports a spool package (same verification, same quarantine).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Manifest, RejectReason } from './spool';
import { parseManifest, sign } from './spool';

export const PUSH_CONTENT_TYPE = 'application/x-ferry-package';
export const PUSH_PATH = '/api/Ferry/Channel/Packages';
const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

/** What the receiver answered: for a refused package, this is the sender's refusal receipt. */
export interface PushReply {
  accepted: boolean;
  reason: RejectReason | '';
  message: string;
  /** the file concerned by a refusal, when there is one */
  detail?: string;
}

async function* packageBody(dir: string): AsyncGenerator<Buffer> {
  const manifestBytes = await fs.promises.readFile(path.join(dir, 'manifest.json'));
  const signature = (await fs.promises.readFile(path.join(dir, 'manifest.sig'), 'utf8')).trim();
  const manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(manifestBytes.length);
  yield length;
  yield manifestBytes;
  yield Buffer.from(signature, 'latin1');
  for (let i = 0; i < manifest.files.length; i++) {
    for await (const chunk of fs.createReadStream(path.join(dir, 'files', String(i)), { highWaterMark: 256 * 1024 })) yield chunk as Buffer;
  }
}

/** Pushes a package directory (as writePackage made it) to the peer at `baseUrl`. */
export async function pushPackage(baseUrl: string, dir: string, timeoutMs = 60 * 60 * 1000): Promise<PushReply> {
  const body = Readable.toWeb(Readable.from(packageBody(dir))) as ReadableStream<Uint8Array>;
  const res = await fetch(`${baseUrl}${PUSH_PATH}`, {
    method: 'POST',
    headers: { 'content-type': PUSH_CONTENT_TYPE },
    body,
    // a streamed request body
    duplex: 'half',
    signal: AbortSignal.timeout(timeoutMs),
  } as RequestInit & { duplex: 'half' });
  const text = await res.text();
  let envelope: { code?: number; result?: PushReply; message?: string | null } = {};
  try {
    envelope = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (res.ok && envelope.result) return envelope.result;
  throw new Error(envelope.message || `对端返回 HTTP ${res.status}`);
}

/** Reads exact byte counts from a stream. */
class ExactReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private readonly iterator: AsyncIterator<Buffer>;
  private done = false;

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<boolean> {
    while (this.length < n && !this.done) {
      const next = await this.iterator.next();
      if (next.done) this.done = true;
      else {
        this.buffered.push(next.value);
        this.length += next.value.length;
      }
    }
    return this.length >= n;
  }

  /** The next n bytes, or null when the stream ends first. */
  async read(n: number): Promise<Buffer | null> {
    if (!(await this.fill(n))) return null;
    const all = Buffer.concat(this.buffered);
    this.buffered = all.length > n ? [all.subarray(n)] : [];
    this.length = all.length - n;
    return all.subarray(0, n);
  }

  /** Writes the next n bytes to a new file; false when the stream ends first. */
  async copyTo(n: number, file: string): Promise<boolean> {
    const out = fs.createWriteStream(file, { flags: 'wx' });
    let left = n;
    try {
      while (left > 0) {
        if (!this.length && !(await this.fill(1))) return false;
        const head = Buffer.concat(this.buffered);
        const take = head.subarray(0, Math.min(left, head.length));
        this.buffered = head.length > take.length ? [head.subarray(take.length)] : [];
        this.length = head.length - take.length;
        left -= take.length;
        if (!out.write(take)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
      return true;
    } finally {
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    }
  }

  /** Whether bytes follow. */
  async more(): Promise<boolean> {
    return this.fill(1);
  }
}

/** A pushed package rebuilt, or why not (with what its manifest claims, unsigned, for the audit). */
export type Unpacked = { dir: string; manifest: Manifest } | { error: 'badSignature' | 'unreadable'; message: string; claimed?: Manifest | null };

/**
 * Rebuilds a pushed package under `incomingRoot/<random>.pkg`. The signature is checked as soon
 * as the manifest has arrived: a body signed with another secret writes nothing. Sizes come
 * from the (signed) manifest; a body that ends early or runs long is unreadable.
 */
export async function unpackPush(source: AsyncIterable<Buffer>, incomingRoot: string, secret: string): Promise<Unpacked> {
  const reader = new ExactReader(source);
  const lengthBytes = await reader.read(4);
  const length = lengthBytes?.readUInt32BE(0) ?? 0;
  if (!lengthBytes || length < 2 || length > MAX_MANIFEST_BYTES) return { error: 'unreadable', message: '摆渡包格式错误' };
  const manifestBytes = await reader.read(length);
  const signature = await reader.read(64);
  if (!manifestBytes || !signature) return { error: 'unreadable', message: '摆渡包不完整' };
  const expected = Buffer.from(sign(manifestBytes, secret), 'latin1');
  if (signature.length !== expected.length || !crypto.timingSafeEqual(signature, expected)) return { error: 'badSignature', message: '摆渡包签名无效', claimed: parseManifest(manifestBytes) };
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
    if (!Array.isArray(manifest.files)) throw new Error('files');
  } catch {
    return { error: 'unreadable', message: '摆渡包清单格式错误' };
  }
  const dir = path.join(incomingRoot, `push-${crypto.randomUUID()}.pkg`);
  await fs.promises.mkdir(path.join(dir, 'files'), { recursive: true });
  try {
    for (const [i, f] of manifest.files.entries()) {
      const size = Number(f?.size);
      if (!Number.isSafeInteger(size) || size < 0) return { error: 'unreadable', message: '摆渡包清单格式错误' };
      if (!(await reader.copyTo(size, path.join(dir, 'files', String(i))))) return { error: 'unreadable', message: '摆渡包不完整' };
    }
    if (await reader.more()) return { error: 'unreadable', message: '摆渡包的内容比清单多' };
    await fs.promises.writeFile(path.join(dir, 'manifest.json'), manifestBytes);
    await fs.promises.writeFile(path.join(dir, 'manifest.sig'), signature.toString('latin1'));
    return { dir, manifest };
  } finally {
    if (!fs.existsSync(path.join(dir, 'manifest.sig'))) await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
