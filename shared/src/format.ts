import dayjs, { type Dayjs } from 'dayjs';
import { BYTE_BASE, DATE_FORMAT, DISPLAY_DATETIME_FORMAT, PAYLOAD_DATE_FORMAT } from './constants';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** Human-readable size, base 1024: formatBytes(1536) → '1.5 KB'. */
export function formatBytes(bytes: number | null | undefined, decimals = 2): string {
  if (bytes == null || !Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(BYTE_BASE)));
  const value = bytes / BYTE_BASE ** i;
  return `${Number.parseFloat(value.toFixed(i === 0 ? 0 : decimals))} ${UNITS[i]}`;
}

export type DateInput = string | number | Date | Dayjs | null | undefined;

function fmt(value: DateInput, pattern: string): string {
  if (value == null || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format(pattern) : '';
}

/** YYYY-MM-DD */
export const formatDate = (value: DateInput) => fmt(value, DATE_FORMAT);
/** YYYY-MM-DD HH:mm (display) */
export const formatDateTime = (value: DateInput) => fmt(value, DISPLAY_DATETIME_FORMAT);
/** YYYY-MM-DD HH:mm:ss (request payloads) */
export const formatPayloadDate = (value: DateInput) => fmt(value, PAYLOAD_DATE_FORMAT);

export function isDateLike(value: unknown): value is Date | Dayjs {
  return value instanceof Date || dayjs.isDayjs(value);
}
