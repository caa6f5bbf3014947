import { formatPayloadDate, isDateLike } from '../format';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Request payloads (spec section 5): strings trimmed, Date and dayjs values formatted
 * YYYY-MM-DD HH:mm:ss, recursively through plain objects and arrays. Anything else
 * (FormData, Blob, URLSearchParams…) is left as it is.
 */
export function preparePayload<T>(value: T): T {
  if (typeof value === 'string') return value.trim() as T;
  if (isDateLike(value)) return formatPayloadDate(value) as T;
  if (Array.isArray(value)) return value.map((v) => preparePayload(v)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = preparePayload(v);
    return out as T;
  }
  return value;
}
