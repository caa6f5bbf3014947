// Zip tasks of 云文档 (folder and multi-item downloads), kept in the database (zip_tasks) with
// their archives in the object store (`zips/<taskId>-<attempt>.zip`), so that any instance answers a task's
// status and serves its file, and a restart loses nothing. A task holds a reference on the blob
// of each of its files from its creation until it is forgotten: a file deleted meanwhile is still
// archived, and the archive's object is only its frame (zip.ts, holes), the stored entries being
// read from those blobs as it is sent (archive-source.ts). A task waits queued until an instance
// claims it within the limits (counted over every instance), is built there while its heartbeat
// says it is alive, and stays downloadable by its owner until it expires. A build whose instance
// stopped beating (killed, or closed) is queued again and taken over by another.
import crypto from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { lockKey } from '../../db/locks';
import type { Database, ZipTasksTable } from '../../db/types';
import type { ObjectStore } from '../storage/store';
import { acquireBlobs, releaseBlobs, type BlobStore } from '../versions/blobs';
import { buildZip, type ZipBuild, type ZipEntry, type ZipHole } from './zip';

export type TaskState = ZipTasksTable['state'];

/**
 * An entry as the task keeps it: a blob (its id, storage key and CRC-32 where known) instead of
 * an open source.
 */
export type StoredZipEntry =
  | { kind: 'folder'; path: string; mtimeMs: number }
  | { kind: 'file'; path: string; mtimeMs: number; size: number; storageKey: string | null; blobId?: number | null; crc32?: number | null };

export interface ZipTask {
  readonly id: string;
  /** who may fetch it: `u:<user id>`, or `s:<share id>` for a share's visitors */
  readonly owner: string;
  /** the name the archive is saved under (`….zip`) */
  readonly fileName: string;
  readonly totalBytes: number;
  state: TaskState;
  processedBytes: number;
  createdAt: number;
  /** when the task became ready or failed */
  finishedAt: number | null;
  /** the archive in the store (ready tasks): whole, or its frame when there are holes */
  objectKey: string | null;
  size: number;
  /** the stored entries left out of the frame, read from their blobs (null: the archive is whole) */
  holes: ZipHole[] | null;
  /** why it failed, in Chinese */
  error: string | null;
}

export interface ZipTaskOptions {
  /** archives built at the same time, all users and instances together */
  maxRunning: number;
  /** archives built at the same time for one user (the others wait) */
  maxRunningPerUser: number;
  /** tasks one user may have queued or running */
  maxPendingPerUser: number;
  /** a ready or failed task is forgotten (and its archive deleted) this long after it finished */
  ttlMs: number;
  /** how often this instance looks for queued tasks, beats for its builds and sweeps expired ones */
  sweepIntervalMs: number;
  /** a running task whose heartbeat is older than this is taken over */
  staleMs: number;
  /** a task that lost its instance this many times fails instead */
  maxAttempts: number;
  /** write every entry in ZIP64 format (yazl uses ZIP64 by itself when sizes need it) */
  forceZip64Format: boolean;
}

export const DEFAULT_TASK_OPTIONS: ZipTaskOptions = {
  maxRunning: 2,
  maxRunningPerUser: 1,
  maxPendingPerUser: 5,
  ttlMs: 60 * 60 * 1000,
  sweepIntervalMs: 1000,
  staleMs: 15_000,
  maxAttempts: 3,
  forceZip64Format: false,
};

export const BUILD_FAILED = '打包失败，部分文件的内容无法读取，请重新下载';
const LOST_TOO_OFTEN = '打包多次中断，请重新下载';
const HEARTBEAT_MS = 1000;

/** each attempt writes its own object: a superseded build never touches the one that took over */
const objectKeyOf = (id: string, attempt: number) => `zips/${id}-${attempt}.zip`;

type TaskRow = Selectable<ZipTasksTable>;

