// The upload engine of 云文档 (spec sections 4 and 5, api-contract "Upload"): one queue of
// upload items, one file at a time. Per file: create the upload task (a name conflict
// pauses everything until the user answers), hash the whole file, ask for an instant
// upload, otherwise send the missing chunks three at a time (retried twice, 5 s apart; each
// with its ChunkHash only when the server asks for chunk checks) and finish with the merge.
// When the server says no instant upload is possible for the file, the chunks are sent while
// it is hashed. React-free: the panel reads snapshots through subscribe().
import {
  ApiError,
  CHUNK_CONCURRENCY,
  CHUNK_RETRIES,
  CHUNK_RETRY_INTERVAL_MS,
  CHUNK_SIZE,
  CREATE_FOLDERS_BATCH,
  LARGE_CHUNK_SIZE,
  LARGE_FILE_FROM,
  CHUNK_CHECK,
  CHUNK_CHECK_ALGORITHM,
  MAX_FILE_COUNT,
  MAX_FILE_SIZE,
  Messages,
  PICKER_BATCH_SIZE,
  RAPID_UPLOAD,
  UPLOAD_TEXT,
  UploadStatus,
  fileExtension,
  formatBytes,
  summarizeUploads,
  type FileUploadOptions,
  type UploadConflictAnswer,
  type UploadChunkQuery,
  type UploadConflictRequest,
  type UploadItem,
  type UploadPath,
  type UploadSource,
  type UploadSummary,
  type UploadsSettledEvent,
} from '@app/shared';
import { chunkCount, chunkRange } from './md5';
import type { Hasher } from './hasher';
import type { TaskStore } from './taskStore';
import type { TransportTarget, UploadTransport } from './transport';

export interface UploadSnapshot {
  /** every row, in the order added */
  items: readonly UploadItem[];
  /** everything is paused (pause-all, or a conflict waiting for an answer) */
  paused: boolean;
  /** the name conflict the dialog must answer, if any */
  conflict: UploadConflictRequest | null;
  summary: UploadSummary;
}

export interface UploadEngineDeps {
  transport: UploadTransport;
  hasher: Hasher;
  tasks: TaskStore;
  notify: { error(message: string): void; warning(message: string): void };
  /** waits `ms`; rejects when `signal` aborts (the chunk retry interval) */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** awaited between batches of added files */
  yieldToUi?: () => Promise<void>;
  /** who is signed in: remembered sessions are listed again after a reload for that user only */
  owner?: () => string | null;
  createId?: () => string;
  /** options that win over the server's (the server is then still asked for the rest) */
  options?: Partial<FileUploadOptions>;
  concurrency?: number;
  /** files of `from` bytes or more ask for chunks of `size` (LARGE_FILE_FROM, LARGE_CHUNK_SIZE) */
  largeChunks?: { from: number; size: number };
  retries?: number;
  retryInterval?: number;
}

export const DEFAULT_UPLOAD_OPTIONS: FileUploadOptions = {
  chunkCheck: CHUNK_CHECK,
  chunkCheckAlgorithm: CHUNK_CHECK_ALGORITHM,
  chunkSize: CHUNK_SIZE,
  maxFileCount: MAX_FILE_COUNT,
  maxFileSize: MAX_FILE_SIZE,
  rapidUpload: RAPID_UPLOAD,
};

type Strategy = UploadConflictAnswer['operation'];

interface Entry {
  item: UploadItem;
  /** null for a row remembered from before a reload until the file is picked again */
  file: File | null;
  /** the relativePath as added (the remembered session is found by it) */
  addedPath: string;
  /** hex MD5 of the whole file, once hashed (kept for a retry of the same file) */
  fileHash: string | null;
  /** the ChunkHash of each chunk hashed so far, for the chunk size they were made for */
  chunkHashes: { chunkSize: number; byNumber: Map<number, string>; pending: Map<number, Promise<string>> } | null;
  /** refused when added (no name, too large): retry cannot help */
  refused: boolean;
}

/** What to send of a file: the chunks the server holds already are skipped. */
interface ChunkPlan {
  uploaded: readonly number[];
  chunkSize: number;
  /** each chunk carries its ChunkHash (FileUploadOptions.chunkCheck) */
  chunkCheck: boolean;
}

interface Run {
  id: string;
  controller: AbortController;
}

/** Why an upload stopped, shown on its row. */
class UploadFailure extends Error {}

class Aborted extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortError';
  }
}

const ACTIVE: ReadonlySet<string> = new Set([UploadStatus.Waiting, UploadStatus.Uploading]);
const UNFINISHED: ReadonlySet<string> = new Set([UploadStatus.Waiting, UploadStatus.Uploading, UploadStatus.Paused]);
const DONE: ReadonlySet<string> = new Set([UploadStatus.Success, UploadStatus.Complete]);

/** Speed is measured over at least this long. */
const SPEED_WINDOW_MS = 500;
/**
 * Progress alone (hashing or sending, no change of state) reaches the panel at most this often:
 * each update re-renders and repaints the panel, which takes CPU time from the hashing and the
 * transfer.
 */
const PROGRESS_SHOWN_EVERY_MS = 250;

