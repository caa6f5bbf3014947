// How SQLite's name search picks the index that drives it (walkLimit): the cases timed on the
// 1,000,000 items of bench figure 6, each pass run both ways (ms: walking the date range /
// reading the keyword's index; medians of 5, each on a new connection, the file read through
// its memory map, the range's index holding the scope's columns), must go the faster way.
import { walkLimit } from '../src/modules/search/service';

const ITEMS = 1_001_005;

test.each([
  // keyword, names holding it (the term counts), a 1–2-character token, items in the range, faster way (ms)
  ['工', 35_453, true, 333_948, 'range'], // 33.1 / 47.1
  ['工', 35_453, true, 27_385, 'range'], // 3.1 / 45.4
  ['会议', 24_654, true, 333_948, 'range'], // 35.7 / 43.1
  ['报告', 112_079, true, 333_948, 'range'], // 16.1 / 32.8
  ['月', 105_967, true, 55_006, 'range'], // 8.5 / 89.7
  ['e', 180_995, true, 333_948, 'range'], // 10.9 / 25.9
  ['v2', 15_936, true, 165_112, 'range'], // 13.8 / 30.8
  ['v3', 16_212, true, 820_365, 'keyword'], // 52.9 / 27.4
  ['进度', 6_792, true, 820_365, 'keyword'], // 84.3 / 21.1
  ['minutes', 16_111, false, 333_948, 'range'], // 28.9 / 45.4
  ['minutes', 16_111, false, 27_385, 'range'], // 2.3 / 41.4
  ['2024', 150_252, false, 333_948, 'range'], // 12.1 / 46.0
  ['report', 15_964, false, 82_808, 'range'], // 6.7 / 40.6
  ['draft', 15_796, false, 6_380, 'range'], // 0.6 / 38.2
  ['todo', 16_184, false, 820_365, 'keyword'], // 56.2 / 35.8
  ['计划总结', 137, false, 333_948, 'keyword'], // 30.9 / 1.4
] as const)('%s, held by %i names (one token: %s), with a range of %i items: the %s drives', (_keyword, names, token, range, faster) => {
  expect(range <= walkLimit(names, ITEMS, token) ? 'range' : 'keyword').toBe(faster);
});

test('a keyword in no name never walks a range; a rarer keyword walks narrower ranges; no range beyond 400,000 items', () => {
  expect(walkLimit(0, ITEMS, true)).toBe(0);
  const limits = [10, 100, 1_000, 10_000, 100_000].map((n) => walkLimit(n, ITEMS, false));
  expect(limits).toEqual([...limits].sort((a, b) => a - b));
  expect(limits[0]).toBeLessThan(1_000);
  expect(walkLimit(ITEMS, ITEMS, false)).toBe(400_000);
  expect(walkLimit(ITEMS, ITEMS, true)).toBeGreaterThan(100_000);
  // a trigram candidate costs more to check than a token's: the same count walks wider ranges
  expect(walkLimit(20_000, ITEMS, false)).toBeGreaterThan(walkLimit(20_000, ITEMS, true));
});
