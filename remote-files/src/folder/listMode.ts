// The file list mode of 云文档 (spec section 3, "file list mode"): list or grid, kept in
// local storage across visits.
import { localStore } from '@app/shared';

export type ListMode = 'list' | 'grid';

export const LIST_MODE_KEY = 'FILE__LIST__MODE__';

export function readListMode(): ListMode {
  return localStore.get<ListMode>(LIST_MODE_KEY) === 'grid' ? 'grid' : 'list';
}

export function saveListMode(mode: ListMode): void {
  localStore.set(LIST_MODE_KEY, mode, null);
}
