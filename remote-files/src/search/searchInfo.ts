// The state of the advanced search page ("search info" of the spec): the filters, the search
// mode, the page and the page size. It is kept in session storage under SEARCH_INFO_KEY, so that
// leaving the page and coming back (or a reload) shows the same form and runs the same search.
import { BYTE_BASE, RoutePath, SEARCH_INFO_KEY, sessionStore, type SearchQuery } from '@app/shared';

/** 文件名: api.searchFiles; 全文: api.searchContent. */
export type SearchMode = 'name' | 'content';
export type SizeUnit = 'KB' | 'MB' | 'GB';
export type SortField = NonNullable<SearchQuery['sortField']>;
export type SortOrder = NonNullable<SearchQuery['sortOrder']>;

export const SEARCH_PAGE_SIZES = [20, 50, 100] as const;
export const DEFAULT_SEARCH_PAGE_SIZE = 50;
/** The server takes 1 to 100 characters of keyword (after trimming). */
export const KEYWORD_MAX_LENGTH = 100;

export const SIZE_UNITS: SizeUnit[] = ['KB', 'MB', 'GB'];
const UNIT_POWER: Record<SizeUnit, number> = { KB: 1, MB: 2, GB: 3 };

/** The owner picked in the form, with the name it shows. */
export interface OwnerChoice {
  userId: string;
  name: string;
}

/** The form's values as they are stored (dates as YYYY-MM-DD strings). */
export interface SearchFilters {
  keyword: string;
  mode: SearchMode;
  /** 0: 全部 */
  spaceType: 0 | 1 | 2;
  type: 'all' | 'folder' | 'file';
  /** without dots, lower case */
  extensions: string[];
  sizeMin: number | null;
  sizeMax: number | null;
  sizeUnit: SizeUnit;
  /** [from, to], YYYY-MM-DD, both inclusive */
  updated: [string, string] | null;
  owner: OwnerChoice | null;
  tagIds: string[];
  sortField: SortField;
  sortOrder: SortOrder;
}

export interface SearchInfo {
  /** what the form shows */
  filters: SearchFilters;
  /** the filters of the search shown below the form (null before the first search) */
  applied: SearchFilters | null;
  page: number;
  pageSize: number;
}

export const DEFAULT_FILTERS: SearchFilters = {
  keyword: '',
  mode: 'name',
  spaceType: 0,
  type: 'all',
  extensions: [],
  sizeMin: null,
  sizeMax: null,
  sizeUnit: 'MB',
  updated: null,
  owner: null,
  tagIds: [],
  sortField: 'updatedAt',
  sortOrder: 'desc',
};

export const EMPTY_INFO: SearchInfo = { filters: DEFAULT_FILTERS, applied: null, page: 1, pageSize: DEFAULT_SEARCH_PAGE_SIZE };

/** docx, .PDF, "  .Xlsx " → docx, pdf, xlsx (no duplicates, no empty entries). */
export function normalizeExtensions(list: string[]): string[] {
  const out: string[] = [];
  for (const raw of list) {
    const ext = raw.trim().replace(/^\.+/, '').toLowerCase();
    if (ext && !out.includes(ext)) out.push(ext);
  }
  return out;
}

const toBytes = (value: number | null, unit: SizeUnit) =>
  value == null || !Number.isFinite(value) ? undefined : Math.round(value * BYTE_BASE ** UNIT_POWER[unit]);

/** The request of a search: only the filters the user set. */
export function toQuery(f: SearchFilters, page: number, pageSize: number): SearchQuery {
  const query: SearchQuery = { keyword: f.keyword.trim(), page, pageSize };
  if (f.spaceType) query.spaceType = f.spaceType;
  if (f.type !== 'all') query.type = f.type;
  const extensions = normalizeExtensions(f.extensions);
  if (extensions.length) query.extension = extensions.join(',');
  const sizeMin = toBytes(f.sizeMin, f.sizeUnit);
  const sizeMax = toBytes(f.sizeMax, f.sizeUnit);
  if (sizeMin !== undefined) query.sizeMin = sizeMin;
  if (sizeMax !== undefined) query.sizeMax = sizeMax;
  if (f.updated) {
    query.updatedFrom = f.updated[0];
    query.updatedTo = f.updated[1];
  }
  if (f.owner) query.ownerId = f.owner.userId;
  if (f.tagIds.length) query.tagIds = f.tagIds.join(',');
  query.sortField = f.sortField;
  query.sortOrder = f.sortOrder;
  return query;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';

/** Stored filters, with the defaults for whatever is missing (an older or damaged entry). */
function readFilters(v: unknown): SearchFilters | null {
  if (!isObject(v)) return null;
  const f = { ...DEFAULT_FILTERS, ...v } as SearchFilters;
  if (typeof f.keyword !== 'string') return null;
  if (!Array.isArray(f.extensions)) f.extensions = [];
  if (!Array.isArray(f.tagIds)) f.tagIds = [];
  return f;
}

export function loadSearchInfo(): SearchInfo {
  const stored = sessionStore.get<Partial<SearchInfo>>(SEARCH_INFO_KEY);
  if (!isObject(stored)) return EMPTY_INFO;
  const pageSize = Number(stored.pageSize);
  const applied = readFilters(stored.applied);
  return {
    filters: readFilters(stored.filters) ?? DEFAULT_FILTERS,
    // a search needs a keyword
    applied: applied?.keyword.trim() ? applied : null,
    page: Number(stored.page) >= 1 ? Math.floor(Number(stored.page)) : 1,
    pageSize: (SEARCH_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_SEARCH_PAGE_SIZE,
  };
}

/** Kept for the browser tab's session (not the 7-day expiry of other entries). */
export const saveSearchInfo = (info: SearchInfo) => sessionStore.set(SEARCH_INFO_KEY, info, null);
export const clearSearchInfo = () => sessionStore.remove(SEARCH_INFO_KEY);

/** ?keyword=…&mode=name|content of a link from elsewhere (a global search box). */
export function searchFromUrl(params: URLSearchParams): { keyword: string; mode?: SearchMode } | null {
  const keyword = params.get('keyword')?.trim();
  if (!keyword) return null;
  const mode = params.get('mode');
  return { keyword, mode: mode === 'name' || mode === 'content' ? mode : undefined };
}

/** The link to the advanced search page for a keyword. */
export function advancedSearchPath(keyword: string, mode?: SearchMode): string {
  const params = new URLSearchParams({ keyword });
  if (mode) params.set('mode', mode);
  return `${RoutePath.AdvancedSearch}?${params.toString()}`;
}
