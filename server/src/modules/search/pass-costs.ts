// SQLite name search: what the two ways of a pass cost on this machine, learnt from the passes
// this instance runs. The fitted costs (service.ts, COST) hold on the machine they were timed
// on; elsewhere, reading an item by id and stepping an index entry differ in other proportions
// (a token candidate cost as much as 18 range entries on the machine of an earlier fit, 8 on
// that of the present one), and a plan chosen by costs fitted elsewhere can take twice as long
// as the other way. A pass whose work is known (it walked its whole range, or read every
// candidate of its keyword, below the count limit) gives the ratio of its time to the model's;
// each way's costs are scaled by the median of its last PASS_WINDOW ratios. Kept in memory: it
// steers the plan only, never what a search finds, and a restart or another instance starts
// again from the fitted costs.

export type PassWay = 'range' | 'keyword';

/** How much each way's fitted costs are scaled by on this instance. */
export interface PassFactors {
  range: number;
  keyword: number;
}

export const FITTED: PassFactors = { range: 1, keyword: 1 };

/** The ratios kept for each way: a median of this many outlasts a few passes slowed by the machine. */
export const PASS_WINDOW = 25;
/** Passes the model puts below this (µs) teach nothing: their fixed costs would outweigh the work. */
const MIN_MODEL_US = 2_000;
/** A factor stays within these: one way can seem at most 16 times dearer than the fit says. */
const FACTOR_MIN = 0.25;
const FACTOR_MAX = 4;

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export class PassCosts {
  private readonly ratios: Record<PassWay, number[]> = { range: [], keyword: [] };
  private readonly minModelUs: number;

  /** tests: `minModelUs` 0 learns from the small passes of a small database */
  constructor(o: { minModelUs?: number } = {}) {
    this.minModelUs = o.minModelUs ?? MIN_MODEL_US;
  }

  /** A pass of `way` the model put at `modelUs` took `tookMs`. */
  observe(way: PassWay, modelUs: number, tookMs: number): void {
    if (!Number.isFinite(modelUs) || !Number.isFinite(tookMs) || modelUs <= 0 || modelUs < this.minModelUs || tookMs < 0) return;
    const list = this.ratios[way];
    list.push((tookMs * 1000) / modelUs);
    if (list.length > PASS_WINDOW) list.shift();
  }

  /** How many passes of `way` are kept. */
  seen(way: PassWay): number {
    return this.ratios[way].length;
  }

  factors(): PassFactors {
    return { range: this.factor('range'), keyword: this.factor('keyword') };
  }

  private factor(way: PassWay): number {
    const list = this.ratios[way];
    if (!list.length) return FITTED[way];
    return Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, median(list)));
  }
}
