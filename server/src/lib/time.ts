// Dates in 云文档 payloads are `YYYY-MM-DD HH:mm:ss` in the configured time zone
// (default Asia/Shanghai); the database keeps epoch milliseconds.
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export type TimeFormatter = (epochMs: number | null | undefined) => string;

// zone offsets change on a quarter hour (Lord Howe Island switches at hh:30 UTC)
const BUCKET_MS = 15 * 60 * 1000;
const MAX_CACHED_BUCKETS = 100_000;

/**
 * The zone's offset from UTC at a time, in minutes, read with one Intl formatter made once:
 * dayjs's `.tz()` builds a new one on every call (about 0.15 ms); with the formatter kept a
 * lookup costs 10–20 µs. The wall-clock parts of the whole second are compared with the instant.
 */
function zoneOffsetReader(tzName: string): (ms: number) => number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tzName,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (ms) => {
    const whole = Math.floor(ms / 1000) * 1000;
    const wall: Record<string, number> = {};
    for (const { type, value } of parts.formatToParts(whole)) wall[type] = Number(value);
    const asUtc = new Date(0);
    asUtc.setUTCFullYear(wall.year, wall.month - 1, wall.day);
    asUtc.setUTCHours(wall.hour, wall.minute, wall.second, 0);
    return Math.round((asUtc.getTime() - whole) / 60_000);
  };
}

/**
 * Formats epoch milliseconds in the zone. Zone offsets only change on a quarter hour, so the
 * offset is looked up once per quarter hour and the time is then written out with it: a page of
 * items whose times are spread over years misses that cache for nearly every time, and each miss
 * reads the kept formatter (dayjs's `.tz()` here cost 14–38 ms for a search page of 50 items).
 */
export function createTimeFormatter(tzName: string): TimeFormatter {
  const offsets = new Map<number, number>();
  const zoneOffset = zoneOffsetReader(tzName);
  const offsetAt = (ms: number) => {
    const bucket = Math.floor(ms / BUCKET_MS);
    let offset = offsets.get(bucket);
    if (offset === undefined) {
      if (offsets.size >= MAX_CACHED_BUCKETS) offsets.clear();
      offset = zoneOffset(ms);
      offsets.set(bucket, offset);
    }
    return offset;
  };
  const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
  return (epochMs) => {
    if (epochMs === null || epochMs === undefined) return '';
    const ms = Number(epochMs);
    if (!Number.isFinite(ms)) return '';
    // the wall-clock time of the zone, read with the UTC getters (same as DATE_TIME_FORMAT)
    const d = new Date(ms + offsetAt(ms) * 60_000);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  };
}

/**
 * Reads `YYYY-MM-DD HH:mm:ss` as a wall-clock time of the zone: epoch ms, or null when the text
 * is not such a date or names a time that does not exist (2026-02-30, 25:00:00).
 */
export function parseDateTime(text: string, tzName: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const parsed = dayjs.tz(text.trim(), DATE_TIME_FORMAT, tzName);
  if (!parsed.isValid() || parsed.format(DATE_TIME_FORMAT) !== text.trim()) return null;
  return parsed.valueOf();
}
