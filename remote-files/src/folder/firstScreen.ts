// A page of 云文档's folder list holds up to 100 rows, of which a screen shows a dozen or two.
// The first screen's rows are drawn at once and the rest of the page right after the browser
// has painted them, so a full page opens as fast as a short one.
import { startTransition, useEffect, useState } from 'react';

/** Rows drawn before the first paint where the window's height is not known. */
export const FIRST_SCREEN_ROWS = 30;
/** No row of the list is lower than this (antd's middle-size table row is about 55 px). */
const MIN_ROW_HEIGHT = 48;

/** As many rows as the whole window could show, even if the list started at its top. */
export function firstScreenRows(): number {
  if (typeof window === 'undefined' || !window.innerHeight) return FIRST_SCREEN_ROWS;
  return Math.ceil(window.innerHeight / MIN_ROW_HEIGHT);
}

const afterPaint = (run: () => void): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  // the frame callback runs before the paint; the timeout after it
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
};

/**
 * The rows to draw now: the first `first` of `rows` until the page `source` (the loaded
 * page's identity) has been painted, then all of them.
 */
export function useFirstScreenFirst<T>(rows: T[], source: unknown, first = firstScreenRows()): T[] {
  const [complete, setComplete] = useState<unknown>(null);
  const whole = rows.length <= first || complete === source;
  useEffect(() => {
    if (whole) return;
    // a transition: the rest is rendered in slices, the page stays responsive meanwhile
    return afterPaint(() => startTransition(() => setComplete(source)));
  }, [whole, source]);
  return whole ? rows : rows.slice(0, first);
}
