// Loads what a page of a remote shows: the last data stays on screen while the next load runs, an answer
// that arrives after the page moved on is dropped, and `reload` asks again.
import { useCallback, useEffect, useState } from 'react';
import { Messages } from '../constants';

export interface LoadState<T> {
  status: 'loading' | 'ready' | 'error';
  data?: T;
  message?: string;
  error?: unknown;
}

export function useLoad<T>(load: () => Promise<T>): { state: LoadState<T>; reload: () => void; setData: (data: T) => void } {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const setData = useCallback((data: T) => setState({ status: 'ready', data }), []);
  useEffect(() => {
    let live = true;
    setState((s) => ({ status: 'loading', data: s.data }));
    load().then(
      (data) => live && setState({ status: 'ready', data }),
      (e: unknown) =>
        live &&
        setState((s) => ({
          status: 'error',
          data: s.data,
          error: e,
          message: e instanceof Error && e.message ? e.message : Messages.requestError,
        })),
    );
    return () => {
      live = false;
    };
  }, [load, reloads]);
  return { state, reload, setData };
}
