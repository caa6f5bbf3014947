// A jump to a file (`?focus=<id>` on its folder's route, built by the shared jump helper):
// the file is selected, highlighted and scrolled into view. When it is not on the page
// loaded, the folder is searched for the file's name (the search box's visible, clearable
// search) to find it.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { api, FOCUS_PARAM, notify, type Item } from '@app/shared';

export const FOCUS_NOT_FOUND = '未在当前文件夹中找到该文件，它可能已被移动或删除';

export interface FocusOptions {
  folderKey: string;
  /** the rows loaded for `folderKey`, undefined while loading */
  rows: Item[] | undefined;
  select: (id: string) => void;
  /** filters the list by name (to find an item beyond the page loaded) */
  filterBy: (name: string) => void;
  /** the element holding the rows (table rows carry data-row-key, tiles data-item-id) */
  container: RefObject<HTMLElement | null>;
  /** rows drawn so far (the rest of a page is drawn after the first screen) */
  drawn?: number;
}

/** Returns the id of the item to highlight. */
export function useFocusItem({ folderKey, rows, select, filterBy, container, drawn }: FocusOptions): string | null {
  const [params] = useSearchParams();
  const { key: locationKey } = useLocation();
  const focusId = params.get(FOCUS_PARAM);
  const jump = focusId ? `${locationKey}:${focusId}` : null;
  const done = useRef<string | null>(null);
  const filtered = useRef<string | null>(null);
  const [highlight, setHighlight] = useState<{ folderKey: string; id: string } | null>(null);

  useEffect(() => {
    if (!focusId || !jump || done.current === jump || !rows) return;
    if (rows.some((r) => r.id === focusId)) {
      done.current = jump;
      select(focusId);
      setHighlight({ folderKey, id: focusId });
      return;
    }
    if (filtered.current === jump) {
      done.current = jump;
      notify.warning(FOCUS_NOT_FOUND);
      return;
    }
    filtered.current = jump;
    api
      .getFile(focusId, { errorMode: 'none' })
      .then((file) => {
        if (done.current !== jump) filterBy(file.name);
      })
      .catch(() => {
        if (done.current === jump) return;
        done.current = jump;
        notify.warning(FOCUS_NOT_FOUND);
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows, jump]);

  const highlightId = highlight?.folderKey === folderKey ? highlight.id : null;

  useEffect(() => {
    if (!highlightId || !container.current) return;
    const el = Array.from(container.current.querySelectorAll('[data-row-key],[data-item-id]')).find(
      (e) => (e.getAttribute('data-row-key') ?? e.getAttribute('data-item-id')) === highlightId,
    ) as HTMLElement | undefined;
    el?.scrollIntoView?.({ block: 'center' });
  }, [highlightId, rows, container, drawn]);

  return highlightId;
}
