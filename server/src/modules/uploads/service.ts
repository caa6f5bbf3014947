// 云文档 uploads: chunked, resumable, instant (api-contract.md "Upload"; docs/integration.md
// "Upload (issue 4)"). A session (the `fileId` until the merge) collects chunks into one
// staging file; the merge makes the file, or its new version, visible in one transaction.
import { formatBytes } from '../../lib/bytes';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, ItemRow, ShareRow, UploadSessionRow, UserRow } from '../../db/types';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { findItemsWithOwner, findLiveItem, insertFolder, insertItem, itemNameKey, liveNameOwner, markDeleted, touchItem } from '../folders/repository';
import { LEVEL, ownerOfNew, SPACE_PERSONAL, type LoadedRights, type RightsRow, type RightsService } from '../folders/rights';
import type { Item } from '../folders/schemas';
import { extensionOf, freeName, validItemName, type FoldersService } from '../folders/service';
import type { FeaturePolicy } from '../settings/schemas';
import { overQuota } from '../quota/errors';
import { noteQuotaUse } from '../quota/warnings';
import type { SettingsService } from '../settings/service';
import { acquireBlob, type BlobStore, type ContentDigest } from '../versions/blobs';
import { addFirstVersion, addMasterVersion } from '../versions/repository';
import {
  claimSession,
  deleteSession,
  findOpenTask,
  findSession,
  insertSession,
  listChunks,
  quotaUsed,
  RAPID_CANDIDATES,
  rapidCandidates,
  recordChunk,
  findChunk,
  touchSession,
  touchUnfinished,
  chunksBeingWritten,
  dropChunkLease,
  insertChunkLease,
  openSessionsOf,
  renewChunkLease,
  reservedFor,
  startMerging,
  takeOverChunkLease,
} from './repository';
import { lockKey } from '../../db/locks';
import { isOutOfSpace, storageFull, type DiskSpace } from '../../lib/disk-space';
import type { CheckAndCreateBody, CheckAndCreateResult, CreateFoldersBody, CreateFoldersResult, FileUploadOptions, MergeBody, RapidBody } from './schemas';
import { UploadHashing, type StagedFile } from './hashing';
import { ObjectChunks } from './object-chunks';
import { ChunkTooLong, type Staging, type WrittenChunk } from './staging';

export interface UploadLimits {
  /** bytes per chunk (spec section 9: 5 MB) */
  chunkSize: number;
  /** a file of this size or more is refused (spec section 5: 5 GB) */
  maxFileSize: number;
  /** pickers warn above this many files (spec section 5: 500) */
  maxFileCount: number;
  /** a session without activity for this long is removed with its staging file */
  sessionTtlMs: number;
  /** how often abandoned sessions are looked for (also once at start-up) */
  sweepIntervalMs: number;
  /** unfinished sessions one uploader may hold */
  maxOpenSessions: number;
  /** declared bytes of one uploader's unfinished sessions, together */
  maxPendingBytes: number;
  /** a chunk being written holds its row this long, renewed while bytes arrive; a writer gone longer is taken over */
  chunkLeaseMs: number;
}

/**
 * The largest chunk a client may ask for when it creates a task (CheckAndCreateFileInfo's
 * chunkSize): a large file then goes in fewer, larger requests (a 1 GB file through the page:
 * its chunks alone took 6.4–7.7 s in chunks of 20 MB against 8.9 s in chunks of 5 MB).
 */
export const MAX_CHUNK_SIZE = 32 * 1024 * 1024;

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  chunkSize: 5 * 1024 * 1024,
  maxFileSize: 5 * 1024 * 1024 * 1024,
  maxFileCount: 500,
  sessionTtlMs: 24 * 60 * 60 * 1000,
  sweepIntervalMs: 60 * 60 * 1000,
  maxOpenSessions: 100,
  maxPendingBytes: 20 * 1024 ** 3,
  chunkLeaseMs: 10 * 1000,
};

/**
 * Who uploads: a signed-in user, or someone through a share (then `user` is the share's owner
 * and `through` the rights the share gives).
 */
export interface Actor {
  user: UserRow;
  share: ShareRow | null;
  through?: LoadedRights | null;
  /** an internal share's recipient who uploads (their sessions are theirs alone) */
  uploader?: UserRow | null;
  /** told of each file the actor's upload made (a share records it) */
  afterUpload?: (item: Item) => Promise<void>;
  /** told of each file stored, inside the transaction that stores it (an external link's upload records its event) */
  onStored?: (trx: Kysely<Database>, file: { id: number; name: string }, now: number) => Promise<void>;
}

const MD5_HEX = /^[0-9a-f]{32}$/;
const MAX_DEPTH = 64;

const SESSION_GONE = '上传任务不存在或已过期，请重新上传';
const FOLDER_GONE = '目标文件夹不存在或已被删除';
const NO_UPLOAD_RIGHT = '您没有在此文件夹中上传文件的权限';

/** HTTP 429, code 42902: too many unfinished uploads. */
const tooManyOpen = (max: number) =>
  new AppError(429, 42902, `未完成的上传任务过多（最多 ${max} 个），请等正在上传的文件完成，或取消不再需要的上传后再试`, { 'retry-after': '60' });
/** HTTP 413, code 41303: unfinished uploads too large together. */
const tooMuchPending = (max: number) =>
  new AppError(413, 41303, `未完成的上传合计不能超过 ${formatBytes(max)}，请等正在上传的文件完成后再试`);
/** The chunks of a body the server reads whole (a WebDAV PUT): larger than a client's, still a bounded write each. */
const WHOLE_BODY_CHUNK = 64 * 1024 * 1024;

/** HTTP 409, code 40903: the same chunk is being written by another request. */
const chunkBusy = (n: number) => new AppError(409, 40903, `第 ${n} 个分片正在上传中，请稍后重试`);
/** HTTP 422, code 42201: a hash mismatch. */
const hashMismatch = (message: string) => new AppError(422, 42201, message);


/** The folder names of a relativePath (the path inside a dropped folder, file name last). */
export function folderNamesOf(relativePath: string | null | undefined): string[] {
  const parts = splitPath(relativePath);
  parts.pop(); // the file's own name: fileName is what counts
  return validFolderNames(parts);
}

