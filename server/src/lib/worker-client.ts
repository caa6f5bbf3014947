// One worker thread of 云文档, started on first use from its source (CommonJS evaluated as is)
// and never keeping the process alive when idle: questions go with an id and their answers
// ({ id, result } or { id, error }) settle them; a worker that dies rejects what waits and the
// next question starts a new one.
import { Worker } from 'node:worker_threads';

export class WorkerClient<R> {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve(value: R): void; reject(error: Error): void }>();
  private lastId = 0;

  /** `name` is said when the worker stops with questions waiting. */
  constructor(
    private readonly source: string,
    private readonly name: string,
    private readonly workerData?: unknown,
  ) {}

  get running(): boolean {
    return this.worker !== null;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.source, { eval: true, workerData: this.workerData });
    // an idle worker must not keep the process alive
    worker.unref();
    worker.on('message', (m: { id: number; result?: R; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result as R);
    });
    const lost = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.rejectAll(err);
    };
    worker.on('error', lost);
    worker.on('exit', () => lost(new Error(`${this.name} stopped`)));
    this.worker = worker;
    return worker;
  }

  private rejectAll(err: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(err);
  }

  /** Asks and waits for the answer. */
  ask(message: Record<string, unknown>): Promise<R> {
    const worker = this.start();
    const id = ++this.lastId;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  /** Tells without waiting; to a worker not running only when `start`. */
  tell(message: Record<string, unknown>, start: boolean): void {
    if (start || this.worker) this.start().postMessage(message);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
    this.rejectAll(new Error(`${this.name} stopped`));
  }
}
