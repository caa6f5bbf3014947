// How SQLite's name search picks the index that drives it (walkLimit): the cases timed on the
// 1,000,000 items of bench figure 6, each pass run both ways (ms: walking the date range /
// reading the keyword's index), must go the faster way.
import { walkLimit } from '../src/modules/search/service';

const ITEMS = 1_001_005;

test.each([
  // keyword, names holding it (the term counts), a 1–2-character token, items in the range, faster way (ms)
  ['工', 35_453, true, 334_046, 'keyword'], // 99.2 / 67.5
  ['工', 35_453, true, 27_293, 'range'], // 6.8 / 73.5
  ['minutes', 16_111, false, 334_046, 'keyword'], // 80.6 / 63.7
  ['minutes', 16_111, false, 27_293, 'range'], // 6.4 / 71.4
  ['2024', 150_528, false, 334_046, 'range'], // 53.4 / 72.8
  ['e', 180_995, true, 334_046, 'keyword'], // 40.8 / 32.2
  ['draft', 15_796, false, 6_267, 'range'], // 1.4 / 59.9
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
