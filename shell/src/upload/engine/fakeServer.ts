// An in-memory upload server for the engine's tests: sessions by taskId, name conflicts,
// instant uploads by hash, chunk failures on demand, a check of every ChunkHash against the
// bytes sent, and a record of every call.
import SparkMD5 from 'spark-md5';
import {
  ApiError,
  type CheckAndCreateFileInfoBody,
  type CheckAndCreateFileInfoResult,
  type ConflictStrategyOption,
  type CreateFoldersBody,
  type CreateFoldersResult,
} from '@app/shared';
import { DEFAULT_UPLOAD_OPTIONS } from './engine';
import { readArrayBuffer } from './md5';
import type { ChunkUpload, TransportTarget, UploadTransport } from './transport';

export type Call =
  | { kind: 'options' }
  | { kind: 'create'; body: CheckAndCreateFileInfoBody; target: TransportTarget }
  | { kind: 'rapid'; fileId: string; fileHash: string }
  | { kind: 'chunk'; fileId: string; n: number; hash: string | undefined; size: number; fields: ChunkUpload['fields']; at: number }
  | { kind: 'merge'; fileId: string; fileHash: string; relativePath: string }
  | { kind: 'folders'; body: CreateFoldersBody; target: TransportTarget }
  | { kind: 'abandon'; fileId: string; target: TransportTarget };

export const STRATEGIES: ConflictStrategyOption[] = [
  { name: '新版本', value: 0 },
  { name: '覆盖', value: 1 },
  { name: '重命名', value: 2 },
  { name: '跳过', value: 3 },
];

const canceled = () => new ApiError('请求已取消', 0, { canceled: true });

export class FakeServer implements UploadTransport {
  calls: Call[] = [];
  /** chunk checks on, so that most tests see every ChunkHash; the tests of the default turn them off */
  options = { ...DEFAULT_UPLOAD_OPTIONS, chunkSize: 4, chunkCheck: true };
  /** what CheckAndCreateFileInfo says of instant uploads (undefined: nothing, as an older server) */
  rapidPossible: boolean | undefined = undefined;
  /** the chunk size a new session gets for the size asked (null: the server says none, as an older one) */
  grantChunkSize: ((asked: number | null | undefined) => number) | null = null;
  /** names already in the target folder */
  existing = new Set<string>();
  /** hashes the caller can already read */
  known = new Set<string>();
  sessions = new Map<string, { fileId: string; chunks: Set<number>; chunkSize: number | null }>();
  /** folder paths already there; paths whose first part is in `blockedFolders` fail */
  folders = new Set<string>();
  blockedFolders = new Set<string>();
  failFolders: ApiError | null = null;
  /** decides whether a chunk attempt fails */
  failChunk: ((n: number, attempt: number) => boolean) | null = null;
  /** chunks wait for release() while true */
  hold = false;
  inFlight = 0;
  maxInFlight = 0;
  /** the file whose call is being served, to check one file at a time */
  private active = new Set<string>();
  overlaps = 0;
  private attempts = new Map<string, number>();
  private waiting: Array<() => void> = [];
  private sessionCount = 0;
  /** each chunk's ChunkHash checked against its bytes, in the background (the timing of calls stays as it is) */
  private hashChecks: Array<Promise<{ fileId: string; n: number; sent: string; actual: string } | null>> = [];
  /** the whole file as the server would put it together from the chunks sent, by session */
  private received = new Map<string, Map<number, Blob>>();

  /** The chunks sent so far whose ChunkHash was not the MD5 of their bytes. */
  async wrongChunkHashes() {
    const checked = await Promise.all(this.hashChecks);
    return checked.filter((c) => c !== null);
  }

  of<K extends Call['kind']>(kind: K): Extract<Call, { kind: K }>[] {
    return this.calls.filter((c): c is Extract<Call, { kind: K }> => c.kind === kind);
  }

  chunkNumbers(fileId?: string): number[] {
    return this.of('chunk').filter((c) => !fileId || c.fileId === fileId).map((c) => c.n);
  }

