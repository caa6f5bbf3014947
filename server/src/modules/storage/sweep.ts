// Orphaned objects: written by a write whose transaction never committed (a crash, a refused
// merge), or left by a delete that did not reach the store. An object older than `minAgeMs`
// under `prefix` that no row claims is removed; younger ones may belong to a transaction still
// running. Returns what it saw and did, for the log and the administrator.
import type { ObjectStore } from './store';

export interface SweepReport {
  /** objects looked at under the prefix */
  seen: number;
  /** removed: old enough and claimed by no row */
  removed: number;
  removedBytes: number;
  /** skipped for being younger than minAgeMs */
  young: number;
  /** the first few removed keys */
  samples: string[];
}

const BATCH = 500;

export async function sweepOrphans(
  store: ObjectStore,
  options: {
    prefix: string;
    minAgeMs: number;
    /** of these keys, the ones a row still holds */
    claimed: (keys: string[]) => Promise<Set<string>>;
    now?: number;
  },
): Promise<SweepReport> {
  const now = options.now ?? Date.now();
  const report: SweepReport = { seen: 0, removed: 0, removedBytes: 0, young: 0, samples: [] };
  let batch: { key: string; size: number }[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const held = await options.claimed(batch.map((o) => o.key));
    const gone = batch.filter((o) => !held.has(o.key));
    if (gone.length) {
      await store.delete(gone.map((o) => o.key));
      report.removed += gone.length;
      for (const o of gone) {
        report.removedBytes += o.size;
        if (report.samples.length < 10) report.samples.push(o.key);
      }
    }
    batch = [];
  };
  for await (const o of store.list(options.prefix)) {
    report.seen += 1;
    if (now - o.modifiedAt < options.minAgeMs) {
      report.young += 1;
      continue;
    }
    batch.push({ key: o.key, size: o.size });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return report;
}
