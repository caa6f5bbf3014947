// How SQLite's name search picks the index that drives it (walkLimit): the cases timed on the
// 1,000,000 items of bench figure 6, each pass run both ways (ms: walking the date range /
// reading the keyword's index; medians of 5 on one connection, the file read through its memory
// map, the range's index holding the scope's columns, the matches counted and sorted in the
// database as the service does), must go the faster way.
import { walkLimit } from '../src/modules/search/service';

const ITEMS = 1_001_005;

test.each([
  // keyword, names its index gives (nameCount), a 1–2-character token, items in the range, faster way (ms)
  ['工', 35_418, true, 333_645, 'keyword'], // 365 days: 43.4 / 32.6
  ['工', 35_418, true, 110_045, 'range'], // 120 days: 14.9 / 33.5
  ['工', 35_418, true, 27_506, 'range'], // 30 days: 4.4 / 35.2
  ['会议', 24_628, true, 333_645, 'keyword'], // 365 days: 50.3 / 20.3
  ['报告', 111_977, true, 333_645, 'range'], // 365 days: 16.8 / 25.8
  ['统计', 13_751, true, 333_645, 'keyword'], // 365 days: 48.1 / 16.1
  ['月', 105_959, true, 55_024, 'range'], // 60 days: 10.0 / 77.7
  ['e', 180_995, true, 333_645, 'range'], // 365 days: 10.3 / 21.7
  ['v2', 15_936, true, 333_645, 'keyword'], // 365 days: 40.1 / 17.8
  ['v2', 15_936, true, 165_886, 'keyword'], // 181 days: 20.1 / 17.5
  ['v3', 16_212, true, 817_999, 'keyword'], // 898 days: 71.8 / 16.5
  ['进度', 6_789, true, 817_999, 'keyword'], // 898 days: 116.5 / 7.8
  ['minutes', 16_111, false, 333_645, 'keyword'], // 365 days: 39.2 / 23.6
  ['minutes', 16_111, false, 27_506, 'range'], // 30 days: 3.0 / 22.3
  ['draft', 15_796, false, 333_645, 'keyword'], // 365 days: 47.7 / 21.9
  ['draft', 15_796, false, 6_460, 'range'], // 7 days: 0.9 / 20.0
  ['2024', 50_000, false, 333_645, 'range'], // 365 days: 13.3 / 29.7 (150,434 names, counted up to 50,000)
  ['report', 15_964, false, 83_644, 'range'], // 91 days: 9.7 / 22.4
  ['todo', 16_184, false, 817_999, 'keyword'], // 898 days: 80.1 / 20.0
  ['计划总结', 137, false, 333_645, 'keyword'], // 365 days: 45.6 / 0.4
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

test('costs learnt on another machine move the plan: dearer items walk wider ranges, a dearer walk takes the keyword sooner', () => {
  // a year of 工 (keyword faster where the costs were fitted) walks where reading an item costs twice as much
  expect(333_645 <= walkLimit(35_418, ITEMS, true)).toBe(false);
  expect(333_645 <= walkLimit(35_418, ITEMS, true, { range: 1, keyword: 2 })).toBe(true);
  // a year of 报告 (walked where fitted) takes the keyword where walking costs three times as much
  expect(333_645 <= walkLimit(111_977, ITEMS, true)).toBe(true);
  expect(333_645 <= walkLimit(111_977, ITEMS, true, { range: 3, keyword: 1 })).toBe(false);
  // only the proportion of the two matters, and the limit grows with the keyword's cost
  expect(walkLimit(20_000, ITEMS, false, { range: 2, keyword: 2 })).toBe(walkLimit(20_000, ITEMS, false));
  const limits = [0.25, 0.5, 1, 2, 4].map((keyword) => walkLimit(20_000, ITEMS, false, { range: 1, keyword }));
  expect(limits).toEqual([...limits].sort((a, b) => a - b));
  expect(limits[0]).toBeLessThan(limits[4]);
});
