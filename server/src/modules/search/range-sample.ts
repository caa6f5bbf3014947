// SQLite: how many items a filter's range of an index holds (a span of days in items_updated, a
// folder's subtree in items_id_path), estimated from a random sample of the items instead of
// counted in the index: counting a year of a million items costs 10–20 ms, as much as the
// search it helps to plan. The sample (SAMPLE_SIZE rows' updated_at and id_path, sorted) is
// kept for SAMPLE_TTL_MS, or until the items have grown by a tenth; it only steers which index
// drives a name search, never what the search finds. Below SAMPLE_FROM_ITEMS items a range is
// counted, which costs little there.
// The same sample holds the rows' name keys: how many names hold a common keyword is estimated
// from it too (namesHolding), where counting it in the name indexes walks the keyword's whole
// list (5–9 ms for a letter held by a third of a million names, 3–4 ms for the 16,000
// candidates of `minutes`); a keyword too rare for the sample to tell is counted, which costs
// little because it is rare. Which piece of an extension narrows a keyword's names at least cost
// is read from the sampled names too (narrowingPiece), once per sample.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/types';
import type { IndexedRanges } from './filters';
import { narrowingPiece } from './names';

const SAMPLE_SIZE = 4096;
const SAMPLE_TTL_MS = 10 * 60_000;
/** Fewer items than this (by the highest id): ranges are counted, up to the limit asked. */
export const SAMPLE_FROM_ITEMS = 50_000;
/**
 * A keyword held by at least this many of the sampled names is estimated from the sample (its
 * spread is then within a fifth of the count, about), one held by fewer is counted: at a million
 * items that is a keyword of about 7,800 names or more.
 */
export const NAME_SAMPLE_MIN_HITS = 32;
/** Extensions whose narrowing piece a sample keeps, at most (each costs a pass over its names). */
const EXTENSIONS_KEPT = 1000;

interface Sample {
  at: number;
  /** the highest item id when it was taken (ids are not reused) */
  maxId: number;
  /** sampled rows' updated_at, ascending */
  updated: number[];
  /** sampled rows' id_path, ascending (digits and slashes: JavaScript's order is SQLite's) */
  paths: string[];
  /** sampled rows' name_key */
  names: string[];
  /** extension -> the piece to narrow names by (narrowingPiece), as asked */
  pieces: Map<string, string | undefined>;
}

/** How many of the sorted `values` lie in [from, to). */
function between<T>(values: readonly T[], from: T, to: T): number {
  const firstAtLeast = (v: T) => {
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return Math.max(0, firstAtLeast(to) - firstAtLeast(from));
}

/** How many items each range holds, exactly up to `limit` + 1 (counted) or about (estimated). */
export interface RangeSizes {
  updated?: number;
  idPath?: number;
}

export class RangeSample {
  private sample: Sample | null = null;
  private taking: Promise<Sample> | null = null;

  private readonly now: () => number;
  private readonly sampleFrom: number;

  constructor(
    private readonly db: Kysely<Database>,
    /** tests: the clock, and the number of items from which ranges are estimated */
    o: { now?: () => number; sampleFrom?: number } = {},
  ) {
    this.now = o.now ?? Date.now;
    this.sampleFrom = o.sampleFrom ?? SAMPLE_FROM_ITEMS;
  }

  /**
   * The sizes of the ranges asked for: estimated from the sample with `maxId` of at least
   * SAMPLE_FROM_ITEMS, else counted in their indexes up to `limit` + 1.
   */
  async sizes(ranges: IndexedRanges, maxId: number, limit: number): Promise<RangeSizes> {
    const out: RangeSizes = {};
    if (maxId < this.sampleFrom) {
      if (ranges.idPath) {
        const { from, to } = ranges.idPath;
        out.idPath = await this.countUpTo(sql`select 1 from items indexed by items_id_path where id_path >= ${from} and id_path < ${to}`, limit + 1);
      }
      if (ranges.updated) {
        const { from, to } = ranges.updated;
        out.updated = await this.countUpTo(
          sql`select 1 from items indexed by items_updated where updated_at >= ${from ?? 0} and updated_at < ${to ?? Number.MAX_SAFE_INTEGER}`,
          limit + 1,
        );
      }
      return out;
    }
    const sample = await this.current(maxId);
    const scale = maxId / SAMPLE_SIZE;
    if (ranges.idPath) out.idPath = Math.round(between(sample.paths, ranges.idPath.from, ranges.idPath.to) * scale);
    if (ranges.updated) {
      const { from, to } = ranges.updated;
      out.updated = Math.round(between(sample.updated, from ?? -Infinity, to ?? Infinity) * scale);
    }
    return out;
  }

  /**
   * About how many names hold `key` (a name key, as items.name_key holds names): estimated from
   * the sample when at least NAME_SAMPLE_MIN_HITS sampled names hold it; null when the keyword is
   * rarer than that, or there are fewer than the sampling threshold of items (count it then).
   */
  async namesHolding(key: string, maxId: number): Promise<number | null> {
    if (maxId < this.sampleFrom || !key) return null;
    const sample = await this.current(maxId);
    let hits = 0;
    for (const name of sample.names) if (name.includes(key)) hits += 1;
    return hits < NAME_SAMPLE_MIN_HITS ? null : Math.round((hits * maxId) / SAMPLE_SIZE);
  }

  /**
   * The piece of `.ext` a 1–2-character keyword's names are narrowed by (narrowingPiece, from
   * the sample): undefined below the sampling threshold of items, or where the default is as good.
   */
  async extensionPiece(ext: string, maxId: number): Promise<string | undefined> {
    if (maxId < this.sampleFrom) return undefined;
    const sample = await this.current(maxId);
    if (!sample.pieces.has(ext)) {
      // extensions asked for by the thousand (made up ones) keep the default: bounded memory and work
      if (sample.pieces.size >= EXTENSIONS_KEPT) return undefined;
      sample.pieces.set(ext, narrowingPiece(ext, sample.names));
    }
    return sample.pieces.get(ext);
  }

  private async countUpTo(query: RawBuilder<unknown>, limit: number): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*) as n from (${query} limit ${limit}) as counted`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** The sample, taken again when it is old or the items have grown by a tenth since. */
  private async current(maxId: number): Promise<Sample> {
    const s = this.sample;
    if (s && this.now() - s.at < SAMPLE_TTL_MS && maxId <= s.maxId * 1.1) return s;
    this.taking ??= this.take(maxId).finally(() => (this.taking = null));
    return this.taking;
  }

  /**
   * SAMPLE_SIZE ids drawn at random up to `maxId` (with replacement); an id no longer there
   * (purged) counts as an item outside every range, as it is in no index.
   */
  private async take(maxId: number): Promise<Sample> {
    const ids = Array.from({ length: SAMPLE_SIZE }, () => 1 + Math.floor(Math.random() * maxId));
    const { rows } = await sql<{ updated_at: number; id_path: string; name_key: string }>`
      select items.updated_at, items.id_path, items.name_key from json_each(${JSON.stringify(ids)}) as pick join items on items.id = pick.value`.execute(this.db);
    const sample: Sample = {
      at: this.now(),
      maxId,
      updated: rows.map((r) => Number(r.updated_at)).sort((a, b) => a - b),
      paths: rows.map((r) => String(r.id_path)).sort(),
      names: rows.map((r) => String(r.name_key)),
      pieces: new Map(),
    };
    this.sample = sample;
    return sample;
  }
}
