// SQLite name search: what the two ways of a pass cost on this machine, learnt from the passes
// this instance runs. The fitted costs (service.ts, COST) hold on the machine they were timed
// on; elsewhere, reading an item by id and stepping an index entry differ in other proportions
// (a token candidate cost as much as 18 range entries on the machine of an earlier fit, 8 on
// that of the present one), and a plan chosen by costs fitted elsewhere can take twice as long
// as the other way. A pass whose work is known (it walked its whole range, or read every
// candidate of its keyword, below the count limit) gives the ratio of its time to the model's;
// each way's costs are scaled by the median of its last PASS_WINDOW ratios, once it has MIN_PASSES
// of them. A way that looks dearer is chosen less, so it is seldom timed again: its ratios expire
// after PASS_TTL_MS, and it goes back to the fitted costs (else a few passes on a cold page cache
// right after a start, or while the machine stalled, would keep it out of use until a restart).
// Kept in memory: it steers the plan only, never what a search finds, and a restart or another
// instance starts again from the fitted costs.

export type PassWay = 'range' | 'keyword';

/** How much each way's fitted costs are scaled by on this instance. */
export interface PassFactors {
  range: number;
  keyword: number;
}

export const FITTED: PassFactors = { range: 1, keyword: 1 };

/** The ratios kept for each way: a median of this many outlasts a few passes slowed by the machine. */
export const PASS_WINDOW = 25;
/** A way is scaled once this many of its passes are kept: one slow pass alone moves nothing. */
export const MIN_PASSES = 5;
/** A pass teaches for this long (a way not chosen since goes back to the fitted costs). */
export const PASS_TTL_MS = 10 * 60_000;
/** Passes the model puts below this (µs) teach nothing: their fixed costs would outweigh the work. */
const MIN_MODEL_US = 2_000;
/**
 * A factor stays within these: one way can seem at most 4 times dearer than the other, against
 * the fit (between the machines the costs were fitted on, a candidate read against an index
 * entry stepped differed by 2.25 times).
 */
const FACTOR_MIN = 0.5;
const FACTOR_MAX = 2;

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export class PassCosts {
  /** each way's kept passes, oldest first: the ratio of time taken to the model's, and when */
  private readonly passes: Record<PassWay, { ratio: number; at: number }[]> = { range: [], keyword: [] };
  private readonly minModelUs: number;
  private readonly now: () => number;

  /** tests: `minModelUs` 0 learns from the small passes of a small database; `now`, the clock */
  constructor(o: { minModelUs?: number; now?: () => number } = {}) {
    this.minModelUs = o.minModelUs ?? MIN_MODEL_US;
    this.now = o.now ?? Date.now;
  }

  /** A pass of `way` the model put at `modelUs` took `tookMs`. */
  observe(way: PassWay, modelUs: number, tookMs: number): void {
    if (!Number.isFinite(modelUs) || !Number.isFinite(tookMs) || modelUs <= 0 || modelUs < this.minModelUs || tookMs < 0) return;
    const list = this.kept(way);
    list.push({ ratio: (tookMs * 1000) / modelUs, at: this.now() });
    if (list.length > PASS_WINDOW) list.shift();
  }

  /** How many passes of `way` are kept (not yet expired). */
  seen(way: PassWay): number {
    return this.kept(way).length;
  }

  /** `way`'s passes younger than PASS_TTL_MS (the older ones dropped). */
  private kept(way: PassWay): { ratio: number; at: number }[] {
    const list = this.passes[way];
    const since = this.now() - PASS_TTL_MS;
    while (list.length && list[0].at <= since) list.shift();
    return list;
  }

  factors(): PassFactors {
    return { range: this.factor('range'), keyword: this.factor('keyword') };
  }

  private factor(way: PassWay): number {
    const list = this.kept(way);
    if (list.length < MIN_PASSES) return FITTED[way];
    return Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, median(list.map((p) => p.ratio))));
  }
}
