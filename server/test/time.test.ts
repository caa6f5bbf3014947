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