  release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }

  async getOptions() {
    this.calls.push({ kind: 'options' });
    return this.options;
  }

  async createTask(body: CheckAndCreateFileInfoBody, target: TransportTarget): Promise<CheckAndCreateFileInfoResult> {
    this.calls.push({ kind: 'create', body, target });
    await null;
    if (body.strategy === null && this.existing.has(body.fileName)) {
      return { conflictType: 1, conflictStrategies: STRATEGIES, fileInfo: null };
    }
    let session = this.sessions.get(body.taskId);
    if (!session) {
      this.sessionCount += 1;
      session = { fileId: `s${this.sessionCount}`, chunks: new Set(), chunkSize: this.grantChunkSize ? this.grantChunkSize(body.chunkSize) : null };
      this.sessions.set(body.taskId, session);
    }
    return {
      conflictType: 0,
      fileInfo: { fileId: session.fileId, fileName: body.fileName },
      uploadedChunks: [...session.chunks],
      ...(this.rapidPossible === undefined ? {} : { rapidPossible: this.rapidPossible }),
      ...(session.chunkSize === null ? {} : { chunkSize: session.chunkSize }),
    };
  }

  async checkRapid(body: { fileId: string; fileHash: string }) {
    this.calls.push({ kind: 'rapid', ...body });
    await null;
    return { success: this.known.has(body.fileHash) };
  }

  async uploadChunk(chunk: ChunkUpload) {
    const { fileId, ChunkHash } = chunk.query;
    const n = chunk.fields.chunkNumber;
    this.calls.push({ kind: 'chunk', fileId, n, hash: ChunkHash, size: chunk.blob.size, fields: chunk.fields, at: Date.now() });
    if (ChunkHash !== undefined) {
      this.hashChecks.push(
        readArrayBuffer(chunk.blob).then((bytes) => {
          const actual = SparkMD5.ArrayBuffer.hash(bytes);
          return actual === ChunkHash ? null : { fileId, n, sent: ChunkHash, actual };
        }),
      );
    }
    const key = `${fileId}#${n}`;
    const attempt = this.attempts.get(key) ?? 0;
    this.attempts.set(key, attempt + 1);
    this.active.add(fileId);
    if (this.active.size > 1) this.overlaps += 1;
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.hold) {
        await new Promise<void>((resolve, reject) => {
          this.waiting.push(resolve);
          chunk.signal.addEventListener('abort', () => reject(canceled()), { once: true });
        });
      } else {
        for (let i = 0; i < 3; i += 1) await null;
      }
      if (chunk.signal.aborted) throw canceled();
      chunk.onProgress?.(chunk.blob.size);
      if (this.failChunk?.(n, attempt)) throw new ApiError('服务器繁忙', 500, { status: 500, serverMessage: '服务器繁忙' });
      for (const s of this.sessions.values()) if (s.fileId === fileId) s.chunks.add(n);
      if (!this.received.has(fileId)) this.received.set(fileId, new Map());
      this.received.get(fileId)!.set(n, chunk.blob);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.active.clear();
    }
    return null;
  }

  /** The MD5 of what session `fileId` received, chunks in order (what the real merge checks). */
  async receivedHash(fileId: string): Promise<string> {
    const chunks = [...(this.received.get(fileId) ?? new Map<number, Blob>()).entries()].sort(([a], [b]) => a - b);
    const md5 = new SparkMD5.ArrayBuffer();
    for (const [, blob] of chunks) md5.append(await readArrayBuffer(blob));
    return md5.end();
  }

  async merge(body: { fileId: string; fileHash: string; relativePath: string }) {
    this.calls.push({ kind: 'merge', ...body });
    await null;
    return { id: `item-${body.fileId}` };
  }

  async abandon(fileId: string, target: TransportTarget) {
    this.calls.push({ kind: 'abandon', fileId, target });
    await null;
    return { removed: true };
  }

  async createFolders(body: CreateFoldersBody, target: TransportTarget): Promise<CreateFoldersResult> {
    this.calls.push({ kind: 'folders', body, target });
    await null;
    if (this.failFolders) throw this.failFolders;
    const result: CreateFoldersResult = { created: 0, failed: [] };
    for (const path of body.paths) {
      if (this.blockedFolders.has(path.split('/')[0])) {
        result.failed.push({ path, message: '该位置已有同名的文件' });
        continue;
      }
      const parts = path.split('/');
      for (let i = 1; i <= parts.length; i++) {
        const key = parts.slice(0, i).join('/');
        if (!this.folders.has(key)) {
          this.folders.add(key);
          result.created += 1;
        }
      }
    }
    return result;
  }
}
