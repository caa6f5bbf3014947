// One page of an administrators' list (users, registration applications): loads the page asked
// for again whenever the page or one of `deps` (the filters, a reload counter) changes.
import { useEffect, useState } from 'react';

export function usePagedList<T>(load: (page: number) => Promise<{ data: T[]; total: number }>, deps: readonly unknown[]) {
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<T[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let live = true;
    setLoading(true);
    load(page)
      .then((r) => {
        if (!live) return;
        setRows(r.data);
        setTotal(r.total);
      })
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page, ...deps]);

  return { page, setPage, rows, setRows, total, loading };
}
