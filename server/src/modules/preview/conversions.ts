// What 云文档's preview makes of a content (docs/integration.md, "Preview"): the PDF of an
// office document (LibreOffice), a picture's thumbnail and its scaled view (sharp). Each is
// made once per content (MD5 and size), so the second view, and every user after the first,
// gets the same file at once. A request queues a job in the database; the workers of any
// instance lease it (a job whose lease ran out, after a crash, is taken up again), at most a
// kind's `workers` at a time, make the result in a temporary local folder (LibreOffice and sharp
// need paths) and write it to the object store as `previews/<kind>/<md5>-<size>.<ext>`, so every
// instance serves what any of them made. A failure is remembered for FAILURE_RETRY_MS, then
// tried again.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { ObjectStore } from '../storage/store';
import type { BlobStore } from '../versions/blobs';
import { ConversionError } from './converter';

/** A failed job is not tried again for this long (a corrupt file stays corrupt). */
export const FAILURE_RETRY_MS = 10 * 60 * 1000;
/** A job interrupted this many times (its instance stopped mid-run) fails. */
const MAX_ATTEMPTS = 3;

/** Keys of preview outputs in the object store: `previews/<kind>/<md5>-<size>.<ext>`. */
export const PREVIEW_PREFIX = 'previews/';

/**
 * The object key of a row's `output`. Rows written before the outputs moved to the object store
 * hold the path under `$DATA_DIR/previews` (`thumb/<md5>-<size>.webp`): with the local store, whose
 * root is $DATA_DIR, `previews/` + that path is the same file, so they keep working.
 */
export function outputKey(output: string): string {
  const key = output.replace(/\\/g, '/');
  return key.startsWith(PREVIEW_PREFIX) ? key : PREVIEW_PREFIX + key;
}

export type DerivedKind = 'pdf' | 'thumb' | 'view';

/** How one kind is made. */
export interface Maker {
  available: boolean;
  /** jobs of this kind at a time in this instance */
  workers: number;
  /** the extension of what it makes */
  output: string;
  /** the lease of a job: longer than a run may take */
  leaseMs: number;
  /** makes `target` from the content in `source` (a file of type `extension`); throws ConversionError with the reason */
  make(source: string, extension: string, target: string): Promise<void>;
}

/** The content something is made of. */
export interface ConversionSource {
  blobId: number;
  md5: string;
  size: number;
  extension: string;
}

export type ConversionState =
  | { status: 'ready'; /** the object key */ key: string; bytes: number; finishedAt: number }
  | { status: 'converting' }
  | { status: 'failed'; message: string };

type Job = { content_key: string; kind: DerivedKind; blob_id: number; extension: string; attempts: number };

/** The MD5 and size a key (`kind:md5-size`) names, or null for a key of another shape. */
function contentOf(key: string): { md5: string; size: number } | null {
  const m = /^[a-z]+:([0-9a-f]{32})-(\d+)$/.exec(key);
  return m ? { md5: m[1], size: Number(m[2]) } : null;
}

function chunks<T>(list: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += n) out.push(list.slice(i, i + n));
  return out;
}

