// The 消息中心 of 云文档 (issue 28): the wire types of /api/Notices, and the reader of its stream
// (server-sent events read with fetch, so that the token goes in the Authorization header).
import { apiUrl } from './download/api';
import { appStore, tokenAtom } from './state/atoms';

/** What a notice is about. */
export type NoticeKind =
  /** an approval waits for me (started, reached my step, transferred or added to me) */
  | 'approval.waiting'
  /** a request was copied to me (CC) */
  | 'approval.cc'
  /** my request was approved */
  | 'approval.approved'
  /** my request was rejected */
  | 'approval.rejected'
  /** approvers of an earlier step: the request was returned to it */
  | 'approval.returned'
  /** my request was sent back to an earlier step */
  | 'approval.sentback'
  /** the initiator reminds me of a request waiting for me (催办) */
  | 'approval.remind'
  /** an internal share reached me (as a user, through my department or a group) */
  | 'share.received'
  /** files were uploaded through my external share link of level 3 (one notice for a batch) */
  | 'link.uploaded'
  /** a ferry task waits for my approval (resolved when decided) */
  | 'ferry.waiting'
  /** my ferry task was stopped by its checks (antivirus, keywords, type…) */
  | 'ferry.blocked'
  /** my ferry task's files reached the other zone */
  | 'ferry.delivered'
  /** the recipient in the other zone downloaded my ferry task's files */
  | 'ferry.downloaded'
  /** files ferried from another zone arrived for me */
  | 'ferry.arrived'
  /** a registration waits for an administrator (system administrators; resolved when decided) */
  | 'registration.waiting'
  /** my personal space reached 90 % of its quota */
  | 'quota.warning'
  /** my password expires within 7 days */
  | 'password.expiring'
  /** an administrator reset my TOTP */
  | 'totp.reset'
  /** a 系统公告: no link, the whole text is shown when opened */
  | 'announcement';

/** The kinds with their Chinese names, for the filter of the notice list. */
export const NOTICE_KIND_NAMES: Record<NoticeKind, string> = {
  'approval.waiting': '待我审批',
  'approval.cc': '抄送我的',
  'approval.approved': '审批通过',
  'approval.rejected': '审批驳回',
  'approval.returned': '退回给我',
  'approval.sentback': '我的申请被退回',
  'approval.remind': '催办',
  'share.received': '分享给我',
  'link.uploaded': '外链上传',
  'ferry.waiting': '摆渡待审批',
  'ferry.blocked': '摆渡已拦截',
  'ferry.delivered': '摆渡已送达',
  'ferry.downloaded': '摆渡已下载',
  'ferry.arrived': '收到摆渡文件',
  'registration.waiting': '注册申请',
  'quota.warning': '空间容量',
  'password.expiring': '密码到期',
  'totp.reset': '动态口令重置',
  announcement: '系统公告',
};

export interface Notice {
  id: string;
  kind: NoticeKind;
  title: string;
  body: string;
  /** the web route that opens what it is about ('' when nothing) */
  link: string;
  /** yyyy-MM-dd HH:mm:ss */
  createdAt: string;
  read: boolean;
  /** the action it asked for was taken: resolution says how (已处理…) */
  resolved: boolean;
  resolution: string;
}

export interface NoticePage {
  data: Notice[];
  total: number;
  /** unread notices of the user, all kinds */
  unread: number;
}

export interface NoticesQuery {
  page: number;
  pageSize: number;
  kind?: NoticeKind;
  unread?: boolean;
}

export interface NoticeStreamHandlers {
  /** the unread count (first on connecting, then after reads and deletions) */
  onUnread(unread: number): void;
  /** a new notice, with the unread count that includes it */
  onNotice(notice: Notice, unread: number): void;
}

/**
 * Reads /api/Notices/Stream until it ends or `signal` aborts; resolves when the stream ends
 * (the server closed it, a network error), rejects when it could not be opened.
 */
export async function readNoticeStream(handlers: NoticeStreamHandlers, signal: AbortSignal): Promise<void> {
  const token = appStore.get(tokenAtom);
  const res = await fetch(apiUrl('/Notices/Stream'), {
    headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    signal,
    cache: 'no-store',
  });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (!event || !data) continue;
        try {
          const parsed = JSON.parse(data) as { unread: number; notice?: Notice };
          if (event === 'unread') handlers.onUnread(Number(parsed.unread) || 0);
          else if (event === 'notice' && parsed.notice) handlers.onNotice(parsed.notice, Number(parsed.unread) || 0);
        } catch {
          // a line that is not JSON: skipped
        }
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
