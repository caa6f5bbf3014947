// The full-text index of 云文档 (docs/integration.md, "Search"): jobs queued by a trigger for
// every new master version are claimed with a lease in the database (so a restart or a second
// instance picks up what was left), the text is extracted off the request path, and stored in
// item_texts, which the database indexes (SQLite FTS5 by triggers, PostgreSQL pg_trgm).
// A file that fails to parse is recorded (status failed, with the reason) and skipped.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { BlobStore } from '../versions/blobs';
import { findMaster } from '../versions/repository';
import { extractForSearch, searchable, SOURCE_LIMIT } from './extract';

const LEASE_MS = 5 * 60 * 1000;
/** Jobs claimed at once by one instance. */
const BATCH = 4;
/** A job that failed this often for reasons outside the file (disk, database) is given up. */
const ATTEMPTS_MAX = 5;

export interface IndexStats {
  queued: number;
  done: number;
  failed: number;
  skipped: number;
}

export class ContentIndex {
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly blobs: BlobStore,
    private onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Where errors of single jobs go (the server's log); the job is retried after its lease. */
  reportTo(onError: (err: unknown) => void): void {
    this.onError = onError;
  }

  /** Claims due jobs (a lease each); returns them with the queue time they were claimed at. */
  private async claim(now: number): Promise<{ item_id: number; queued_at: number; attempts: number }[]> {
    const due = await this.db
      .selectFrom('content_jobs')
      .select('item_id')
      .where('lease_until', '<', now)
      .orderBy('queued_at')
      .limit(BATCH)
      .execute();
    if (!due.length) return [];
    return this.db
      .updateTable('content_jobs')
      .set({ lease_until: now + LEASE_MS, attempts: sql`attempts + 1` })
      .where('item_id', 'in', due.map((d) => d.item_id))
      .where('lease_until', '<', now)
      .returning(['item_id', 'queued_at', 'attempts'])
      .execute();
  }

  /** Stores the outcome and ends the job, unless a newer version queued it again meanwhile. */
  private async finish(
    job: { item_id: number; queued_at: number },
    outcome: { blobId: number | null; status: 'done' | 'failed' | 'skipped'; text?: string; truncated?: boolean; error?: string } | null,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('content_jobs').select('queued_at').where('item_id', '=', job.item_id).executeTakeFirst();
      if (!current || Number(current.queued_at) !== Number(job.queued_at)) return;
      await trx.deleteFrom('content_jobs').where('item_id', '=', job.item_id).execute();
      if (outcome === null) {
        await trx.deleteFrom('item_texts').where('item_id', '=', job.item_id).execute();
        return;
      }
      const values = {
        blob_id: outcome.blobId,
        status: outcome.status,
        text: outcome.text ?? '',
        truncated: outcome.truncated ? (1 as const) : (0 as const),
        error: outcome.error ?? '',
        extracted_at: Date.now(),
      };
      await trx
        .insertInto('item_texts')
        .values({ item_id: job.item_id, ...values })
        .onConflict((oc) => oc.column('item_id').doUpdateSet(values))
        .execute();
    });
  }

  private async process(job: { item_id: number; queued_at: number; attempts: number }): Promise<void> {
    const item = await this.db.selectFrom('items').select(['id', 'type', 'extension', 'deleted_at']).where('id', '=', job.item_id).executeTakeFirst();
    // gone, not a file, or of a type without text: nothing to search (an old text goes)
    if (!item || item.type !== 'file' || !searchable(item.extension)) return this.finish(job, null);
    const master = await findMaster(this.db, job.item_id);
    const blobId = master?.blob_id ?? null;
    if (!master || blobId === null) return this.finish(job, { blobId: null, status: 'done', text: '' });
    if (Number(master.size) > SOURCE_LIMIT) return this.finish(job, { blobId, status: 'skipped', error: '文件过大，未提取文字' });
    // the same content was read before (a copy, an earlier upload): its text serves again
    const known = await this.db
      .selectFrom('item_texts')
      .select(['status', 'text', 'truncated', 'error'])
      .where('blob_id', '=', blobId)
      .where('status', '=', 'done')
      .limit(1)
      .executeTakeFirst();
    if (known) return this.finish(job, { blobId, status: 'done', text: known.text, truncated: known.truncated === 1 });
    const blob = await this.db.selectFrom('blobs').select('storage_key').where('id', '=', blobId).executeTakeFirst();
    if (!blob?.storage_key) return this.finish(job, { blobId, status: 'failed', error: '文件内容不存在' });
    let extracted;
    try {
      extracted = await this.blobs.withFile(blob.storage_key, (file) => extractForSearch(file, item.extension));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return this.finish(job, { blobId, status: 'failed', error: `无法读取文字：${reason}`.slice(0, 500) });
    }
    return this.finish(job, { blobId, status: 'done', text: extracted.text, truncated: extracted.truncated });
  }

  private async pass(now: number): Promise<number> {
    let handled = 0;
    while (!this.stopped) {
      const jobs = await this.claim(now);
      if (!jobs.length) return handled;
      for (const job of jobs) {
        // a job left unfinished at a stop is taken up again after its lease
        if (this.stopped) break;
        try {
          await this.process(job);
        } catch (err) {
          this.onError(err);
          // outside the file's fault: retried after the lease, given up after a few tries
          if (job.attempts >= ATTEMPTS_MAX) {
            await this.finish(job, { blobId: null, status: 'failed', error: '多次尝试后仍无法处理' }).catch(this.onError);
          }
        }
        handled++;
      }
      now = Date.now();
    }
    return handled;
  }

  /** Stops after the file being read (for a graceful shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  /** Works through every due job (a pass already running is joined); resolves to how many were handled. */
  drain(now: number = Date.now()): Promise<number> {
    this.running ??= this.pass(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Queues every file again (the rebuild command). */
  async requeueAll(): Promise<number> {
    const now = Date.now();
    const files = await this.db
      .selectFrom('items')
      .select('id')
      .where('type', '=', 'file')
      .where('deleted_at', 'is', null)
      .execute();
    for (let at = 0; at < files.length; at += 500) {
      await this.db
        .insertInto('content_jobs')
        .values(files.slice(at, at + 500).map((f) => ({ item_id: f.id, queued_at: now, lease_until: 0, attempts: 0 })))
        .onConflict((oc) => oc.column('item_id').doUpdateSet({ queued_at: now, lease_until: 0, attempts: 0 }))
        .execute();
    }
    // texts stay searchable meanwhile, but are not reused for files of the same content
    await this.db.updateTable('item_texts').set({ status: 'stale' }).execute();
    return files.length;
  }

  async stats(): Promise<IndexStats> {
    const [queued, texts] = await Promise.all([
      this.db.selectFrom('content_jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      this.db.selectFrom('item_texts').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute(),
    ]);
    const of = (s: string) => Number(texts.find((t) => t.status === s)?.n ?? 0);
    return { queued: Number(queued.n), done: of('done'), failed: of('failed'), skipped: of('skipped') };
  }
}
