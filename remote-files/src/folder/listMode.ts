// The file list state of 云文档 kept in local storage across visits: the list mode (spec
// section 3, "file list mode": list or grid) and the sort order chosen.
import { localStore } from '@app/shared';

export type ListMode = 'list' | 'grid';

export const LIST_MODE_KEY = 'FILE__LIST__MODE__';

export function readListMode(): ListMode {
  return localStore.get<ListMode>(LIST_MODE_KEY) === 'grid' ? 'grid' : 'list';
}

export function saveListMode(mode: ListMode): void {
  localStore.set(LIST_MODE_KEY, mode, null);
}

/** `manual`: the order the users set by dragging (SetSort); it has no direction. */
export type SortField = 'name' | 'size' | 'updatedAt' | 'manual';
export type SortOrder = 'asc' | 'desc';

export interface ListSort {
  sortField?: SortField;
  sortOrder?: SortOrder;
}

export const LIST_SORT_KEY = 'FILE__LIST__SORT__';
const FIELDS: SortField[] = ['name', 'size', 'updatedAt', 'manual'];

export function readListSort(): ListSort {
  const value = localStore.get<ListSort>(LIST_SORT_KEY);
  if (!value || typeof value !== 'object' || !FIELDS.includes(value.sortField as SortField)) return {};
  if (value.sortField === 'manual') return { sortField: 'manual' };
  return { sortField: value.sortField, sortOrder: value.sortOrder === 'desc' ? 'desc' : 'asc' };
}

export function saveListSort(sort: ListSort): void {
  if (sort.sortField) localStore.set(LIST_SORT_KEY, sort, null);
  else localStore.remove(LIST_SORT_KEY);
}
