// Runs a search (by name or full text) and keeps its result: the page loaded stays on screen
// while the next one loads, and an answer to an older request is dropped.
import { useEffect, useRef, useState } from 'react';
import { api, Messages, type SearchQuery, type SearchResult } from '@app/shared';
import type { SearchMode } from './searchInfo';

export interface SearchRequest {
  mode: SearchMode;
  query: SearchQuery;
}

export interface SearchState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** the last result loaded (possibly of an earlier request while the next one loads) */
  data?: SearchResult;
  /** the request `data` answers (JSON) */
  key?: string;
  message?: string;
}

/** 文件名 searches names (api.searchFiles), 全文 the documents' text (api.searchContent). */
export const searchBy = ({ mode, query }: SearchRequest) => (mode === 'content' ? api.searchContent(query) : api.searchFiles(query));

const errorMessage = (e: unknown) => (e instanceof Error && e.message ? e.message : Messages.requestError);

export interface UseSearchResult extends SearchState {
  /** true when `data` answers the current request */
  current: boolean;
  retry: () => void;
}

/**
 * Searches for `request` (nothing with null, or without a keyword: the server needs one);
 * `attempt` asks again for the same request, `onLoad` runs with each result taken.
 */
export function useSearch(request: SearchRequest | null, attempt = 0, onLoad?: (data: SearchResult) => void): UseSearchResult {
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const [retries, setRetries] = useState(0);
  const key = request && request.query.keyword.trim() ? JSON.stringify(request) : null;
  const loaded = useRef(onLoad);
  loaded.current = onLoad;

  useEffect(() => {
    if (!key) {
      setState({ status: 'idle' });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, status: 'loading', message: undefined }));
    searchBy(JSON.parse(key) as SearchRequest)
      .then((data) => {
        if (!live) return;
        setState({ status: 'ready', data, key });
        loaded.current?.(data);
      })
      .catch((e: unknown) => {
        if (live) setState((s) => ({ ...s, status: 'error', message: errorMessage(e) }));
      });
    return () => {
      live = false;
    };
  }, [key, attempt, retries]);

  return { ...state, current: !!key && state.key === key, retry: () => setRetries((r) => r + 1) };
}
