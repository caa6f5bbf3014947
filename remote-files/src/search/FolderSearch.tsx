// The search box of the folder pages: a keyword searches the names in the whole subtree of the
// folder shown (api.searchFiles with its folderId), and the hits replace the folder's listing
// until the box is cleared. FolderView keeps the selection and the actions; this module loads
// the hits and shows them with where each one lives.
import { useState, type ComponentProps } from 'react';
import { Typography } from 'antd';
import { Link } from 'react-router-dom';
import type { Item, SearchItem, SearchResult } from '@app/shared';
import { LoadError } from '@app/shared/ui';
import { SearchResults } from './SearchResults';
import { advancedSearchPath, DEFAULT_SEARCH_PAGE_SIZE } from './searchInfo';
import { useSearch, type UseSearchResult } from './useSearch';

export interface FolderSearch {
  keyword: string;
  /** the folder searched (undefined while it loads) */
  folder?: Item;
  search: UseSearchResult;
  /** the hits of the current search, undefined while they load */
  rows: SearchItem[] | undefined;
  /** the hits on screen (those of the previous page or keyword while the next ones load) */
  items: SearchItem[];
  page: number;
  pageSize: number;
  setPage: (page: number, pageSize: number) => void;
}

/**
 * Searches `folder`'s subtree for `keyword` (nothing with an empty keyword); a new keyword or
 * folder starts from page 1. `attempt` searches again (after an action changed the items).
 */
export function useFolderSearch(keyword: string, folder: Item | undefined, attempt: number, onLoad?: (data: SearchResult) => void): FolderSearch {
  const key = `${folder?.id ?? ''}\n${keyword}`;
  const [paging, setPaging] = useState({ key, page: 1, pageSize: DEFAULT_SEARCH_PAGE_SIZE });
  const page = paging.key === key ? paging.page : 1;
  const { pageSize } = paging;
  const search = useSearch(
    keyword && folder ? { mode: 'name', query: { keyword, folderId: folder.id, page, pageSize } } : null,
    attempt,
    onLoad,
  );
  return {
    keyword,
    folder,
    search,
    rows: search.current && search.status === 'ready' ? search.data?.data : undefined,
    items: search.data?.data ?? [],
    page,
    pageSize,
    setPage: (p, size) => setPaging({ key, page: p, pageSize: size }),
  };
}

export type FolderSearchResultsProps = { found: FolderSearch } & Pick<
  ComponentProps<typeof SearchResults>,
  'rows' | 'rowSelection' | 'onRow' | 'renderActions' | 'onOpened'
>;

/** 在“<folder>”及其子文件夹中搜索“<keyword>”，共 N 项 · 高级搜索, and the hits. */
export function FolderSearchResults({ found, ...rest }: FolderSearchResultsProps) {
  const { keyword, folder, search } = found;
  if (search.status === 'error') return <LoadError message={search.message} onRetry={search.retry} />;
  const loading = search.status !== 'ready';
  return (
    <>
      <div style={{ display: 'flex', alignItems: 'baseline', gap: 12, flexWrap: 'wrap', marginBottom: 8 }}>
        <Typography.Text type="secondary" role="status">
          在“{folder?.name ?? ''}”及其子文件夹中搜索“{keyword}”
          {search.current && search.data ? `，共 ${search.data.total} 项` : '…'}
        </Typography.Text>
        <Link to={advancedSearchPath(keyword)}>高级搜索</Link>
      </div>
      <SearchResults
        keyword={keyword}
        result={search.data}
        loading={loading}
        page={found.page}
        pageSize={found.pageSize}
        onPage={found.setPage}
        {...rest}
      />
    </>
  );
}
