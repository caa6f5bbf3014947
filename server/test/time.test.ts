// 云文档 renders dates as `YYYY-MM-DD HH:mm:ss` in the configured zone (default Asia/Shanghai).
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { createTimeFormatter } from '../src/lib/time';

dayjs.extend(utc);
dayjs.extend(timezone);

test('Asia/Shanghai is UTC+8', () => {
  expect(createTimeFormatter('Asia/Shanghai')(Date.UTC(2025, 0, 5, 16, 30, 5))).toBe('2025-01-06 00:30:05');
  expect(createTimeFormatter('Asia/Shanghai')(null)).toBe('');
});

test.each(['America/New_York', 'Australia/Lord_Howe', 'Europe/Berlin'])('agrees with dayjs across the DST changes of %s', (tz) => {
  const format = createTimeFormatter(tz);
  const start = Date.UTC(2025, 0, 1);
  for (let t = start; t < start + 366 * 24 * 3600 * 1000; t += 17 * 60 * 1000 + 11) {
    const expected = dayjs(t).tz(tz).format('YYYY-MM-DD HH:mm:ss');
    if (format(t) !== expected) expect({ t, got: format(t) }).toEqual({ t, got: expected });
  }
});

test.each(['Asia/Shanghai', 'Asia/Kathmandu', 'Pacific/Apia', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'UTC'])(
  'agrees with dayjs at times spread over 1970–2040 in %s (summer time in 1986–1991 China, a skipped day, half and quarter hours)',
  (tz) => {
    const format = createTimeFormatter(tz);
    const from = Date.UTC(1970, 0, 1);
    const span = Date.UTC(2040, 0, 1) - from;
    // a fixed sequence of times (no two in the same quarter hour, as a search page's items are)
    let seed = 7;
    for (let i = 0; i < 3000; i++) {
      seed = (seed * 48271) % 2147483647;
      const t = from + Math.floor((seed / 2147483647) * span);
      const expected = dayjs(t).tz(tz).format('YYYY-MM-DD HH:mm:ss');
      if (format(t) !== expected) expect({ t, got: format(t) }).toEqual({ t, got: expected });
    }
    // around Samoa's skipped 30 December 2011 and China's last summer time
    for (const t of [Date.UTC(2011, 11, 30, 9, 59, 59), Date.UTC(2011, 11, 30, 10), Date.UTC(1991, 8, 14, 16, 59, 59), Date.UTC(1991, 8, 14, 17)]) {
      expect({ t, got: format(t) }).toEqual({ t, got: dayjs(t).tz(tz).format('YYYY-MM-DD HH:mm:ss') });
    }
  },
);

test('a time that is not a number is written as nothing', () => {
  expect(createTimeFormatter('Asia/Shanghai')(Number.NaN)).toBe('');
  expect(createTimeFormatter('Asia/Shanghai')(undefined)).toBe('');
});
