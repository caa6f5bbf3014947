import { act, renderHook } from '@testing-library/react';
import { firstScreenRows, useFirstScreenFirst } from './firstScreen';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

const FIRST_SCREEN_ROWS = firstScreenRows();

describe('useFirstScreenFirst', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const page = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('draws at least what the window can show', () => {
    expect(FIRST_SCREEN_ROWS * 48).toBeGreaterThanOrEqual(window.innerHeight);
    expect(FIRST_SCREEN_ROWS).toBeLessThan(100);
  });

  it('draws the first screen of a full page at once and the rest after the paint', () => {
    const source = { page: 1 };
    const rows = page(100);
    const { result } = renderHook(() => useFirstScreenFirst(rows, source));
    expect(result.current).toHaveLength(FIRST_SCREEN_ROWS);
    expect(result.current[0]).toBe(0);
    act(() => {
      jest.runAllTimers();
    });
    expect(result.current).toHaveLength(100);
  });

  it('draws a short page whole, and starts again with the first screen for the next page', () => {
    const first = { page: 1 };
    const { result, rerender } = renderHook(({ rows, source }) => useFirstScreenFirst(rows, source), {
      initialProps: { rows: page(10), source: first as object },
    });
    expect(result.current).toHaveLength(10);
    const second = { page: 2 };
    rerender({ rows: page(100), source: second });
    expect(result.current).toHaveLength(FIRST_SCREEN_ROWS);
    act(() => {
      jest.runAllTimers();
    });
    expect(result.current).toHaveLength(100);
    // the same page drawn again (a re-render) stays whole
    rerender({ rows: page(100), source: second });
    expect(result.current).toHaveLength(100);
  });
});
