import { appStore, errorLogAtom, type ErrorLogEntry } from './state/atoms';
import { formatDateTime } from './format';

export type { ErrorLogEntry };

/** Adds an entry (newest first); the time is stamped now, YYYY-MM-DD HH:mm. */
export function appendErrorLog(entry: Omit<ErrorLogEntry, 'time'> & { time?: string }): void {
  const full: ErrorLogEntry = { ...entry, time: entry.time ?? formatDateTime(new Date()) };
  appStore.set(errorLogAtom, (list) => [full, ...list]);
}

export function getErrorLog(): ErrorLogEntry[] {
  return appStore.get(errorLogAtom);
}

export function clearErrorLog(): void {
  appStore.set(errorLogAtom, []);
}