/** A row as it is first listed: nothing hashed or sent yet. A refused file is an error row. */
function freshItem(o: {
  id: string;
  name: string;
  size: number;
  path: UploadPath;
  folderId: string;
  taskId: string;
  fileId: string | null;
  relativePath: string;
  status: UploadStatus;
  msg: string;
  error: boolean;
  needsFile: boolean;
}): UploadItem {
  const shareId = o.path.shareId ?? null;
  return {
    id: o.id,
    name: o.name,
    fileName: o.name,
    size: o.size,
    type: o.path.type ?? null,
    fileType: fileExtension(o.name),
    relativePath: o.relativePath,
    path: { ...o.path },
    folderId: o.folderId,
    taskId: o.taskId,
    strategy: null,
    fileId: o.fileId,
    uniqueIdentifier: null,
    batchNumber: o.path.batchNumber ?? shareId,
    shareId,
    namePath: o.path.namePath ?? '',
    idPath: o.path.idPath ?? '',
    status: o.status,
    speed: 0,
    mathPro: 0,
    uploadedSize: 0,
    md5verify: 0,
    isMD5Compute: false,
    isHovered: false,
    uploadTime: null,
    msg: o.msg,
    error: o.error,
    completed: false,
    isFolder: o.relativePath.includes('/'),
    refused: o.error,
    needsFile: o.needsFile,
  };
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Aborted());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function defaultId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

function serverMessage(e: unknown): string {
  if (e instanceof UploadFailure) return e.message;
  if (e instanceof ApiError) return e.serverMessage || Messages.unknownError;
  return Messages.unknownError;
}

/** The finish call's failure: its message, else the title of its result. */
function mergeMessage(e: unknown): string {
  if (e instanceof ApiError) {
    const title = (e.result as { title?: unknown } | null | undefined)?.title;
    return e.serverMessage || (typeof title === 'string' && title ? title : Messages.unknownError);
  }
  return Messages.unknownError;
}

/** Expired sessions and refused rights are not helped by sending again. */
function retryable(e: unknown): boolean {
  if (e instanceof Aborted) return false;
  if (e instanceof ApiError) {
    if (e.canceled) return false;
    if ([401, 403].includes(e.code) || [401, 403].includes(e.status ?? 0)) return false;
  }
  return true;
}

/** `v` when it is a positive whole number, else `fallback`. */
const positive = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : fallback);

function normalizeOptions(o: Partial<FileUploadOptions>): FileUploadOptions {
  return {
    chunkCheck: typeof o.chunkCheck === 'boolean' ? o.chunkCheck : DEFAULT_UPLOAD_OPTIONS.chunkCheck,
    chunkCheckAlgorithm: o.chunkCheckAlgorithm || DEFAULT_UPLOAD_OPTIONS.chunkCheckAlgorithm,
    chunkSize: positive(o.chunkSize, CHUNK_SIZE),
    maxFileCount: positive(o.maxFileCount, MAX_FILE_COUNT),
    maxFileSize: positive(o.maxFileSize, MAX_FILE_SIZE),
    rapidUpload: typeof o.rapidUpload === 'boolean' ? o.rapidUpload : RAPID_UPLOAD,
  };
}

function sourceFile(source: UploadSource): { file: File; relativePath?: string } {
  const wrapped = source as { file?: File; relativePath?: string };
  if (wrapped.file && typeof wrapped.file === 'object' && !(source instanceof Blob)) return { file: wrapped.file, relativePath: wrapped.relativePath };
  return { file: source as File };
}

function renamePath(relativePath: string, newName: string): string {
  const cut = relativePath.lastIndexOf('/');
  return cut < 0 ? newName : `${relativePath.slice(0, cut + 1)}${newName}`;
}

export class UploadEngine {
  private readonly deps: Required<Omit<UploadEngineDeps, 'options' | 'owner'>> & {
    options: Partial<FileUploadOptions>;
    owner: () => string | null;
  };
  private entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  /** ids in the order they will be taken */
  private queue: string[] = [];
  private current: Run | null = null;
  private globallyPaused = false;
  private conflict: UploadConflictRequest | null = null;
  /** the strategy answered with 'apply to all', until the queue drains */
  private conflictAll: Strategy | null = null;
  private options: FileUploadOptions | null = null;
  private optionsLoading: Promise<FileUploadOptions> | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly settledListeners = new Set<(event: UploadsSettledEvent) => void>();
  private idleWaiters: Array<() => void> = [];
  private succeeded: Entry[] = [];
  private snapshot: UploadSnapshot | null = null;
  /** when progress alone last reached the panel */
  private progressShownAt = -Infinity;

  constructor(deps: UploadEngineDeps) {
    this.deps = {
      sleep: defaultSleep,
      now: () => Date.now(),
      yieldToUi: () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
      createId: defaultId,
      owner: () => null,
      concurrency: CHUNK_CONCURRENCY,
      largeChunks: { from: LARGE_FILE_FROM, size: LARGE_CHUNK_SIZE },
      retries: CHUNK_RETRIES,
      retryInterval: CHUNK_RETRY_INTERVAL_MS,
      ...deps,
      options: deps.options ?? {},
    };
  }

  // ---- reading ------------------------------------------------------------------------------

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The current state; the same object until something changes (for useSyncExternalStore). */
  getSnapshot(): UploadSnapshot {
    if (!this.snapshot) {
      const items = this.entries.map((e) => e.item);
      this.snapshot = { items, paused: this.globallyPaused, conflict: this.conflict, summary: summarizeUploads(items) };
    }
    return this.snapshot;
  }

  getItem(id: string): UploadItem | undefined {
    return this.byId.get(id)?.item;
  }

  /** Files are waiting or being sent (leaving the page asks first). */
  isBusy(): boolean {
    return this.entries.some((e) => ACTIVE.has(e.item.status));
  }

