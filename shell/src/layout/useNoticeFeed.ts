// The unread count of the bell in 云文档's top bar, kept current: pushed by the server's stream
// of notices (/api/Notices/Stream) while the page is open, the stream opened again after it
// ends (an instance restarting, the network), and a slow poll of the count besides, should the
// stream be cut somewhere it cannot tell. `latest` changes with every pushed notice.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type Notice } from '@app/shared';

/** the count is asked again this often whatever the stream does */
export const NOTICE_POLL_MS = 60_000;
/** waits before opening an ended stream again: the first, then doubled up to the last */
export const NOTICE_RECONNECT_MS = [2_000, 30_000] as const;

export interface NoticeFeed {
  unread: number;
  /** the newest notice pushed since the page opened */
  latest: Notice | null;
  /** asks for the count now (after the user read or deleted notices) */
  refresh(): void;
}

export function useNoticeFeed(): NoticeFeed {
  const [unread, setUnread] = useState(0);
  const [latest, setLatest] = useState<Notice | null>(null);
  const live = useRef(true);

  const refresh = useCallback(() => {
    api.getNoticeUnread({ errorMode: 'none', silentLogout: true }).then(
      (r) => live.current && setUnread(Math.max(0, Number(r?.unread) || 0)),
      () => undefined,
    );
  }, []);

  useEffect(() => {
    live.current = true;
    const controller = new AbortController();
    let wait: number = NOTICE_RECONNECT_MS[0];
    let timer: number | undefined;
    const connect = () => {
      api
        .openNoticeStream(
          {
            onUnread: (n) => {
              wait = NOTICE_RECONNECT_MS[0];
              if (live.current) setUnread(n);
            },
            onNotice: (notice, n) => {
              if (!live.current) return;
              setUnread(n);
              setLatest(notice);
            },
          },
          controller.signal,
        )
        .catch(() => undefined)
        .finally(() => {
          if (controller.signal.aborted) return;
          timer = window.setTimeout(connect, wait);
          wait = Math.min(NOTICE_RECONNECT_MS[1], wait * 2);
        });
    };
    connect();
    refresh();
    const poll = window.setInterval(refresh, NOTICE_POLL_MS);
    return () => {
      live.current = false;
      controller.abort();
      window.clearTimeout(timer);
      window.clearInterval(poll);
    };
  }, [refresh]);

  return { unread, latest, refresh };
}