function taskOf(r: TaskRow): ZipTask {
  return {
    id: r.id,
    owner: r.owner,
    fileName: r.file_name,
    totalBytes: Number(r.total_bytes),
    state: r.state,
    processedBytes: Number(r.processed_bytes),
    createdAt: Number(r.created_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
    objectKey: r.object_key,
    size: Number(r.size),
    holes: r.holes === null ? null : (JSON.parse(r.holes) as [number, number, string][]).map(([at, size, key]) => ({ at, size, key })),
    error: r.error,
  };
}

/** The blob of each file entry of a task (its references), as the task's row keeps them. */
function blobIdsOf(row: { entries: string }): (number | null)[] {
  return (JSON.parse(row.entries) as StoredZipEntry[]).map((e) => (e.kind === 'file' ? (e.blobId ?? null) : null));
}

export class ZipTasks {
  readonly options: ZipTaskOptions;
  /** this process, as the holder of the tasks it builds */
  readonly instance = crypto.randomBytes(8).toString('hex');
  /** builds of this instance, by task id */
  private readonly building = new Map<string, { build: ZipBuild; processed: number }>();
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly blobs: BlobStore,
    private readonly store: ObjectStore,
    options: Partial<ZipTaskOptions> = {},
    /** where build failures are reported (the app's logger once the routes are registered) */
    public log: (err: unknown, message: string) => void = () => undefined,
  ) {
    this.options = { ...DEFAULT_TASK_OPTIONS, ...options };
  }

  /** Starts looking for queued tasks (and beating for this instance's builds). */
  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => void this.tick(), this.options.sweepIntervalMs);
    this.timer.unref();
    void this.tick();
  }

  private async tick(): Promise<void> {
    try {
      await this.beat();
      await this.sweep();
      await this.pump();
    } catch (err) {
      this.log(err, '云文档打包下载任务调度失败');
    }
  }

  /** Tasks of an owner that are queued or running, on every instance. */
  async pendingOf(owner: string): Promise<number> {
    const r = await this.db
      .selectFrom('zip_tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner', '=', owner)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Queues a new archive, and takes a reference on the blob of each of its files; the caller
   * has checked the user's rights and the limits.
   */
  async create(owner: string, fileName: string, entries: readonly StoredZipEntry[]): Promise<ZipTask> {
    if (this.closed) throw new Error('zip tasks closed');
    const totalBytes = entries.reduce((sum, e) => sum + (e.kind === 'file' && e.storageKey !== null ? e.size : 0), 0);
    const row: TaskRow = {
      id: crypto.randomBytes(16).toString('hex'),
      owner,
      file_name: fileName,
      entries: JSON.stringify(entries),
      total_bytes: totalBytes,
      force_zip64: this.options.forceZip64Format ? 1 : 0,
      state: 'queued',
      processed_bytes: 0,
      holder: null,
      heartbeat_at: null,
      attempts: 0,
      created_at: Date.now(),
      finished_at: null,
      object_key: null,
      size: 0,
      error: null,
      holds_blobs: 1,
      holes: null,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('zip_tasks').values(row).execute();
      await acquireBlobs(trx, blobIdsOf(row));
    });
    this.start();
    await this.pump();
    return taskOf(row);
  }

  /** The owner's own task, or undefined (another owner's task does not exist for them). */
  async get(owner: string, id: string): Promise<ZipTask | undefined> {
    if (!/^[0-9a-f]{32}$/.test(id)) return undefined;
    const row = await this.db.selectFrom('zip_tasks').selectAll().where('id', '=', id).where('owner', '=', owner).executeTakeFirst();
    if (!row) return undefined;
    const task = taskOf(row);
    if (this.expired(task, Date.now())) {
      await this.forget([task]);
      return undefined;
    }
    // this instance's build of it reports its progress before the next heartbeat writes it
    const local = this.building.get(id);
    if (local && task.state === 'running') task.processedBytes = Math.max(task.processedBytes, local.processed);
    return task;
  }

  /** 0–100, 100 only when the archive is complete. */
  percent(task: ZipTask): number {
    if (task.state === 'ready') return 100;
    if (task.totalBytes === 0) return 0;
    return Math.min(99, Math.floor((task.processedBytes / task.totalBytes) * 100));
  }

  private expired(task: ZipTask, now: number): boolean {
    return task.finishedAt !== null && now - task.finishedAt >= this.options.ttlMs;
  }

  /**
   * Forgets finished tasks older than the time to live (rows and archives), and queues again
   * the builds whose instance stopped beating (or fails them after maxAttempts).
   */
  async sweep(now: number = Date.now()): Promise<number> {
    const old = await this.db
      .selectFrom('zip_tasks')
      .selectAll()
      .where('state', 'in', ['ready', 'failed'])
      .where('finished_at', '<=', now - this.options.ttlMs)
      .limit(500)
      .execute();
    if (old.length) await this.forget(old.map(taskOf));
    const stale = now - this.options.staleMs;
    await this.db
      .updateTable('zip_tasks')
      .set({ state: 'failed', error: LOST_TOO_OFTEN, finished_at: now, holder: null })
      .where('state', '=', 'running')
      .where('heartbeat_at', '<', stale)
      .where('attempts', '>=', this.options.maxAttempts)
      .execute();
    await this.db
      .updateTable('zip_tasks')
      .set({ state: 'queued', holder: null, heartbeat_at: null, processed_bytes: 0 })
      .where('state', '=', 'running')
      .where('heartbeat_at', '<', stale)
      .execute();
    return old.length;
  }

  /** Removes the tasks' rows, then their archives, and lets their blobs go (those nothing else holds are removed). */
  private async forget(tasks: ZipTask[]): Promise<void> {
    for (const t of tasks) this.building.get(t.id)?.build.abort();
    const gone: string[] = [];
    for (const t of tasks) {
      // one transaction per task: the instance whose delete took the row lets its blobs go, once
      await this.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('zip_tasks').select(['entries', 'holds_blobs']).where('id', '=', t.id).executeTakeFirst();
        if (!row) return;
        const r = await trx.deleteFrom('zip_tasks').where('id', '=', t.id).executeTakeFirst();
        if (Number(r.numDeletedRows) === 1 && row.holds_blobs === 1) gone.push(...(await releaseBlobs(trx, blobIdsOf(row))));
      });
    }
    // the archive once the row is gone (a build still writing one finds its row gone and removes its own)
    const keys = tasks.map((t) => t.objectKey).filter((k): k is string => !!k);
    if (keys.length) await this.store.delete(keys).catch((err: unknown) => this.log(err, '云文档删除过期的打包文件失败'));
    if (gone.length) await this.blobs.remove(gone).catch((err: unknown) => this.log(err, '云文档删除不再使用的文件内容失败'));
  }

  /** This instance's builds are alive: their heartbeat and progress. A build whose row is gone or taken over stops. */
  private async beat(now = Date.now()): Promise<void> {
    for (const [id, b] of this.building) {
      const r = await this.db
        .updateTable('zip_tasks')
        .set({ heartbeat_at: now, processed_bytes: b.processed })
        .where('id', '=', id)
        .where('holder', '=', this.instance)
        .where('state', '=', 'running')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) b.build.abort();
    }
  }

  /** Claims queued tasks, oldest first, as far as the limits over every instance allow, and builds them here. */
  pump(): Promise<void> {
    if (this.closed) return Promise.resolve();
    // one claim round at a time in this process; a round started meanwhile runs after it
    const run = async () => {
      // the usual answer of the once-a-second look: nothing queued, and no locked transaction taken
      const queued = await this.db.selectFrom('zip_tasks').select('id').where('state', '=', 'queued').limit(1).executeTakeFirst();
      if (!queued) return;
      for (;;) {
        const task = await this.claim();
        if (!task) return;
        this.run(task);
      }
    };
    const next = (this.pumping ?? Promise.resolve()).then(run, run);
    // what the next round waits for: this one settled, its failure reported by whoever awaits
    // `next` (never an unhandled rejection, the database gone under a closing server included)
    const settled: Promise<void> = next.then(
      () => undefined,
      () => undefined,
    );
    this.pumping = settled;
    void settled.then(() => {
      if (this.pumping === settled) this.pumping = null;
    });
    return next;
  }

  private async claim(): Promise<TaskRow | null> {
    if (this.closed) return null;
    const now = Date.now();
    return this.db.transaction().execute(async (trx) => {
      // one claim at a time over every instance, so that the limits hold
      await lockKey(trx, 'zip-task-claim');
      const running = await trx.selectFrom('zip_tasks').select(['owner']).where('state', '=', 'running').execute();
      if (running.length >= this.options.maxRunning) return null;
      const perOwner = new Map<string, number>();
      for (const r of running) perOwner.set(r.owner, (perOwner.get(r.owner) ?? 0) + 1);
      const queued = await trx.selectFrom('zip_tasks').select(['id', 'owner']).where('state', '=', 'queued').orderBy('created_at').orderBy('id').limit(200).execute();
      const pick = queued.find((q) => (perOwner.get(q.owner) ?? 0) < this.options.maxRunningPerUser);
      if (!pick) return null;
      const r = await trx
        .updateTable('zip_tasks')
        .set({ state: 'running', holder: this.instance, heartbeat_at: now, processed_bytes: 0, attempts: sql<number>`attempts + 1` })
        .where('id', '=', pick.id)
        .where('state', '=', 'queued')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return null;
      return (await trx.selectFrom('zip_tasks').selectAll().where('id', '=', pick.id).executeTakeFirst()) ?? null;
    });
  }

  private run(row: TaskRow): void {
    const stored = JSON.parse(row.entries) as StoredZipEntry[];
    const entries: ZipEntry[] = stored.map((e) =>
      e.kind === 'folder'
        ? e
        : {
            kind: 'file',
            path: e.path,
            mtimeMs: e.mtimeMs,
            size: e.size,
            source: e.storageKey ? this.blobs.source(e.storageKey) : null,
            hole: e.storageKey && e.blobId != null ? e.storageKey : undefined,
            crc32: e.crc32 ?? null,
          },
    );
    const key = objectKeyOf(row.id, Number(row.attempts));
    const state = { processed: 0, build: null as unknown as ZipBuild };
    // the blobs of a task that holds them stay until it is forgotten: its archive can lie over them
    const holes = row.holds_blobs === 1;
    state.build = buildZip(entries, (frame) => this.store.put(key, frame), (n) => (state.processed += n), { forceZip64Format: row.force_zip64 === 1, holes });
    this.building.set(row.id, state);
    state.build.done
      .then(async (built) => {
        const r = await this.db
          .updateTable('zip_tasks')
          .set({
            state: 'ready',
            object_key: key,
            size: built.size,
            holes: holes ? JSON.stringify(built.holes.map((h) => [h.at, h.size, h.key])) : null,
            processed_bytes: Number(row.total_bytes),
            finished_at: Date.now(),
            holder: null,
          })
          .where('id', '=', row.id)
          .where('holder', '=', this.instance)
          .where('state', '=', 'running')
          .executeTakeFirst();
        // forgotten or taken over meanwhile: this archive is nobody's
        if (Number(r.numUpdatedRows) !== 1) await this.store.delete([key]).catch(() => undefined);
      })
      .catch(async (err: unknown) => {
        const mine = await this.db
          .selectFrom('zip_tasks')
          .select('id')
          .where('id', '=', row.id)
          .where('holder', '=', this.instance)
          .where('state', '=', 'running')
          .executeTakeFirst()
          .catch(() => undefined);
        if (!mine || this.closed) return; // forgotten, taken over, or this instance is closing: nothing to report
        this.log(err, '云文档打包下载失败');
        await this.db
          .updateTable('zip_tasks')
          .set({ state: 'failed', error: BUILD_FAILED, finished_at: Date.now(), holder: null })
          .where('id', '=', row.id)
          .where('holder', '=', this.instance)
          .execute();
      })
      .catch((err: unknown) => this.log(err, '云文档打包下载任务状态更新失败'))
      .finally(() => {
        this.building.delete(row.id);
        void this.pump().catch((err: unknown) => this.log(err, '云文档打包下载任务调度失败'));
      });
  }

  /** Stops this instance's builds and queues their tasks again for another instance (the server is closing). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const ids = [...this.building.keys()];
    for (const b of this.building.values()) b.build.abort();
    await this.pumping?.catch(() => undefined);
    if (ids.length) {
      await this.db
        .updateTable('zip_tasks')
        .set({ state: 'queued', holder: null, heartbeat_at: null, processed_bytes: 0 })
        .where('id', 'in', ids)
        .where('holder', '=', this.instance)
        .where('state', '=', 'running')
        .execute()
        .catch(() => undefined);
    }
  }
}