  /** Called each time the queue drains after at least one file succeeded. */
  onSettled(listener: (event: UploadsSettledEvent) => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  /** Resolves when no file is being sent (the queue drained, or everything is paused). */
  whenIdle(): Promise<void> {
    if (!this.current && !this.nextWaiting()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** The upload options: the server's, else the defaults of spec section 9. */
  async loadOptions(): Promise<FileUploadOptions> {
    if (this.options) return this.options;
    this.optionsLoading ??= this.deps.transport
      .getOptions()
      .then((server) => {
        this.options = normalizeOptions({ ...server, ...this.deps.options });
        return this.options;
      })
      .catch(() => normalizeOptions(this.deps.options))
      .finally(() => {
        this.optionsLoading = null;
      });
    return this.optionsLoading;
  }

  /**
   * Files are about to be picked (the upload menu opened, files dragged over the page): the
   * options are fetched and the hashing worker started ahead, so that the first file's create
   * call and hash start at once. Does nothing while files are being sent.
   */
  prepare(): void {
    void this.loadOptions();
    if (!this.current) this.deps.hasher.warm?.();
  }

  // ---- adding -------------------------------------------------------------------------------

  /**
   * Lists the files for `target` and starts sending. Files without a name or of the
   * maximum size or more are listed as failed and never sent. Large selections are listed
   * in batches of 50; more than maxFileCount files shows the lag warning.
   */
  async add(sources: readonly UploadSource[], target: UploadPath, opts: { quiet?: boolean } = {}): Promise<UploadItem[]> {
    const list = [...sources];
    if (list.length === 0) return [];
    const options = await this.loadOptions();
    if (list.length > options.maxFileCount && !opts.quiet) this.deps.notify.warning(Messages.tooManyFiles(options.maxFileCount));
    const added: Entry[] = [];
    const refusals = new Set<string>();
    for (let start = 0; start < list.length; start += PICKER_BATCH_SIZE) {
      if (start > 0) await this.deps.yieldToUi();
      for (const source of list.slice(start, start + PICKER_BATCH_SIZE)) {
        const entry = this.addOne(source, target, options);
        if (entry.refused) refusals.add(entry.item.msg);
        added.push(entry);
      }
      this.changed();
      this.pump();
    }
    for (const message of refusals) this.deps.notify.error(message);
    return added.map((e) => e.item);
  }

  /**
   * Makes the empty folders of a dropped folder below `target` (a folder holding files is made
   * when its first file lands). Folders that cannot be made are named in one warning; when any
   * was made, the list and tree are told to refresh.
   */
  async addFolders(paths: readonly string[], target: UploadPath): Promise<void> {
    const list = [...new Set(paths.filter((p) => p))];
    if (!list.length) return;
    const folderId = String(target.wjFileId);
    const transportTarget: TransportTarget = { shareId: target.shareId ?? null, accessKey: target.accessKey ?? null, batchNumber: target.batchNumber ?? null };
    let created = 0;
    const failed: { path: string; message: string }[] = [];
    try {
      for (let start = 0; start < list.length; start += CREATE_FOLDERS_BATCH) {
        const result = await this.deps.transport.createFolders({ folderId, paths: list.slice(start, start + CREATE_FOLDERS_BATCH) }, transportTarget);
        created += result.created;
        failed.push(...result.failed);
      }
    } catch (e) {
      this.deps.notify.error(serverMessage(e));
    }
    if (failed.length) this.deps.notify.warning(UPLOAD_TEXT.foldersFailed(failed.length, failed[0].path, failed[0].message));
    if (created > 0) {
      const event: UploadsSettledEvent = { folderIds: [folderId], withFolders: true };
      for (const listener of [...this.settledListeners]) listener(event);
    }
  }

  private addOne(source: UploadSource, target: UploadPath, options: FileUploadOptions): Entry {
    const { file, relativePath: given } = sourceFile(source);
    const rawName = (file as { name?: unknown } | null)?.name;
    const name = typeof rawName === 'string' ? rawName : '';
    let refusal = '';
    if (rawName == null) refusal = Messages.fileMissingName;
    else if (!name.trim()) refusal = Messages.invalidFileName;
    else if (file.size >= options.maxFileSize) refusal = Messages.fileTooLarge(formatBytes(options.maxFileSize));

    const relativePath = (given || file?.webkitRelativePath || name).replace(/^\/+/, '');
    const folderId = String(target.wjFileId);
    const shareId = target.shareId ?? null;
    const fingerprint = { folderId, shareId, name, size: file?.size ?? 0, lastModified: file?.lastModified ?? 0, relativePath };
    // the same file picked again replaces its row remembered from before a reload
    if (!refusal) {
      const waiting = this.entries.find((e) => !e.file && e.addedPath === relativePath && e.item.folderId === folderId && e.item.shareId === shareId && e.item.name === name && e.item.size === fingerprint.size);
      if (waiting) this.forgetRow(waiting);
    }
    const busy = new Set(this.entries.map((e) => e.item.taskId));
    const remembered = refusal
      ? null
      : this.deps.tasks.find(fingerprint, busy);
    const entry = this.listEntry(
      freshItem({
        id: this.deps.createId(),
        name,
        size: file?.size ?? 0,
        path: target,
        folderId,
        taskId: remembered?.taskId ?? this.deps.createId(),
        fileId: null,
        relativePath,
        status: refusal ? UploadStatus.Error : this.globallyPaused ? UploadStatus.Paused : UploadStatus.Waiting,
        msg: refusal,
        error: Boolean(refusal),
        needsFile: false,
      }),
      file,
      relativePath,
    );
    if (!refusal) this.queue.push(entry.item.id);
    return entry;
  }

  /** Puts a new row on the list. */
  private listEntry(item: UploadItem, file: File | null, addedPath: string): Entry {
    const entry: Entry = { item, file, addedPath, fileHash: null, chunkHashes: null, refused: Boolean(item.refused) };
    this.entries.push(entry);
    this.byId.set(item.id, entry);
    return entry;
  }

  /**
   * Lists again the unfinished uploads of the signed-in user remembered from before a reload.
   * Their files are gone with the page: each row stays paused until its file is picked again
   * (reattach, or the same file added to the same folder); the server then sends only the
   * chunks it does not hold yet. Returns how many rows were listed.
   */
  restore(): number {
    const owner = this.deps.owner();
    if (!owner) return 0;
    const listed = new Set(this.entries.map((e) => e.item.taskId));
    let count = 0;
    for (const record of this.deps.tasks.list()) {
      if ((record.owner ?? null) !== owner || listed.has(record.taskId)) continue;
      const path: UploadPath = record.path ? { ...record.path } : { wjFileId: record.folderId, shareId: record.shareId };
      this.listEntry(
        freshItem({
          id: this.deps.createId(),
          name: record.name,
          size: record.size,
          path,
          folderId: record.folderId,
          taskId: record.taskId,
          fileId: record.fileId,
          relativePath: record.relativePath,
          status: UploadStatus.Paused,
          msg: UPLOAD_TEXT.repick,
          error: false,
          needsFile: true,
        }),
        null,
        record.relativePath,
      );
      listed.add(record.taskId);
      count += 1;
    }
    if (count) this.changed();
    return count;
  }

  /**
   * Gives a row remembered from before a reload its file again. The file must have the
   * same name and size; returns false (and changes nothing) otherwise.
   */
  reattach(id: string, file: File): boolean {
    const entry = this.byId.get(id);
    if (!entry || entry.file || file.name !== entry.item.name || file.size !== entry.item.size) return false;
    entry.file = file;
    this.patch(entry, {
      needsFile: false,
      msg: '',
      status: this.globallyPaused ? UploadStatus.Paused : UploadStatus.Waiting,
    });
    if (!this.queue.includes(id)) this.queue.push(id);
    this.changed();
    this.pump();
    return true;
  }

  /** Sign-out: stops and empties the list but keeps the remembered sessions for a later sign-in. */
  suspend(): void {
    this.stopCurrent();
    for (const entry of [...this.entries]) this.forgetRow(entry);
    this.resetList();
  }

  /** After every row has left: an empty queue, no conflict, not paused. */
  private resetList(): void {
    this.queue = [];
    this.conflict = null;
    this.conflictAll = null;
    this.globallyPaused = false;
    this.succeeded = [];
    this.changed();
    this.flushIdle();
  }

  /** Takes a row off the list, keeping its remembered session. */
  private forgetRow(entry: Entry): void {
    this.entries = this.entries.filter((e) => e !== entry);
    this.byId.delete(entry.item.id);
    this.queue = this.queue.filter((q) => q !== entry.item.id);
  }

  // ---- controls -----------------------------------------------------------------------------

  /** Pause-all: uploading and waiting items become paused. */
  pauseAll(): void {
    this.globallyPaused = true;
    this.stopCurrent();
    for (const entry of this.entries) {
      if (ACTIVE.has(entry.item.status)) this.patch(entry, { status: UploadStatus.Paused, speed: 0, isMD5Compute: false });
    }
    this.changed();
    this.flushIdle();
  }

  /** Continue: paused items wait again and the queue restarts. */
  resumeAll(): void {
    this.globallyPaused = false;
    this.conflict = null;
    for (const entry of this.entries) {
      if (entry.item.status === UploadStatus.Paused && entry.file) this.patch(entry, { status: UploadStatus.Waiting, msg: '' });
    }
    this.changed();
    this.pump();
  }

  /** Pauses one item. */
  pause(id: string): void {
    const entry = this.byId.get(id);
    if (!entry || !ACTIVE.has(entry.item.status)) return;
    if (this.current?.id === id) this.stopCurrent();
    this.patch(entry, { status: UploadStatus.Paused, speed: 0, isMD5Compute: false });
    this.changed();
    this.pump();
  }

  /** Lets one paused item wait again. */
  resume(id: string): void {
    const entry = this.byId.get(id);
    if (!entry || entry.item.status !== UploadStatus.Paused || !entry.file) return;
    this.patch(entry, { status: this.globallyPaused ? UploadStatus.Paused : UploadStatus.Waiting, msg: '' });
    this.changed();
    this.pump();
  }

  /** Retry: the item's progress starts over and it resumes where the server stopped. */
  retry(id: string): void {
    const entry = this.byId.get(id);
    if (!entry || !this.requeue(entry)) return;
    this.changed();
    this.pump();
  }

  /** Retry-all: every failed item. */
  retryAll(): void {
    let any = false;
    for (const entry of this.entries) any = this.requeue(entry) || any;
    if (!any) return;
    this.changed();
    this.pump();
  }

  private requeue(entry: Entry): boolean {
    if (entry.item.status !== UploadStatus.Error || entry.refused) return false;
    this.patch(entry, {
      status: this.globallyPaused ? UploadStatus.Paused : UploadStatus.Waiting,
      error: false,
      msg: '',
      mathPro: 0,
      uploadedSize: 0,
      speed: 0,
    });
    if (!this.queue.includes(entry.item.id)) this.queue.push(entry.item.id);
    return true;
  }

  /** Takes one item off the list; its unfinished session is forgotten. */
  cancel(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    if (this.current?.id === id) this.stopCurrent();
    if (this.conflict?.itemId === id) this.conflict = null;
    this.drop(entry);
    this.changed();
    this.pump();
  }

  /** Cancels everything and empties the list. */
  cancelAll(): void {
    this.stopCurrent();
    for (const entry of [...this.entries]) this.drop(entry);
    this.resetList();
  }

  /**
   * Close: when everything succeeded the list is simply reset; otherwise `confirm` (the
   * 取消上传 dialog) must answer true. Resolves with whether the list was closed.
   */
  async close(confirm: () => boolean | Promise<boolean>): Promise<boolean> {
    const { status } = this.getSnapshot().summary;
    if (status !== 'idle' && status !== 'success' && !(await confirm())) return false;
    this.cancelAll();
    return true;
  }

  /** The conflict dialog's answer; null (dialog dismissed) leaves everything paused. */
  resolveConflict(answer: UploadConflictAnswer | null): void {
    const request = this.conflict;
    if (!request) return;
    this.conflict = null;
    const entry = this.byId.get(request.itemId);
    if (!answer || !entry) {
      this.changed();
      return;
    }
    const { operation } = answer;
    if (answer.operationAll && operation !== 2) this.conflictAll = operation;
    if (operation === 3) this.skip(entry);
    else if (operation === 2) {
      const newName = answer.newFileName?.trim() || entry.item.fileName;
      this.patch(entry, { strategy: 2, fileName: newName, relativePath: renamePath(entry.item.relativePath, newName), msg: '' });
    } else {
      this.patch(entry, { strategy: operation, msg: '' });
    }
    this.resumeAll();
  }

  // ---- the queue ----------------------------------------------------------------------------

  private nextWaiting(): string | undefined {
    return this.queue.find((id) => this.byId.get(id)?.item.status === UploadStatus.Waiting);
  }

  private pump(): void {
    if (this.current) return;
    const id = this.globallyPaused || this.conflict ? undefined : this.nextWaiting();
    if (!id) {
      this.flushIdle();
      this.maybeSettled();
      return;
    }
    this.queue = this.queue.filter((q) => q !== id);
    const run: Run = { id, controller: new AbortController() };
    this.current = run;
    void this.execute(run);
  }

  private async execute(run: Run): Promise<void> {
    const entry = this.byId.get(run.id);
    if (!entry) return;
    const { signal } = run.controller;
    this.patch(entry, { status: UploadStatus.Uploading, error: false, msg: '', speed: 0 });
    this.changed();
    try {
      await this.uploadOne(entry, signal);
    } catch (e) {
      if (!signal.aborted) this.fail(entry, serverMessage(e));
    } finally {
      if (this.current === run) {
        this.current = null;
        this.pump();
      }
    }
  }

  /** Stops the file being sent; it goes back to the front of the queue. */
  private stopCurrent(): void {
    const run = this.current;
    if (!run) return;
    this.current = null;
    run.controller.abort();
    this.queue = [run.id, ...this.queue.filter((q) => q !== run.id)];
  }

  private drop(entry: Entry): void {
    const { id, taskId, status, fileId } = entry.item;
    this.entries = this.entries.filter((e) => e !== entry);
    this.byId.delete(id);
    this.queue = this.queue.filter((q) => q !== id);
    if (DONE.has(status)) return;
    this.deps.tasks.remove(taskId);
    // the server forgets the unfinished upload at once (its staged chunks, its quota reservation)
    // rather than after a day; a failure here changes nothing the user sees
    if (fileId) this.deps.transport.abandon(fileId, this.target(entry.item)).catch(() => undefined);
  }

  private flushIdle(): void {
    if (this.current) return;
    // nothing is being sent: the chunk hashing workers end until the next chunk
    this.deps.hasher.release();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private maybeSettled(): void {
    // rows waiting for their file to be picked again do not hold the refresh back
    if (this.entries.some((e) => e.file && UNFINISHED.has(e.item.status))) return;
    this.conflictAll = null;
    const done = this.succeeded.filter((e) => this.byId.has(e.item.id));
    this.succeeded = [];
    if (done.length === 0) return;
    const event: UploadsSettledEvent = {
      folderIds: [...new Set(done.map((e) => e.item.folderId))],
      withFolders: done.some((e) => e.item.isFolder),
    };
    for (const listener of [...this.settledListeners]) listener(event);
  }

  // ---- one file -----------------------------------------------------------------------------

  private target(item: UploadItem): TransportTarget {
    return { shareId: item.shareId, accessKey: item.path.accessKey ?? null, batchNumber: item.batchNumber };
  }

  private async uploadOne(entry: Entry, signal: AbortSignal): Promise<void> {
    const guard = () => {
      if (signal.aborted) throw new Aborted();
    };
    const options = await this.loadOptions();
    guard();
    const { item } = entry;
    const file = entry.file;
    if (!file) throw new UploadFailure(UPLOAD_TEXT.repick);

    // 1. the upload task; 2. the whole file's hash starts with it (kept for a retry of the same
    // file): a conflict, a refusal or a pause stops it
    const hashing = new AbortController();
    const stopHashing = () => hashing.abort();
    signal.addEventListener('abort', stopHashing, { once: true });
    const hashed = this.hash(entry, file, hashing.signal);
    hashed.catch(() => undefined);
    try {
      const created = await this.deps.transport.createTask(
        {
          folderId: item.folderId,
          fileName: item.fileName,
          size: item.size,
          type: item.type,
          strategy: item.strategy,
          relativePath: item.relativePath,
          taskId: item.taskId,
          shareId: item.shareId,
          ...this.wishedChunkSize(item.size, options.chunkSize),
        },
        this.target(item),
        signal,
      );
      guard();
      if (created.conflictType) {
        stopHashing();
        const all = this.conflictAll;
        if (all === 3) return this.skip(entry);
        if (all !== null && item.strategy !== all) {
          this.patch(entry, { strategy: all });
          this.changed();
          return await this.uploadOne(entry, signal);
        }
        return this.raiseConflict(entry, created.conflictStrategies ?? []);
      }
      const fileId = created.fileInfo?.fileId;
      if (!fileId) throw new UploadFailure(Messages.fileInfoInvalid);
      this.patch(entry, { fileId, batchNumber: created.batchNumber ?? entry.item.batchNumber });
      this.changed();
      this.deps.tasks.save({
        taskId: item.taskId,
        folderId: item.folderId,
        shareId: item.shareId,
        name: item.name,
        size: item.size,
        lastModified: file.lastModified ?? 0,
        relativePath: entry.addedPath,
        fileId,
        savedAt: this.deps.now(),
        owner: this.deps.owner(),
        path: { ...item.path, accessKey: null },
      });

      const uploaded = created.uploadedChunks ?? [];
      // the session's own chunk size (a large file's larger chunks; a resumed task keeps its size)
      const chunkSize = positive(created.chunkSize, options.chunkSize);
      const plan: ChunkPlan = { uploaded, chunkSize, chunkCheck: options.chunkCheck };
      // no instant upload can come of the hash: the chunks go while it is made
      if (!entry.fileHash && (!options.rapidUpload || created.rapidPossible === false)) {
        return await this.hashWhileSending(entry, file, fileId, plan, options.rapidUpload, { hashed, stop: stopHashing }, signal, guard);
      }

      // when chunks are checked, their own hashes are made meanwhile on another core
      if (!entry.fileHash && plan.chunkCheck) this.hashChunksAhead(entry, file, uploaded, plan.chunkSize, hashing.signal);
      const fileHash = await hashed;
      guard();

      // 3. instant upload
      if (options.rapidUpload) {
        const rapid = await this.deps.transport.checkRapid({ fileId, fileHash }, this.target(entry.item), signal);
        guard();
        if (rapid?.success) {
          stopHashing(); // the chunks hashed ahead
          return this.succeed(entry, fileId, UPLOAD_TEXT.rapid);
        }
      }
      // 4. the missing chunks
      await this.sendChunks(entry, file, fileId, plan, () => fileHash, signal);
      guard();
      // 5. finish
      return await this.finish(entry, fileId, fileHash, signal, guard);
    } finally {
      stopHashing();
      signal.removeEventListener('abort', stopHashing);
    }
  }

  /**
   * Steps 2 to 5 when no instant upload can come of the hash (the server holds no file of
   * this size the caller could use, or instant uploads are off): the chunks are sent while
   * the whole file is hashed on another core, and the merge follows both. Should an instant
   * upload succeed after all (the same content landed meanwhile), the chunks still on their
   * way are dropped; a chunk that fails for good stops the hashing.
   */
  private async hashWhileSending(
    entry: Entry,
    file: File,
    fileId: string,
    plan: ChunkPlan,
    rapidUpload: boolean,
    hash: { hashed: Promise<string>; stop: () => void },
    signal: AbortSignal,
    guard: () => void,
  ): Promise<void> {
    // the row shows the sending; the hashing goes on behind it
    this.patch(entry, { isMD5Compute: false, msg: '' });
    this.changed();
    const sending = new AbortController();
    const stopSending = () => sending.abort();
    signal.addEventListener('abort', stopSending, { once: true });
    let sendFailure: unknown = null;
    const sent = this.sendChunks(entry, file, fileId, plan, () => entry.fileHash ?? fileId, sending.signal).then(
      () => {
        // everything is sent before the hash is done: the row shows the hashing from here
        if (!entry.fileHash && !signal.aborted) {
          this.patch(entry, { isMD5Compute: true, msg: UPLOAD_TEXT.hashing });
          this.changed();
        }
      },
      (e: unknown) => {
        sendFailure = e;
        hash.stop();
        throw e;
      },
    );
    sent.catch(() => undefined);
    try {
      let fileHash: string;
      try {
        fileHash = await hash.hashed;
      } catch (e) {
        if (sendFailure) throw sendFailure;
        throw e;
      }
      guard();
      if (rapidUpload) {
        const rapid = await this.deps.transport.checkRapid({ fileId, fileHash }, this.target(entry.item), signal);
        guard();
        if (rapid?.success) {
          stopSending();
          return this.succeed(entry, fileId, UPLOAD_TEXT.rapid);
        }
      }
      await sent;
      guard();
      return await this.finish(entry, fileId, fileHash, signal, guard);
    } finally {
      stopSending();
      signal.removeEventListener('abort', stopSending);
    }
  }

  /** Step 5: the merge. */
  private async finish(entry: Entry, fileId: string, fileHash: string, signal: AbortSignal, guard: () => void): Promise<void> {
    let merged: unknown;
    try {
      merged = await this.deps.transport.merge(
        { fileId, relativePath: entry.item.relativePath, fileHash },
        this.target(entry.item),
        signal,
      );
    } catch (e) {
      guard();
      throw new UploadFailure(mergeMessage(e));
    }
    guard();
    const finalId = (merged as { id?: unknown } | null)?.id;
    this.succeed(entry, typeof finalId === 'string' && finalId ? finalId : fileId, '');
  }

  /**
   * The whole file's MD5, shown on the row as 正在校验文件 n% while `isMD5Compute` (chunks sent
   * meanwhile take the row until the hashing is all that is left).
   */
  private async hash(entry: Entry, file: File, signal: AbortSignal): Promise<string> {
    if (entry.fileHash) return entry.fileHash;
    this.patch(entry, { isMD5Compute: true, md5verify: 0, msg: UPLOAD_TEXT.hashing });
    this.changed();
    let fileHash: string;
    try {
      fileHash = await this.deps.hasher.hash(file, {
        signal,
        onProgress: (percent) => {
          if (signal.aborted || percent === entry.item.md5verify) return;
          this.patch(entry, { md5verify: percent });
          if (entry.item.isMD5Compute && this.progressDue()) this.changed();
        },
      });
    } catch {
      if (signal.aborted) throw new Aborted();
      this.patch(entry, { isMD5Compute: false });
      throw new UploadFailure(Messages.fileReadFailed);
    }
    entry.fileHash = fileHash;
    this.patch(entry, { isMD5Compute: false, md5verify: 100, uniqueIdentifier: fileHash, msg: '' });
    this.changed();
    return fileHash;
  }

  /** The ChunkHash of chunk `n`: hashed (in a chunk worker) just before it is first sent. */
  private async chunkHash(entry: Entry, n: number, blob: Blob, chunkSize: number, signal: AbortSignal): Promise<string> {
    if (entry.chunkHashes?.chunkSize !== chunkSize) entry.chunkHashes = { chunkSize, byNumber: new Map(), pending: new Map() };
    const { byNumber: known, pending } = entry.chunkHashes;
    const cached = known.get(n);
    if (cached) return cached;
    // being hashed already (ahead of time, while the whole file was hashed): wait for it,
    // unless that attempt was stopped
    const running = pending.get(n);
    if (running) {
      try {
        return await running;
      } catch {
        if (signal.aborted) throw new Aborted();
      }
    }
    const attempt = this.deps.hasher.hashChunk(blob, signal);
    pending.set(n, attempt);
    let hash: string;
    try {
      hash = await attempt;
    } catch {
      if (signal.aborted) throw new Aborted();
      throw new UploadFailure(Messages.fileReadFailed);
    } finally {
      if (pending.get(n) === attempt) pending.delete(n);
    }
    known.set(n, hash);
    return hash;
  }

  /**
   * While the whole file is hashed (one worker), the chunks to send are hashed ahead in the
   * chunk workers, one at a time, so that sending does not wait for them. Stopped by `signal`
   * (the instant upload succeeded, or the upload stopped).
   */
  private hashChunksAhead(entry: Entry, file: File, uploaded: readonly number[], chunkSize: number, signal: AbortSignal): void {
    const size = file.size;
    const total = chunkCount(size, chunkSize);
    const held = new Set(uploaded);
    void (async () => {
      for (let n = 1; n <= total; n += 1) {
        if (signal.aborted) return;
        if (held.has(n)) continue;
        const [start, end] = chunkRange(n, size, chunkSize);
        try {
          await this.chunkHash(entry, n, file.slice(start, end), chunkSize, signal);
        } catch {
          return; // sending hashes what is still missing
        }
      }
    })();
  }

  /**
   * Sends the chunks the server lacks, three at a time, each retried twice 5 s apart; with
   * chunk checks on, each carries its ChunkHash. `identifier` is the file's MD5, or its session
   * while the MD5 is still being made.
   */
  private async sendChunks(
    entry: Entry,
    file: File,
    fileId: string,
    { uploaded: uploadedChunks, chunkSize, chunkCheck }: ChunkPlan,
    identifier: () => string,
    signal: AbortSignal,
  ): Promise<void> {
    const size = file.size;
    const total = chunkCount(size, chunkSize);
    const bytesOf = (n: number) => {
      const [start, end] = chunkRange(n, size, chunkSize);
      return end - start;
    };
    const held = new Set(uploadedChunks.filter((n) => Number.isInteger(n) && n >= 1 && n <= total));
    const todo: number[] = [];
    for (let n = 1; n <= total; n += 1) if (!held.has(n)) todo.push(n);

    let confirmed = 0;
    for (const n of held) confirmed += bytesOf(n);
    const inFlight = new Map<number, number>();
    let windowStart = this.deps.now();
    let windowBytes = confirmed;
    let speed = 0;
    let shownPercent = -1;
    let shownSpeed = -1;
    const report = () => {
      if (signal.aborted) return;
      let loaded = confirmed;
      for (const b of inFlight.values()) loaded += b;
      const now = this.deps.now();
      if (now - windowStart >= SPEED_WINDOW_MS) {
        speed = Math.max(0, Math.round(((loaded - windowBytes) * 1000) / (now - windowStart)));
        windowStart = now;
        windowBytes = loaded;
      }
      const percent = size > 0 ? Math.min(99, Math.floor((loaded * 100) / size)) : 0;
      // the browser reports progress many times a second per chunk: the panel is told when the
      // percent or the speed it shows moved, at most every PROGRESS_SHOWN_EVERY_MS
      this.patch(entry, { uploadedSize: Math.min(size, loaded), mathPro: percent, speed });
      if ((percent !== shownPercent || speed !== shownSpeed) && this.progressDue()) {
        shownPercent = percent;
        shownSpeed = speed;
        this.changed();
      }
    };
    report();

    // one controller for this file's chunks: the first chunk that fails for good stops the rest
    const chunks = new AbortController();
    const stop = () => chunks.abort();
    signal.addEventListener('abort', stop, { once: true });
    let failure: unknown = null;
    let next = 0;
    const target = this.target(entry.item);
    const { item } = entry;

    const sendOne = async (n: number) => {
      const [start, end] = chunkRange(n, size, chunkSize);
      const blob = file.slice(start, end);
      // hashed once, and only when chunks are checked: a failing read is not helped by sending again
      const query: UploadChunkQuery = { fileId, RelativePath: item.relativePath };
      if (chunkCheck) query.ChunkHash = await this.chunkHash(entry, n, blob, chunkSize, chunks.signal);
      for (let attempt = 0; ; attempt += 1) {
        try {
          await this.deps.transport.uploadChunk({
            query,
            fields: {
              chunkNumber: n,
              totalChunks: total,
              chunkSize,
              currentChunkSize: end - start,
              totalSize: size,
              identifier: identifier(),
              filename: item.fileName,
              relativePath: item.relativePath,
            },
            blob,
            target,
            signal: chunks.signal,
            onProgress: (loaded) => {
              if (chunks.signal.aborted) return;
              inFlight.set(n, Math.min(loaded, end - start));
              report();
            },
          });
          return;
        } catch (e) {
          if (chunks.signal.aborted || !retryable(e) || attempt >= this.deps.retries) throw e;
          inFlight.delete(n);
          report();
          await this.deps.sleep(this.deps.retryInterval, chunks.signal);
        }
      }
    };

    const lane = async () => {
      while (next < todo.length && !chunks.signal.aborted) {
        const n = todo[next];
        next += 1;
        try {
          await sendOne(n);
        } catch (e) {
          if (!failure && !signal.aborted) failure = e;
          chunks.abort();
          return;
        }
        inFlight.delete(n);
        confirmed += bytesOf(n);
        report();
      }
    };

    try {
      await Promise.all(Array.from({ length: Math.min(this.deps.concurrency, todo.length) }, lane));
    } finally {
      signal.removeEventListener('abort', stop);
    }
    if (signal.aborted) throw new Aborted();
    if (failure) throw failure;
  }

  // ---- outcomes -----------------------------------------------------------------------------

  private raiseConflict(entry: Entry, strategies: UploadConflictRequest['conflictStrategies']): void {
    const { item } = entry;
    this.conflict = {
      itemId: item.id,
      taskId: item.taskId,
      conflictInfo: { fileName: item.fileName },
      conflictStrategies: strategies,
      fileInfo: { fileName: item.fileName },
    };
    // the file goes back to the front of the queue and everything pauses until the answer
    this.queue = [item.id, ...this.queue.filter((q) => q !== item.id)];
    this.globallyPaused = true;
    for (const e of this.entries) {
      if (ACTIVE.has(e.item.status)) this.patch(e, { status: UploadStatus.Paused, speed: 0 });
    }
    this.patch(entry, { msg: UPLOAD_TEXT.conflict, strategy: null });
    this.changed();
  }

  private skip(entry: Entry): void {
    this.queue = this.queue.filter((q) => q !== entry.item.id);
    this.deps.tasks.remove(entry.item.taskId);
    this.patch(entry, {
      status: UploadStatus.Success,
      completed: true,
      error: false,
      msg: UPLOAD_TEXT.skipped,
      speed: 0,
      strategy: null,
      uploadTime: this.deps.now(),
    });
    this.changed();
  }

  private succeed(entry: Entry, fileId: string, msg: string): void {
    this.deps.tasks.remove(entry.item.taskId);
    this.patch(entry, {
      status: UploadStatus.Success,
      completed: true,
      error: false,
      msg,
      fileId,
      speed: 0,
      mathPro: 100,
      uploadedSize: entry.item.size,
      isMD5Compute: false,
      uploadTime: this.deps.now(),
    });
    this.succeeded.push(entry);
    this.changed();
  }

  private fail(entry: Entry, message: string): void {
    this.patch(entry, { status: UploadStatus.Error, error: true, msg: message, speed: 0, isMD5Compute: false });
    this.changed();
  }

  // ---- state --------------------------------------------------------------------------------

  private patch(entry: Entry, changes: Partial<UploadItem>): void {
    entry.item = { ...entry.item, ...changes };
  }

  /** Whether progress alone may reach the panel now (at most every PROGRESS_SHOWN_EVERY_MS). */
  private progressDue(): boolean {
    const now = this.deps.now();
    if (now - this.progressShownAt < PROGRESS_SHOWN_EVERY_MS) return false;
    this.progressShownAt = now;
    return true;
  }

  /** What a file's task asks for of its chunk size: larger chunks for a large file, else nothing (the options' size). */
  private wishedChunkSize(size: number, optionsChunkSize: number): { chunkSize?: number } {
    const { from, size: large } = this.deps.largeChunks;
    return size >= from && large > optionsChunkSize ? { chunkSize: large } : {};
  }

  private changed(): void {
    this.snapshot = null;
    for (const listener of [...this.listeners]) listener();
  }
}
