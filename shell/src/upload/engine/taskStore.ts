// Upload sessions remembered across reloads (localStorage, 7-day expiry): the same file
// added again to the same place finds its taskId, and the server answers with the chunks
// it already holds.
import { localStore, type ExpiringStorage, type UploadPath } from '@app/shared';

export const UPLOAD_TASKS_KEY = 'UPLOAD__TASKS__';
/** The most sessions remembered; the oldest are forgotten first. */
export const UPLOAD_TASKS_LIMIT = 500;

/** What identifies a local file in a target. */
export interface FileFingerprint {
  folderId: string;
  shareId: string | null;
  name: string;
  size: number;
  lastModified: number;
  relativePath: string;
}

export interface TaskRecord extends FileFingerprint {
  taskId: string;
  fileId: string | null;
  savedAt: number;
  /** the signed-in user who started it (rows come back after a reload for that user only) */
  owner?: string | null;
  /** the target, without the access key (to list the row again after a reload) */
  path?: UploadPath;
}

export interface TaskStore {
  /** the remembered session of this file, unless its taskId is in `busy` */
  find(fingerprint: FileFingerprint, busy?: ReadonlySet<string>): TaskRecord | null;
  save(record: TaskRecord): void;
  remove(taskId: string): void;
  list(): TaskRecord[];
}

const same = (a: FileFingerprint, b: FileFingerprint) =>
  a.folderId === b.folderId &&
  (a.shareId ?? null) === (b.shareId ?? null) &&
  a.name === b.name &&
  a.size === b.size &&
  a.lastModified === b.lastModified &&
  a.relativePath === b.relativePath;

export function createTaskStore(storage: ExpiringStorage = localStore, key = UPLOAD_TASKS_KEY): TaskStore {
  const read = (): TaskRecord[] => {
    const value = storage.get<TaskRecord[]>(key);
    return Array.isArray(value) ? value.filter((r) => r && typeof r.taskId === 'string') : [];
  };
  const write = (records: TaskRecord[]) => {
    if (records.length === 0) storage.remove(key);
    else storage.set(key, records.slice(-UPLOAD_TASKS_LIMIT));
  };
  return {
    find(fingerprint, busy) {
      return read().find((r) => same(r, fingerprint) && !busy?.has(r.taskId)) ?? null;
    },
    save(record) {
      write([...read().filter((r) => r.taskId !== record.taskId), record]);
    },
    remove(taskId) {
      const records = read();
      const rest = records.filter((r) => r.taskId !== taskId);
      if (rest.length !== records.length) write(rest);
    },
    list: read,
  };
}
