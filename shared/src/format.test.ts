import { formatBytes, formatDate, formatDateTime, formatPayloadDate } from './format';

describe('formatBytes (base 1024)', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [5242880, '5 MB'],
    [5368709120, '5 GB'],
    [1099511627776 * 2.25, '2.25 TB'],
  ])('%p → %p', (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });
  it('handles missing and invalid sizes', () => {
    expect(formatBytes(null)).toBe('0 B');
    expect(formatBytes(Number.NaN)).toBe('0 B');
    expect(formatBytes(-5)).toBe('0 B');
  });
});

describe('dates', () => {
  const d = new Date(2025, 10, 21, 9, 5, 7);
  it('formats for display, dates and payloads', () => {
    expect(formatDateTime(d)).toBe('2025-11-21 09:05');
    expect(formatDate(d)).toBe('2025-11-21');
    expect(formatPayloadDate(d)).toBe('2025-11-21 09:05:07');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });
});