/** The folder names of a folder's path inside a dropped folder (every part a folder). */
export function folderPathNames(path: string): string[] {
  return validFolderNames(splitPath(path));
}

function splitPath(path: string | null | undefined): string[] {
  return (path ?? '').replace(/\\/g, '/').split('/').map((p) => p.trim());
}

function validFolderNames(parts: string[]): string[] {
  const names = parts.filter((p) => p !== '');
  if (names.length > MAX_DEPTH) throw badRequest(`文件夹层级不能超过 ${MAX_DEPTH} 层`);
  return names.map((p) => validItemName(p));
}

/** Where an upload lands: the deepest folder of its path that exists, and the names to make below it. */
interface Place {
  deepest: ItemRow;
  missing: string[];
}

export class UploadsService {
  /** each session's running prefix MD5, in a worker thread */
  private readonly hashing = new UploadHashing();
  private readonly locks = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    private readonly settings: SettingsService,
    private readonly rights: RightsService,
    private readonly blobs: BlobStore,
    readonly staging: Staging,
    readonly limits: UploadLimits = { ...DEFAULT_UPLOAD_LIMITS },
    readonly disk: DiskSpace | null = null,
    /** with S3: chunks are objects of the store and the prefix MD5 lives in the session row; null: the staging file */
    readonly chunks: ObjectChunks | null = null,
  ) {}

  /** Runs `fn` after every earlier call with the same key has finished (one process). */
  private async withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.locks.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }

  /** Stops the hashing worker (the server is closing). */
  async close(): Promise<void> {
    await Promise.all([this.hashing.close(), this.chunks?.close()]);
  }

  async options(): Promise<FileUploadOptions> {
    const policy = await this.settings.uploadPolicy();
    return {
      chunkCheck: policy.chunkCheck,
      chunkCheckAlgorithm: 'MD5',
      chunkSize: this.limits.chunkSize,
      maxFileCount: policy.maxFileCount,
      maxFileSize: this.maxFileSize(policy.maxFileSize),
      rapidUpload: policy.rapidUpload,
    };
  }

  /** The smaller of the administrator's maximum and the one this server was started with. */
  private maxFileSize(policyMax: number): number {
    return Math.min(policyMax, this.limits.maxFileSize);
  }

  // ---- who ------------------------------------------------------------------------------

  private ownerKey(actor: Actor): string {
    if (actor.share && actor.uploader) return `s:${actor.share.id}:u:${actor.uploader.id}`;
    return actor.share ? `s:${actor.share.id}` : `u:${actor.user.id}`;
  }

  /** The caller's session (404 for anyone else's, an unknown or an expired one). */
  private async ownSession(actor: Actor, id: string, allowDone = false): Promise<UploadSessionRow> {
    const session = /^[0-9a-f]{32}$/.test(id) ? await findSession(this.db, id) : undefined;
    if (!session || session.owner_key !== this.ownerKey(actor)) throw notFound(SESSION_GONE);
    if (Number(session.updated_at) < Date.now() - this.limits.sessionTtlMs) {
      await this.discard(session.id);
      throw notFound(SESSION_GONE);
    }
    if (session.status !== 'open' && !allowDone) throw notFound(SESSION_GONE);
    return session;
  }

  /** Removes a session's staging file, then the session and its chunks (on a full disk the file's room comes first). */
  private async discard(id: string): Promise<void> {
    this.hashing.forget(id);
    if (this.chunks) await this.chunks.remove(id);
    else await this.staging.remove(id);
    await deleteSession(this.db, id);
  }

  // ---- where ----------------------------------------------------------------------------

  /** The target folder: live and readable by the acting user, through the share for shares (else 404). */
  private async targetFolder(actor: Actor, folderId: string, policy: FeaturePolicy): Promise<{ folder: ItemRow; rights: LoadedRights }> {
    if (actor.share && !actor.through) throw notFound(FOLDER_GONE);
    return this.folders.folderAndRights(actor.user, folderId, policy, FOLDER_GONE, actor.through ?? undefined);
  }

  /** Walks the folder names below `folder`: the deepest existing folder and the names still missing. */
  private async locate(db: Kysely<Database>, folder: ItemRow, names: string[]): Promise<Place> {
    let deepest = folder;
    for (let i = 0; i < names.length; i++) {
      const holder = await liveNameOwner(db, deepest.id, itemNameKey(names[i]));
      if (!holder) return { deepest, missing: names.slice(i) };
      if (holder.type !== 'folder') throw conflict(`无法创建文件夹“${names[i]}”：该位置已有同名的文件`);
      deepest = holder;
    }
    return { deepest, missing: [] };
  }

  /**
   * The folders `names` below `base`, made where missing (inside the caller's transaction):
   * the deepest one, and how many were made. A file in the way answers 409.
   */
  private async makeFolders(trx: Kysely<Database>, base: ItemRow, names: string[], actor: Actor, now: number): Promise<{ folder: ItemRow; made: number }> {
    let parent = base;
    let made = 0;
    for (const name of names) {
      const holder = await liveNameOwner(trx, parent.id, itemNameKey(name));
      if (holder && holder.type !== 'folder') throw conflict(`无法创建文件夹“${name}”：该位置已有同名的文件`);
      if (holder) {
        parent = holder;
        continue;
      }
      parent = await insertFolder(trx, parent, name, actor.user.id, now);
      made += 1;
    }
    return { folder: parent, made };
  }

  /** 413 41301 when the personal space of the target would go over the quota; else the bytes it holds (0 when not counted). */
  private async checkQuota(db: Kysely<Database>, folder: ItemRow, size: number, quota?: number): Promise<number> {
    if (folder.space_type !== SPACE_PERSONAL) return 0;
    // inside a transaction the setting is read beforehand (`quota`): SQLite has one connection
    const personalQuota = quota ?? (await this.settings.quotaFor(folder.owner_id));
    if (!personalQuota) return 0;
    const used = await quotaUsed(db, folder.owner_id);
    if (used + size > personalQuota) throw overQuota();
    return used;
  }

  /**
   * A new session's claims, before it is made: the uploader's unfinished sessions (count and
   * declared bytes) stay under the limits, and the personal space it lands in holds its files,
   * the other unfinished uploads into it and this one within the quota. Sessions idle past the
   * time-to-live reserve nothing.
   */
  private async checkReservations(db: Kysely<Database>, ownerKey: string, quotaOwner: number | null, size: number, quota: number, now: number): Promise<void> {
    const since = now - this.limits.sessionTtlMs;
    const mine = await openSessionsOf(db, ownerKey, since);
    if (mine.count >= this.limits.maxOpenSessions) throw tooManyOpen(this.limits.maxOpenSessions);
    if (mine.bytes + size > this.limits.maxPendingBytes) throw tooMuchPending(this.limits.maxPendingBytes);
    if (quotaOwner === null || !quota) return;
    if ((await quotaUsed(db, quotaOwner)) + (await reservedFor(db, quotaOwner, since)) + size > quota) throw overQuota();
  }

  /** DELETE …/UploadSessions/{fileId}: the caller gave the upload up; its staged bytes and its reservation go at once. */
  async abandon(actor: Actor, fileId: string): Promise<{ removed: boolean }> {
    return this.withLock(`merge:${fileId}`, async () => {
      const session = /^[0-9a-f]{32}$/.test(fileId) ? await findSession(this.db, fileId) : undefined;
      if (!session || session.owner_key !== this.ownerKey(actor)) throw notFound(SESSION_GONE);
      // a finished upload stays; one being merged (by another instance) is left to finish
      if (session.status !== 'open') return { removed: false };
      await this.discard(session.id);
      return { removed: true };
    });
  }

  // ---- 1. create ------------------------------------------------------------------------

  /**
   * POST …/CheckAndCreateFileInfo. `chunkSize`: the session's chunks, when the server itself
   * reads the body (receiveWhole); a client gets the configured size, or the size it asks for
   * (body.chunkSize) kept between that and MAX_CHUNK_SIZE.
   */
  async create(actor: Actor, body: CheckAndCreateBody, chunkSize = this.askedChunkSize(body.chunkSize)): Promise<CheckAndCreateResult> {
    const name = validItemName(body.fileName);
    const size = body.size;
    const maxFileSize = this.maxFileSize((await this.settings.uploadPolicy()).maxFileSize);
    if (size >= maxFileSize) {
      throw new AppError(413, 41302, `该文件超过允许的最大值（${formatBytes(maxFileSize)}），无法上传`);
    }
    const strategy = body.strategy ?? null;
    if (strategy === 3) throw badRequest('已选择跳过，该文件无需上传');
    const names = folderNamesOf(body.relativePath);
    const { policy } = await this.folders.context(actor.user);
    const { folder, rights } = await this.targetFolder(actor, body.folderId, policy);
    const place = await this.locate(this.db, folder, names);
    await rights.ensure([place.deepest]);
    if (!rights.can(place.deepest, LEVEL.edit)) throw forbidden(NO_UPLOAD_RIGHT);
    const batchNumber = actor.share ? actor.share.id : null;

    // the same task again, unfinished: resume it
    const ownerKey = this.ownerKey(actor);
    const relativeDir = names.join('/');
    const previous = await findOpenTask(this.db, ownerKey, body.taskId);
    if (previous) {
      const same =
        Number(previous.folder_id) === folder.id &&
        previous.relative_dir === relativeDir &&
        Number(previous.size) === size &&
        itemNameKey(previous.file_name) === itemNameKey(name) &&
        Number(previous.updated_at) >= Date.now() - this.limits.sessionTtlMs;
      if (same) {
        await touchUnfinished(this.db, previous.id, Date.now());
        return {
          conflictType: 0,
          conflictStrategies: [],
          fileInfo: { fileId: previous.id, fileName: previous.file_name },
          uploadedChunks: (await listChunks(this.db, previous.id)).map((c) => Number(c.chunk_no)),
          batchNumber,
          rapidPossible: await this.rapidPossible(actor, size, policy),
          chunkSize: Number(previous.chunk_size),
        };
      }
      // the task now names another file or place: the old session is of no use
      await this.discard(previous.id);
    }

    await this.checkQuota(this.db, folder, size);

    // a same-named item where the file would land
    let targetItemId: number | null = null;
    if (!place.missing.length) {
      const holder = await liveNameOwner(this.db, place.deepest.id, itemNameKey(name));
      if (holder) {
        await rights.ensure([holder]);
        const editable = rights.can(holder, LEVEL.edit);
        const strategies = [
          ...(holder.type === 'file' && editable ? [{ name: '新版本', value: 0 as const }] : []),
          ...(holder.type !== 'folder' && editable ? [{ name: '覆盖', value: 1 as const }] : []),
          { name: '重命名', value: 2 as const },
          { name: '跳过', value: 3 as const },
        ];
        if (strategy === null || strategy === 2) {
          return {
            conflictType: holder.type === 'file' ? 1 : 2,
            conflictStrategies: strategies,
            fileInfo: { fileId: '', fileName: name },
            uploadedChunks: [],
            batchNumber: null,
          };
        }
        if (strategy === 0 && holder.type === 'folder') throw badRequest('文件夹不能保存为新版本');
        if (strategy === 0 && holder.type !== 'file') throw badRequest('快捷方式不能保存为新版本');
        if (strategy === 1 && holder.type === 'folder') throw badRequest('不能用文件覆盖同名的文件夹');
        if (!editable) throw forbidden(strategy === 0 ? '您没有为同名文件添加版本的权限' : '您没有覆盖同名文件的权限');
        targetItemId = holder.id;
      }
    }

    const id = crypto.randomBytes(16).toString('hex');
    const now = Date.now();
    // the instance's own disk holds the staged chunks only without S3
    if (!this.chunks) await this.disk?.assertRoomFor(size);
    const quotaOwner = folder.space_type === SPACE_PERSONAL ? folder.owner_id : null;
    const quota = quotaOwner === null ? 0 : await this.settings.quotaFor(quotaOwner);
    await this.db.transaction().execute(async (trx) => {
      // one uploader's sessions, and one personal space's reservations, are counted and added to one at a time
      await lockKey(trx, `upload-owner:${ownerKey}`);
      if (quotaOwner !== null) await lockKey(trx, `upload-quota:${quotaOwner}`);
      await this.checkReservations(trx, ownerKey, quotaOwner, size, quota, now);
      await insertSession(trx, {
        id,
        owner_key: ownerKey,
        user_id: actor.user.id,
        share_id: actor.share?.id ?? null,
        task_id: body.taskId,
        folder_id: folder.id,
        relative_dir: relativeDir,
        file_name: name,
        size,
        chunk_size: chunkSize,
        total_chunks: Math.max(1, Math.ceil(size / chunkSize)),
        strategy: targetItemId === null ? null : strategy,
        target_item_id: targetItemId,
        status: 'open',
        result_item_id: null,
        created_at: now,
        updated_at: now,
        quota_owner_id: quotaOwner,
      });
    });
    if (!this.chunks) {
      await this.staging.create(id);
      this.hashing.open(id);
    }
    return {
      conflictType: 0,
      conflictStrategies: [],
      fileInfo: { fileId: id, fileName: name },
      uploadedChunks: [],
      batchNumber,
      rapidPossible: await this.rapidPossible(actor, size, policy),
      chunkSize,
    };
  }

  /** The chunk size of a client's new session: the configured one, or what it asked for within bounds. */
  private askedChunkSize(asked: number | null | undefined): number {
    const configured = this.limits.chunkSize;
    if (asked === undefined || asked === null) return configured;
    return Math.max(configured, Math.min(MAX_CHUNK_SIZE, asked));
  }

  /**
   * Whether an instant upload could succeed for a file of `size`: the caller may read a live
   * file of that size (below the share's root for a share). When it cannot, the client sends
   * the chunks while it hashes. Always true for a file of one chunk or less (hashing it first
   * costs next to nothing), when the candidates are too many to look at, and when the admin
   * allows instant uploads from the whole organisation (the answer would tell which sizes
   * exist there).
   */
  private async rapidPossible(actor: Actor, size: number, policy: FeaturePolicy): Promise<boolean> {
    if (!(await this.settings.uploadPolicy()).rapidUpload) return false;
    if (size <= this.limits.chunkSize) return true;
    if (!actor.share && (await this.settings.uploadPolicy()).rapidUploadOrganization) return true;
    const root = actor.share ? await findLiveItem(this.db, Number(actor.share.root_item_id)) : undefined;
    if (actor.share && !root) return false;
    const candidates = await rapidCandidates(this.db, null, size, root?.id_path ?? null, root?.id ?? null);
    if (candidates.length >= RAPID_CANDIDATES) return true;
    if (!candidates.length) return false;
    const rights = await this.rightsOn(actor, policy, candidates);
    return candidates.some((c) => rights.can(c, LEVEL.preview));
  }

  // ---- empty folders --------------------------------------------------------------------

  /**
   * POST …/CreateFolders: the empty folders of a dropped folder (files bring their own folders
   * at their merge). Each path is made where missing below the target, a same-named folder
   * being used as it is; a path that cannot be made (a file in the way, no upload right there,
   * a bad name) is reported in `failed` with its reason and the others are still made.
   */
  async createFolders(actor: Actor, body: CreateFoldersBody): Promise<CreateFoldersResult> {
    const { policy } = await this.folders.context(actor.user);
    const { folder, rights } = await this.targetFolder(actor, body.folderId, policy);
    const result: CreateFoldersResult = { created: 0, failed: [] };
    const seen = new Set<string>();
    for (const path of body.paths) {
      try {
        const names = folderPathNames(path);
        const key = names.map(itemNameKey).join('/');
        if (!names.length || seen.has(key)) continue;
        seen.add(key);
        const place = await this.locate(this.db, folder, names);
        await rights.ensure([place.deepest]);
        if (!rights.can(place.deepest, LEVEL.edit)) throw forbidden(NO_UPLOAD_RIGHT);
        if (!place.missing.length) continue;
        // a parallel upload may make one of these folders meanwhile: then the walk runs again
        for (let attempt = 0; ; attempt++) {
          try {
            result.created += await this.db.transaction().execute(async (trx) => {
              const base = await findLiveItem(trx, folder.id);
              if (!base) throw notFound(FOLDER_GONE);
              return (await this.makeFolders(trx, base, names, actor, Date.now())).made;
            });
            break;
          } catch (err) {
            if (!(isUniqueViolation(err) && attempt < 5)) throw err;
          }
        }
      } catch (err) {
        if (!(err instanceof AppError) || err.statusCode === 404) throw err;
        result.failed.push({ path, message: err.message });
      }
    }
    return result;
  }

  // ---- 2. chunks ------------------------------------------------------------------------

  /**
   * POST …/UploadChunk2: streams one chunk into the staging file at its offset. It counts as
   * received once it is fsync'ed, its MD5 matches ChunkHash (when one is sent) and it is
   * recorded. Without ChunkHash no MD5 of the chunk is made: the whole file's MD5 at the merge
   * guards the content; the upload policy's chunkCheck makes ChunkHash required. A chunk
   * already recorded is read (and checked, with ChunkHash) but never written again.
   */
  async receiveChunk(
    actor: Actor,
    fileId: string,
    chunkHash: string | undefined,
    fields: Record<string, string>,
    file: Readable,
    /** a whole body streamed by the server itself (WebDAV PUT): no per-chunk hash is asked for */
    internal = false,
  ): Promise<{ chunkNumber: number; uploadedChunks: number[] }> {
    const session = await this.ownSession(actor, fileId);
    const int = (key: string, label: string) => {
      const text = (fields[key] ?? '').trim();
      const n = Number(text);
      if (!text || !Number.isSafeInteger(n) || n < 0) throw badRequest(`参数 ${key}（${label}）缺失或不是整数`);
      return n;
    };
    const n = int('chunkNumber', '分片序号');
    const total = int('totalChunks', '分片总数');
    const chunkSize = int('chunkSize', '分片大小');
    const declared = int('currentChunkSize', '本分片大小');
    const totalSize = int('totalSize', '文件大小');
    const size = Number(session.size);
    const sessionChunk = Number(session.chunk_size);
    const sessionTotal = Number(session.total_chunks);
    if (totalSize !== size) throw badRequest('文件大小与上传任务不一致');
    if (chunkSize !== sessionChunk) throw badRequest(`分片大小与上传任务不一致（应为 ${sessionChunk} 字节）`);
    if (total !== sessionTotal) throw badRequest(`分片总数与上传任务不一致（应为 ${sessionTotal}）`);
    if (n < 1 || n > sessionTotal) throw badRequest(`分片序号应在 1 到 ${sessionTotal} 之间`);
    const expected = n < sessionTotal ? sessionChunk : size - (sessionTotal - 1) * sessionChunk;
    if (declared !== expected) throw badRequest(`第 ${n} 个分片的大小应为 ${expected} 字节`);
    const hash = (chunkHash ?? '').trim().toLowerCase() || null;
    if (hash === null) {
      if (!internal && (await this.settings.uploadPolicy()).chunkCheck) throw badRequest('已开启分片校验，分片须带校验值 ChunkHash，请刷新页面后重新上传');
    } else if (!MD5_HEX.test(hash)) {
      throw badRequest('分片校验值 ChunkHash 应为 32 位十六进制的 MD5');
    }

    // the same chunk from one process waits here; from any instance, the chunk's lease decides
    return this.withLock(`chunk:${session.id}:${n}`, async () => {
      const claim = await this.awaitChunk(session.id, n, expected);
      if (claim.kind === 'busy') throw chunkBusy(n);
      if (claim.kind === 'received') {
        // sent again: read (and checked), never written again
        const again = await readOnly(file, expected, hash !== null);
        if (again.bytes !== expected) throw incomplete(n, again.bytes, expected);
        if (hash !== null) {
          if (again.md5 !== hash) throw hashMismatch(`第 ${n} 个分片校验失败（MD5 不一致），请重新上传该分片`);
          if (claim.md5 && claim.md5 !== hash) throw hashMismatch(`第 ${n} 个分片与之前收到的内容不一致`);
        }
      } else {
        // this request holds the chunk's lease while it writes; it is renewed while the write lasts
        let held = claim.until;
        // one renewal at a time; the write's end waits for one under way (it may have moved the
        // lease in the database already: recording the chunk with the lease before it would fail)
        let renewing: Promise<unknown> | null = null;
        const renew = setInterval(() => {
          if (renewing) return;
          const next = Date.now() + this.limits.chunkLeaseMs;
          renewing = renewChunkLease(this.db, session.id, n, held, next)
            .then(
              (renewed) => renewed && (held = next),
              () => undefined,
            )
            .finally(() => (renewing = null));
        }, Math.max(50, Math.floor(this.limits.chunkLeaseMs / 3)));
        let written: WrittenChunk & { etag?: string | null };
        try {
          if (this.chunks) written = await this.chunks.write(session, n, file, expected, hash !== null);
          else {
            await this.disk?.assertRoomFor(expected);
            // a body the server reads whole is synced once at its end (receiveWhole): the disk then
            // writes it back while more arrives, instead of the reading waiting for each chunk's sync
            written = await this.staging.writeAt(session.id, (n - 1) * sessionChunk, file, expected, hash !== null, !internal);
          }
          if (written.bytes !== expected) throw incomplete(n, written.bytes, expected);
          if (hash !== null && written.md5 !== hash) throw hashMismatch(`第 ${n} 个分片校验失败（MD5 不一致），请重新上传该分片`);
        } catch (err) {
          clearInterval(renew);
          await renewing;
          await dropChunkLease(this.db, session.id, n, held).catch(() => undefined);
          if (err instanceof ChunkTooLong) throw tooLong(n, expected);
          if (isOutOfSpace(err)) {
            // the disk is full: this upload's staged bytes go at once, and the user is told why
            this.disk?.forget();
            await this.discard(session.id).catch(() => undefined);
            throw storageFull();
          }
          throw err;
        }
        clearInterval(renew);
        await renewing;
        // a chunk sent without ChunkHash is recorded with an empty md5
        if (!(await recordChunk(this.db, session.id, n, held, hash ?? '', Date.now(), written.etag ?? null))) {
          // the session went, or this writer lost its lease (stalled past it) and another took the chunk over
          if (!(await findSession(this.db, session.id))) throw notFound(SESSION_GONE);
          throw chunkBusy(n);
        }
        // the prefix MD5 goes on: from this chunk's spool (S3 parts), else in the background
        if (this.chunks) await this.chunks.recorded(session, n).catch(() => undefined);
        else this.hashing.recorded(this.staged(session), n);
      }
      if (!(await touchSession(this.db, session.id, Date.now()))) throw notFound(SESSION_GONE);
      const chunks = (await listChunks(this.db, session.id)).map((c) => Number(c.chunk_no));
      return { chunkNumber: n, uploadedChunks: chunks };
    });
  }

  /**
   * The chunk's row, as claimChunk gives it; while another request (on any instance) writes
   * the same chunk, this one waits for it to end, as long as a lease lasts and a little more:
   * the other write is then received (this one only reads and checks its body), or failed or
   * died (this one takes the lease over).
   */
  private async awaitChunk(sessionId: string, n: number, size: number) {
    const deadline = Date.now() + this.limits.chunkLeaseMs + 2000;
    for (;;) {
      const claim = await this.claimChunk(sessionId, n, size);
      if (claim.kind !== 'busy' || Date.now() >= deadline) return claim;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /**
   * The chunk's row, taken under the session's row so that no merge starts meanwhile: already
   * received (then its MD5), being written by a live request anywhere (busy), or now leased to
   * this request (new, or taken over from a writer whose lease ran out). 404 when the session
   * is no longer open (finished, merging, or gone).
   */
  private async claimChunk(
    sessionId: string,
    n: number,
    size: number,
  ): Promise<{ kind: 'received'; md5: string } | { kind: 'busy' } | { kind: 'leased'; until: number }> {
    return this.db.transaction().execute(async (trx) => {
      const now = Date.now();
      if (!(await touchSession(trx, sessionId, now))) throw notFound(SESSION_GONE);
      const row = await findChunk(trx, sessionId, n);
      const until = now + this.limits.chunkLeaseMs;
      if (!row) {
        await insertChunkLease(trx, { session_id: sessionId, chunk_no: n, size, md5: '', created_at: now, writing_until: until });
        return { kind: 'leased' as const, until };
      }
      if (row.writing_until === null) return { kind: 'received' as const, md5: row.md5 };
      if (Number(row.writing_until) >= now) return { kind: 'busy' as const };
      return (await takeOverChunkLease(trx, sessionId, n, Number(row.writing_until), until)) ? { kind: 'leased' as const, until } : { kind: 'busy' as const };
    });
  }

  private staged(session: UploadSessionRow): StagedFile {
    return {
      session: session.id,
      file: this.staging.pathOf(session.id),
      chunkSize: Number(session.chunk_size),
      size: Number(session.size),
    };
  }

  /**
   * The MD5 (and CRC-32) of the whole staged file: the prefix hash, finished from disk where it
   * stops short. When the MD5 differs from `expected`, both are made once more from the file's
   * start, whatever was known, before the upload is refused.
   */
  private async wholeHash(session: UploadSessionRow, expected: string | null): Promise<ContentDigest> {
    if (this.chunks) {
      const hash = await this.chunks.digest(session);
      return expected === null || hash.md5 === expected ? hash : this.chunks.digest(session, true);
    }
    const staged = this.staged(session);
    const hash = await this.hashing.digest(staged);
    return expected === null || hash.md5 === expected ? hash : this.hashing.digest(staged, true);
  }

  // ---- 3. instant upload ----------------------------------------------------------------

  /**
   * POST …/UploadRapid2: success when the acting user can already read a live file with that
   * content (any version), or the organisation holds it where the admin allows that; for a
   * share, only content below the share's root. The same answer, and about the same work, for
   * "nobody holds it" and "someone the caller cannot see holds it".
   */
  async rapid(actor: Actor, body: RapidBody): Promise<{ success: boolean }> {
    const fileHash = body.fileHash.trim().toLowerCase();
    return this.withLock(`merge:${body.fileId}`, async () => {
      const session = await this.ownSession(actor, body.fileId, true);
      if (session.status === 'done') return { success: true };
      if (!MD5_HEX.test(fileHash) || Number(session.size) === 0) return { success: false };
      if (!(await this.settings.uploadPolicy()).rapidUpload) return { success: false };
      const { policy } = await this.folders.context(actor.user);
      const organisation = !actor.share && (await this.settings.uploadPolicy()).rapidUploadOrganization;
      const root = actor.share ? await findLiveItem(this.db, Number(actor.share.root_item_id)) : undefined;
      if (actor.share && !root) return { success: false };
      const candidates = await rapidCandidates(this.db, fileHash, Number(session.size), root?.id_path ?? null, root?.id ?? null);
      const rights = await this.rightsOn(actor, policy, organisation ? [] : candidates);
      const found = organisation ? candidates[0] : candidates.find((c) => rights.can(c, LEVEL.preview));
      if (!found || found.blob_id === null) return { success: false };
      const done = await this.finish(actor, session, { md5: fileHash, crc32: null, blobId: Number(found.blob_id) });
      return { success: done !== null };
    });
  }

  // ---- 4. merge -------------------------------------------------------------------------

  /**
   * POST …/UploadMerge2: checks everything, then makes the file (or its new version) visible at
   * once. The same merge sent again, to this or another instance, while or after one succeeds,
   * answers the finished file.
   */
  async merge(actor: Actor, body: MergeBody, ownHash = false): Promise<Item> {
    try {
      return await this.mergeOnce(actor, body, ownHash);
    } catch (err) {
      // another request finished it meanwhile (its claim won): that file is the answer
      const session = /^[0-9a-f]{32}$/.test(body.fileId) ? await findSession(this.db, body.fileId) : undefined;
      if (session?.status === 'done' && session.result_item_id !== null && session.owner_key === this.ownerKey(actor)) {
        const item = await this.itemFor(actor, Number(session.result_item_id));
        if (item) return item;
      }
      throw err;
    }
  }

  /**
   * A whole file from one stream of `size` bytes (WebDAV PUT), through the same session, chunks
   * and merge as a web upload: the maximum size and the quota are checked before a byte is read,
   * the body is cut into the session's chunks as it arrives (never held whole), its MD5 made by
   * the hashing worker from the chunks as they are recorded (as for the web's uploads, without a
   * second pass on the request's thread), and the merge deduplicates and stores it; a same-named
   * file gets a new master version (the web's 新版本). Anything refused or short leaves nothing
   * behind.
   */
  async receiveWhole(actor: Actor, folderId: string, fileName: string, size: number, body: Readable): Promise<Item> {
    const taskId = `dav-${crypto.randomBytes(12).toString('hex')}`;
    // chunks of WHOLE_BODY_CHUNK: a sixteenth of the writes, lease rows and fsyncs of the web's 5 MB
    // ones (nobody resumes a PUT part-way, which is what small chunks are for)
    const created = await this.create(actor, { folderId, fileName, size, strategy: 0, taskId }, Math.max(this.limits.chunkSize, WHOLE_BODY_CHUNK));
    const fileId = created.fileInfo?.fileId;
    if (!fileId) throw conflict('目标位置已有同名的文件夹');
    const session = await this.ownSession(actor, fileId);
    const chunkSize = Number(session.chunk_size);
    const total = Number(session.total_chunks);
    const source = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let pending: Buffer | null = null;
    let ended = false;
    // each written chunk is flushed to disk in the background while the next one arrives (the
    // kernel would otherwise hold it all in memory until the last sync, and write it only then)
    let flushing: Promise<void> | null = null;
    try {
      for (let n = 1; n <= total; n++) {
        const expected = n < total ? chunkSize : size - (total - 1) * chunkSize;
        let left = expected;
        // the chunk's bytes, taken from the body as they come
        async function* piece(): AsyncGenerator<Buffer> {
          while (left > 0) {
            let buf = pending;
            pending = null;
            if (!buf) {
              if (ended) return;
              const next = await source.next();
              if (next.done) {
                ended = true;
                return;
              }
              buf = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
            }
            if (buf.length > left) {
              pending = buf.subarray(left);
              buf = buf.subarray(0, left);
            }
            left -= buf.length;
            yield buf;
          }
        }
        const fields = { chunkNumber: String(n), totalChunks: String(total), chunkSize: String(chunkSize), currentChunkSize: String(expected), totalSize: String(size) };
        await this.receiveChunk(actor, fileId, undefined, fields, Readable.from(piece()), true);
        if (!this.chunks && n < total && !flushing) {
          // one at a time; a failed one shows in the final sync below
          flushing = this.staging
            .sync(session.id)
            .catch(() => undefined)
            .finally(() => (flushing = null));
        }
      }
      // more bytes than declared
      if (pending || (!ended && !(await source.next()).done)) throw badRequest(`请求内容超过声明的大小（${size} 字节）`);
      if (!this.chunks) {
        await flushing;
        await this.staging.sync(session.id);
      }
      // no client hash to check against: the MD5 is the one made of the staged chunks as they were recorded
      return await this.merge(actor, { fileId, fileHash: '' }, true);
    } catch (err) {
      await this.abandon(actor, fileId).catch(() => undefined);
      throw err;
    }
  }

  /** `ownHash`: the body came whole from the server's own reading (receiveWhole), with no client hash to check. */
  private async mergeOnce(actor: Actor, body: MergeBody, ownHash = false): Promise<Item> {
    const fileHash = body.fileHash.trim().toLowerCase();
    return this.withLock(`merge:${body.fileId}`, async () => {
      const session = await this.ownSession(actor, body.fileId, true);
      if (session.status === 'done') {
        const item = session.result_item_id === null ? null : await this.itemFor(actor, Number(session.result_item_id));
        if (!item) throw notFound(SESSION_GONE);
        return item;
      }
      if (!ownHash && !MD5_HEX.test(fileHash)) throw badRequest('参数 fileHash 应为 32 位十六进制的 MD5');
      // from here on no chunk starts being written, on any instance; none may be half-written
      await this.db.transaction().execute(async (trx) => {
        const now = Date.now();
        if (!(await startMerging(trx, session.id, now))) throw notFound(SESSION_GONE);
        const writing = await chunksBeingWritten(trx, session.id, now);
        if (writing) throw new AppError(409, 40902, `还有 ${writing} 个分片正在上传，请等它们完成后再完成上传`);
        const chunks = await listChunks(trx, session.id);
        const total = Number(session.total_chunks);
        if (chunks.length < total) {
          throw new AppError(409, 40902, `还有 ${total - chunks.length} 个分片未上传完成，请继续上传后再完成`);
        }
      });
      const hash = await this.wholeHash(session, ownHash ? null : fileHash);
      if (!ownHash && hash.md5 !== fileHash) {
        await this.discard(session.id);
        throw hashMismatch('文件校验失败（MD5 不一致），文件未保存，请重新上传');
      }
      const item = await this.finish(actor, session, { ...hash, blobId: null });
      if (!item) throw notFound(SESSION_GONE);
      return item;
    });
  }

  /**
   * The end of an upload, from the staging file (`blobId` null) or from a blob the caller may
   * use (rapid upload). In one transaction: the session is claimed, the missing folders are
   * made, the content is taken (an existing blob, or the staging file linked into the blob
   * store) and the file or its new master version becomes visible. A unique clash with a
   * parallel upload (folder, name or blob) runs the transaction again. Returns null when the
   * content vanished (rapid upload only).
   */
  private async finish(actor: Actor, session: UploadSessionRow, content: ContentDigest & { blobId: number | null }): Promise<Item | null> {
    const { policy, env } = await this.folders.context(actor.user);
    const size = Number(session.size);
    let folder: ItemRow;
    let rights: LoadedRights;
    try {
      ({ folder, rights } = await this.targetFolder(actor, String(session.folder_id), policy));
      const place = await this.locate(this.db, folder, splitDir(session.relative_dir));
      await rights.ensure([place.deepest]);
      if (!rights.can(place.deepest, LEVEL.edit)) throw forbidden(NO_UPLOAD_RIGHT);
      await this.checkQuota(this.db, folder, size);
    } catch (err) {
      // refused for good: nothing is kept
      await this.discard(session.id);
      throw err;
    }

    const quota = folder.space_type === SPACE_PERSONAL ? await this.settings.quotaFor(folder.owner_id) : 0;
    for (let attempt = 0; ; attempt++) {
      let created: string | null = null;
      let vanished = false;
      try {
        const itemId = await this.db.transaction().execute(async (trx) => {
          const now = Date.now();
          if (!(await claimSession(trx, session.id, now))) throw notFound(SESSION_GONE);
          const base = await findLiveItem(trx, folder.id);
          if (!base) throw notFound(FOLDER_GONE);
          // the space's use before, for the 90 % warning (noteQuotaUse below)
          const usedBefore = await this.checkQuota(trx, base, size, quota);
          const watched = base.space_type === SPACE_PERSONAL && quota > 0;
          const { folder: parent } = await this.makeFolders(trx, base, splitDir(session.relative_dir), actor, now);
          await rights.ensure([parent], trx);
          if (!rights.can(parent, LEVEL.edit)) throw forbidden(NO_UPLOAD_RIGHT);

          // the content
          let blobId: number | null = null;
          if (content.blobId !== null) {
            const blob = await trx.selectFrom('blobs').select(['id', 'md5', 'size']).where('id', '=', content.blobId).executeTakeFirst();
            if (!blob || blob.md5 !== content.md5 || Number(blob.size) !== size) {
              vanished = true;
              throw new Error('blob vanished');
            }
            await acquireBlob(trx, blob.id);
            blobId = blob.id;
          } else {
            const chunks = this.chunks;
            const adopted = chunks
              ? await this.blobs.adoptWith(trx, content, size, now, (key) => chunks.compose(session, key, trx), chunks.storageKeyOf(session))
              : await this.blobs.adopt(trx, this.staging.pathOf(session.id), content, size, now);
            created = adopted.created;
            blobId = adopted.blob?.id ?? null;
          }
          const version = { blobId, size, md5: blobId === null ? null : content.md5 };

          // the name
          let resultId: number;
          let storedName = session.file_name;
          const holder = await liveNameOwner(trx, parent.id, itemNameKey(session.file_name));
          if (holder) await rights.ensure([holder], trx);
          const editable = !!holder && rights.can(holder, LEVEL.edit);
          if (holder && session.strategy === 0 && holder.type === 'file' && editable) {
            await addMasterVersion(trx, holder.id, version, actor.user.id, now, true);
            resultId = holder.id;
            storedName = holder.name;
          } else {
            let name = session.file_name;
            if (holder) {
              if (session.strategy === 1 && holder.type !== 'folder' && editable) await markDeleted(trx, holder, actor.user.id, now);
              else name = await freeName(trx, parent.id, name, 'file');
            }
            const row = await insertItem(trx, {
              parent,
              spaceType: parent.space_type,
              ownerId: ownerOfNew(parent, actor.user.id),
              name,
              type: 'file',
              extension: extensionOf(name),
              size,
              now,
            });
            await addFirstVersion(trx, row.id, actor.user.id, now, version);
            resultId = row.id;
            storedName = name;
          }
          await touchItem(trx, parent.id, now);
          if (watched) await noteQuotaUse(trx, base.owner_id, quota, usedBefore, now);
          if (actor.onStored) await actor.onStored(trx, { id: resultId, name: storedName }, now);
          await trx.updateTable('upload_sessions').set({ result_item_id: resultId }).where('id', '=', session.id).execute();
          await trx.deleteFrom('upload_chunks').where('session_id', '=', session.id).execute();
          return resultId;
        });
        // committed: the staging file is no longer needed
        this.hashing.forget(session.id);
        if (this.chunks) await this.chunks.remove(session.id).catch(() => undefined);
        else await this.staging.remove(session.id);
        const item = await this.itemFor(actor, itemId, policy, env);
        if (item && actor.afterUpload) await actor.afterUpload(item);
        return item;
      } catch (err) {
        // a completed parts upload stays for the next attempt (the session's removal takes it)
        if (created && created !== this.chunks?.storageKeyOf(session)) await this.blobs.remove([created]).catch(() => undefined);
        if (vanished) return null;
        if (isUniqueViolation(err) && attempt < 5) continue;
        // refused for good (folder gone, right lost, a file in the way of a folder, quota): nothing is kept
        if (err instanceof AppError && [403, 404, 409, 413].includes(err.statusCode) && err.message !== SESSION_GONE) await this.discard(session.id);
        throw err;
      }
    }
  }

  /** The Item of a file as the acting user sees it (null when gone). */
  private async itemFor(actor: Actor, id: number, policy?: FeaturePolicy, env?: Awaited<ReturnType<FoldersService['context']>>['env']): Promise<Item | null> {
    if (!policy || !env) ({ policy, env } = await this.folders.context(actor.user));
    const [row] = await findItemsWithOwner(this.db, [id]);
    if (!row || row.deleted_at !== null) return null;
    const rights = await this.rightsOn(actor, policy, [row]);
    return this.folders.toItem(row, actor.user, policy, env, rights);
  }

  /** The acting user's rights (through the share for shares), loaded for `rows`. */
  private async rightsOn(actor: Actor, policy: FeaturePolicy, rows: readonly RightsRow[]): Promise<LoadedRights> {
    const rights = actor.through ?? (await this.rights.load(actor.user, policy, rows));
    await rights.ensure(rows);
    await rights.loadCaller();
    return rights;
  }

  // ---- expiry ---------------------------------------------------------------------------

  /**
   * Removes sessions idle for longer than the time-to-live (open or finished) with their staging
   * files, and staging files that belong to no open session (left by a crash). Returns how many
   * sessions went.
   */
  async sweep(now: number = Date.now()): Promise<number> {
    const stale = await this.db
      .selectFrom('upload_sessions')
      .select('id')
      .where('updated_at', '<', now - this.limits.sessionTtlMs)
      .execute();
    for (const s of stale) await this.discard(s.id);
    const files = this.chunks ? await this.chunks.sessions() : await this.staging.list();
    for (let at = 0; at < files.length; at += 500) {
      const slice = files.slice(at, at + 500);
      const open = await this.db
        .selectFrom('upload_sessions')
        .select('id')
        .where('id', 'in', slice)
        .where('status', 'in', ['open', 'merging'])
        .execute();
      const keep = new Set(open.map((o) => o.id));
      for (const id of slice) {
        if (!keep.has(id)) {
          this.hashing.forget(id);
          if (this.chunks) await this.chunks.remove(id);
          else await this.staging.remove(id);
        }
      }
    }
    return stale.length;
  }
}

function splitDir(dir: string): string[] {
  return dir ? dir.split('/') : [];
}

function incomplete(n: number, bytes: number, expected: number): AppError {
  return badRequest(`第 ${n} 个分片不完整：收到 ${bytes} 字节，应为 ${expected} 字节`);
}

function tooLong(n: number, expected: number): AppError {
  return badRequest(`第 ${n} 个分片的内容超过声明的大小（${expected} 字节）`);
}

/** Reads a repeated chunk without writing it: its size, and its MD5 when `hash` (too long: refused at once). */
async function readOnly(source: Readable, limit: number, hash: boolean): Promise<{ bytes: number; md5: string | null }> {
  const md5 = hash ? crypto.createHash('md5') : null;
  let bytes = 0;
  for await (const piece of source) {
    const buf = piece as Buffer;
    if (bytes + buf.length > limit) throw badRequest(`分片的内容超过声明的大小（${limit} 字节）`);
    md5?.update(buf);
    bytes += buf.length;
  }
  return { bytes, md5: md5 ? md5.digest('hex') : null };
}
