// Zip tasks of 云文档 (folder and multi-item downloads). A task lives in memory for minutes: it
// waits in a queue, is built in the background into `<dir>/<taskId>.zip.part` (renamed to
// `.zip` when complete), then stays downloadable by its owner until it expires. A restart
// forgets every task (the client asks again) and the folder is emptied at start-up.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildZip, type ZipBuild, type ZipEntry } from './zip';

export type TaskState = 'queued' | 'running' | 'ready' | 'failed';

export interface ZipTask {
  readonly id: string;
  /** who may fetch it: `u:<user id>`, or `s:<share id>` for a share's visitors */
  readonly owner: string;
  /** the name the archive is saved under (`….zip`) */
  readonly fileName: string;
  readonly entries: readonly ZipEntry[];
  readonly totalBytes: number;
  state: TaskState;
  processedBytes: number;
  createdAt: number;
  /** when the task became ready or failed */
  finishedAt: number | null;
  /** the complete archive (ready tasks) */
  file: string | null;
  size: number;
  /** why it failed, in Chinese */
  error: string | null;
  build: ZipBuild | null;
}

export interface ZipTaskOptions {
  /** archives built at the same time, all users together */
  maxRunning: number;
  /** archives built at the same time for one user (the others wait) */
  maxRunningPerUser: number;
  /** tasks one user may have queued or running */
  maxPendingPerUser: number;
  /** a ready or failed task is forgotten (and its file deleted) this long after it finished */
  ttlMs: number;
  /** how often expired tasks are swept */
  sweepIntervalMs: number;
  /** write every entry in ZIP64 format (yazl uses ZIP64 by itself when sizes need it) */
  forceZip64Format: boolean;
}

export const DEFAULT_TASK_OPTIONS: ZipTaskOptions = {
  maxRunning: 2,
  maxRunningPerUser: 1,
  maxPendingPerUser: 5,
  ttlMs: 60 * 60 * 1000,
  sweepIntervalMs: 60 * 1000,
  forceZip64Format: false,
};

export const BUILD_FAILED = '打包失败，部分文件可能已被删除，请重新下载';

export class ZipTasks {
  readonly options: ZipTaskOptions;
  private readonly tasks = new Map<string, ZipTask>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  /** `dir` is `$DATA_DIR/tmp/zips`; whatever a previous run left there is removed now. */
  constructor(
    readonly dir: string,
    options: Partial<ZipTaskOptions> = {},
    /** where build failures are reported (the app's logger once the routes are registered) */
    public log: (err: unknown, message: string) => void = () => undefined,
  ) {
    this.options = { ...DEFAULT_TASK_OPTIONS, ...options };
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  }

  /** Tasks of an owner that are queued or running. */
  pendingOf(owner: string): number {
    let n = 0;
    for (const t of this.tasks.values()) if (t.owner === owner && (t.state === 'queued' || t.state === 'running')) n++;
    return n;
  }

  /** Queues a new archive; the caller has checked the user's rights and the limits. */
  create(owner: string, fileName: string, entries: readonly ZipEntry[]): ZipTask {
    if (this.closed) throw new Error('zip tasks closed');
    const totalBytes = entries.reduce((sum, e) => sum + (e.kind === 'file' && e.source !== null ? e.size : 0), 0);
    const task: ZipTask = {
      id: crypto.randomBytes(16).toString('hex'),
      owner,
      fileName,
      entries,
      totalBytes,
      state: 'queued',
      processedBytes: 0,
      createdAt: Date.now(),
      finishedAt: null,
      file: null,
      size: 0,
      error: null,
      build: null,
    };
    this.tasks.set(task.id, task);
    this.startTimer();
    this.pump();
    return task;
  }

  /** The user's own task, or undefined (another user's task does not exist for them). */
  get(owner: string, id: string): ZipTask | undefined {
    const task = this.tasks.get(id);
    if (!task || task.owner !== owner) return undefined;
    if (this.expired(task, Date.now())) {
      this.forget(task);
      return undefined;
    }
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

  /** Forgets finished tasks older than the time to live and deletes their files. */
  sweep(now: number = Date.now()): void {
    for (const task of [...this.tasks.values()]) if (this.expired(task, now)) this.forget(task);
  }

  private forget(task: ZipTask): void {
    this.tasks.delete(task.id);
    task.build?.abort();
    task.build = null;
    for (const file of [this.partPath(task), this.readyPath(task)]) fs.rm(file, { force: true }, () => undefined);
    if (!this.tasks.size) this.stopTimer();
  }

  private partPath(task: ZipTask) {
    return path.join(this.dir, `${task.id}.zip.part`);
  }

  private readyPath(task: ZipTask) {
    return path.join(this.dir, `${task.id}.zip`);
  }

  /** Starts queued tasks, oldest first, as far as the limits allow. */
  private pump(): void {
    if (this.closed) return;
    const running = new Map<string, number>();
    let total = 0;
    for (const t of this.tasks.values()) {
      if (t.state !== 'running') continue;
      total++;
      running.set(t.owner, (running.get(t.owner) ?? 0) + 1);
    }
    for (const t of this.tasks.values()) {
      if (total >= this.options.maxRunning) return;
      if (t.state !== 'queued' || (running.get(t.owner) ?? 0) >= this.options.maxRunningPerUser) continue;
      total++;
      running.set(t.owner, (running.get(t.owner) ?? 0) + 1);
      this.run(t);
    }
  }

  private run(task: ZipTask): void {
    task.state = 'running';
    const part = this.partPath(task);
    fs.mkdirSync(this.dir, { recursive: true });
    const build = buildZip(task.entries, part, (n) => (task.processedBytes += n), { forceZip64Format: this.options.forceZip64Format });
    task.build = build;
    build.done
      .then(async (size) => {
        if (!this.tasks.has(task.id)) return;
        await fs.promises.rename(part, this.readyPath(task));
        task.file = this.readyPath(task);
        task.size = size;
        task.state = 'ready';
      })
      .catch((err: unknown) => {
        if (!this.tasks.has(task.id)) return; // forgotten meanwhile: nothing to report
        this.log(err, '云文档打包下载失败');
        task.state = 'failed';
        task.error = BUILD_FAILED;
        fs.rm(part, { force: true }, () => undefined);
      })
      .finally(() => {
        task.build = null;
        if (task.state === 'running') task.state = 'failed';
        task.finishedAt = Date.now();
        this.pump();
      });
  }

  private startTimer() {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.sweep(), this.options.sweepIntervalMs);
    this.timer.unref();
  }

  private stopTimer() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops every build and removes every archive (the server is closing). */
  close(): void {
    this.closed = true;
    this.stopTimer();
    for (const task of [...this.tasks.values()]) this.forget(task);
  }
}