export class PreviewConversions {
  private readonly running: Record<DerivedKind, number> = { pdf: 0, thumb: 0, view: 0 };
  private stopped = false;
  private readonly active = new Set<Promise<void>>();
  /** a job of this instance ended (its key): a waiting request looks at once */
  private readonly ended = new EventEmitter().setMaxListeners(0);
  /** where job errors are reported (the server's log) */
  onError: (err: unknown) => void = () => undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly blobs: BlobStore,
    readonly makers: Record<DerivedKind, Maker>,
    /** where the outputs are kept (`previews/<kind>/…`) */
    readonly store: ObjectStore,
    /** a local folder for the runs (each in a temporary folder of its own, removed afterwards) */
    private readonly workDir: string,
  ) {}

  static keyOf(kind: DerivedKind, source: Pick<ConversionSource, 'md5' | 'size'>): string {
    return `${kind}:${source.md5}-${source.size}`;
  }

  /** Queues what `kind` makes of the content unless it is made, queued, being made, or failed a short while ago. */
  async request(kind: DerivedKind, source: ConversionSource, now = Date.now()): Promise<void> {
    const key = PreviewConversions.keyOf(kind, source);
    await this.db
      .insertInto('preview_conversions')
      .values({ content_key: key, kind, blob_id: source.blobId, extension: source.extension, status: 'queued', requested_at: now })
      .onConflict((oc) => oc.column('content_key').doNothing())
      .execute();
    // a failure long enough ago, or a result whose file is gone, is made again
    await this.db
      .updateTable('preview_conversions')
      .set({ status: 'queued', blob_id: source.blobId, extension: source.extension, attempts: 0, lease_until: 0, requested_at: now })
      .where('content_key', '=', key)
      .where((eb) => eb.and([eb('status', '=', 'failed'), eb('finished_at', '<', now - FAILURE_RETRY_MS)]))
      .execute();
  }

  /** How it stands; queues it (and starts the workers) when nobody asked for it yet. */
  async state(kind: DerivedKind, source: ConversionSource): Promise<ConversionState> {
    const key = PreviewConversions.keyOf(kind, source);
    let row = await this.db.selectFrom('preview_conversions').selectAll().where('content_key', '=', key).executeTakeFirst();
    const now = Date.now();
    if (row?.status === 'done') {
      const objectKey = outputKey(row.output);
      const stat = row.output ? await this.store.stat(objectKey) : null;
      if (stat) return { status: 'ready', key: objectKey, bytes: stat.size, finishedAt: Number(row.finished_at) };
      // the stored result was removed: made again
      await this.db.updateTable('preview_conversions').set({ status: 'failed', finished_at: 0 }).where('content_key', '=', key).execute();
      row = undefined;
    }
    if (!row || (row.status === 'failed' && Number(row.finished_at) < now - FAILURE_RETRY_MS)) {
      await this.request(kind, source, now);
      void this.drain().catch((err: unknown) => this.onError(err));
      return { status: 'converting' };
    }
    if (row.status === 'failed') return { status: 'failed', message: row.error || '处理失败' };
    return { status: 'converting' };
  }

  /** Waits (up to `ms`) for a job under way to end: the view that starts it gets the result without asking again. */
  async settle(kind: DerivedKind, source: ConversionSource, ms: number): Promise<ConversionState> {
    const key = PreviewConversions.keyOf(kind, source);
    const until = Date.now() + ms;
    for (;;) {
      const state = await this.state(kind, source);
      if (state.status !== 'converting' || Date.now() >= until || this.stopped) return state;
      // the end of a job here wakes us at once; one in another instance is seen within 200 ms
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.ended.off(key, done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(200, Math.max(0, until - Date.now())));
        this.ended.on(key, done);
      });
    }
  }

  /** Claims queued jobs and runs them, while this instance has free workers for their kind. */
  async drain(): Promise<void> {
    for (const kind of Object.keys(this.makers) as DerivedKind[]) {
      const maker = this.makers[kind];
      while (!this.stopped && maker.available && this.running[kind] < maker.workers) {
        const job = await this.claim(kind, maker);
        if (!job) break;
        this.running[kind]++;
        const run: Promise<void> = this.run(job, maker)
          .catch((err: unknown) => this.onError(err))
          .finally(() => {
            this.running[kind]--;
            this.active.delete(run);
            // the next job, if any
            if (!this.stopped) void this.drain().catch((err: unknown) => this.onError(err));
          });
        this.active.add(run);
      }
    }
  }

  /**
   * Removes what was made of contents no file holds any more (their blobs are gone): the rows
   * and their objects (PDFs and pictures), in batches of `batch`, so the disk does not keep previews
   * nobody can open. Queued and running jobs are left alone. Safe in several instances at once
   * (each removal is idempotent); a content uploaded again is simply made again on its next view.
   * Returns how many results it removed.
   */
  async sweep(batch = 500): Promise<number> {
    let after = '';
    let removed = 0;
    while (!this.stopped) {
      const rows = await this.db
        .selectFrom('preview_conversions')
        .select('content_key')
        .where('content_key', '>', after)
        .where('status', 'in', ['done', 'failed'])
        .orderBy('content_key')
        .limit(batch)
        .execute();
      if (!rows.length) break;
      after = rows[rows.length - 1].content_key;
      const made = rows.flatMap((r) => {
        const content = contentOf(r.content_key);
        return content ? [{ key: r.content_key, ...content }] : [];
      });
      const live = new Set<string>();
      for (const md5s of chunks([...new Set(made.map((c) => c.md5))], 200)) {
        const found = await this.db.selectFrom('blobs').select(['md5', 'size']).where('md5', 'in', md5s).execute();
        for (const b of found) live.add(`${b.md5}-${Number(b.size)}`);
      }
      const gone = made.filter((c) => !live.has(`${c.md5}-${c.size}`));
      if (!gone.length) continue;
      const deleted = await this.db
        .deleteFrom('preview_conversions')
        .where(
          'content_key',
          'in',
          gone.map((c) => c.key),
        )
        .where('status', 'in', ['done', 'failed'])
        .returning(['output'])
        .execute();
      const objects = deleted.filter((d) => d.output).map((d) => outputKey(d.output));
      if (objects.length) await this.store.delete(objects);
      removed += deleted.length;
    }
    return removed;
  }

  /** Stops claiming and waits for the jobs under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.active]);
  }

  private async claim(kind: DerivedKind, maker: Maker): Promise<Job | undefined> {
    const now = Date.now();
    const due = (eb: any) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]);
    const next = this.db.selectFrom('preview_conversions').select('content_key').where('kind', '=', kind).where(due).orderBy('requested_at').limit(1);
    const row = await this.db
      .updateTable('preview_conversions')
      .set({ status: 'running', lease_until: now + maker.leaseMs, attempts: sql<number>`attempts + 1` })
      .where('content_key', '=', next)
      .where(due)
      .returning(['content_key', 'kind', 'blob_id', 'extension', 'attempts'])
      .executeTakeFirst();
    return row ? { ...row, blob_id: Number(row.blob_id), attempts: Number(row.attempts) } : undefined;
  }

  private async finish(key: string, set: { status: 'done' | 'failed'; error?: string; output?: string; bytes?: number }): Promise<void> {
    await this.db
      .updateTable('preview_conversions')
      .set({ ...set, error: set.error ?? '', lease_until: 0, finished_at: Date.now() })
      .where('content_key', '=', key)
      .where('status', '=', 'running')
      .execute();
    this.ended.emit(key);
  }

  private async run(job: Job, maker: Maker): Promise<void> {
    if (job.attempts > MAX_ATTEMPTS) {
      await this.finish(job.content_key, { status: 'failed', error: '处理多次中断，请稍后重试' });
      return;
    }
    const blob = await this.db.selectFrom('blobs').select('storage_key').where('id', '=', job.blob_id).executeTakeFirst();
    if (!blob) {
      await this.finish(job.content_key, { status: 'failed', error: '文件内容已不存在' });
      return;
    }
    const output = `${PREVIEW_PREFIX}${job.kind}/${job.content_key.slice(job.kind.length + 1)}.${maker.output}`;
    let work: string | null = null;
    try {
      await fs.promises.mkdir(this.workDir, { recursive: true });
      work = await fs.promises.mkdtemp(path.join(this.workDir, `${job.kind}-`));
      const target = path.join(work, `output.${maker.output}`);
      await this.blobs.withFile(blob.storage_key, (file) => maker.make(file, job.extension, target));
      const { size } = await fs.promises.stat(target);
      // the same content always makes the same key: a second write (a lease taken over) only replaces it
      await this.store.put(output, fs.createReadStream(target), size);
      await this.finish(job.content_key, { status: 'done', output, bytes: size });
    } catch (err) {
      await this.finish(job.content_key, { status: 'failed', error: err instanceof ConversionError ? err.message : '处理失败，请稍后重试' });
      if (!(err instanceof ConversionError)) throw err;
    } finally {
      if (work) await fs.promises.rm(work, { recursive: true, force: true });
    }
  }
}
