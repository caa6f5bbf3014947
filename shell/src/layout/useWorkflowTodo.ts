// The number on 流程 in the main menu: the user's 待我审批 count. Asked when the workflow
// feature is on, again on every route change inside /workflow, when the workflow remote
// announces a change (WORKFLOW_CHANGED_EVENT) and every 60 s. A failure leaves the last number
// and says nothing.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, WORKFLOW_CHANGED_EVENT } from '@app/shared';

export const WORKFLOW_COUNT_INTERVAL_MS = 60_000;

export function useWorkflowTodo(enabled: boolean, pathname: string): number {
  const [todo, setTodo] = useState(0);
  const live = useRef(true);
  const seq = useRef(0);

  const refresh = useCallback(() => {
    const mine = ++seq.current;
    api.getWorkflowCounts({ errorMode: 'none', silentLogout: true }).then(
      (counts) => {
        // only the newest answer counts
        if (live.current && mine === seq.current) setTodo(Math.max(0, Number(counts?.todo) || 0));
      },
      () => undefined,
    );
  }, []);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  // on entering /workflow and on each move inside it; other paths do not ask again
  const place = pathname === '/workflow' || pathname.startsWith('/workflow/') ? pathname : 'elsewhere';
  useEffect(() => {
    if (enabled) refresh();
  }, [enabled, place, refresh]);

  useEffect(() => {
    if (!enabled) return;
    window.addEventListener(WORKFLOW_CHANGED_EVENT, refresh);
    const timer = window.setInterval(refresh, WORKFLOW_COUNT_INTERVAL_MS);
    return () => {
      window.removeEventListener(WORKFLOW_CHANGED_EVENT, refresh);
      window.clearInterval(timer);
    };
  }, [enabled, refresh]);

  return enabled ? todo : 0;
}
