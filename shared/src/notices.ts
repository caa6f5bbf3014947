// The 消息中心 of 云文档 (issue 28): the wire types of /api/Notices, shared by the server and the
// shell's bell.

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
  /** my request was returned to me */
  | 'approval.returned';

/** The kinds with their Chinese names, for the filter of the notice list. */
export const NOTICE_KIND_NAMES: Record<NoticeKind, string> = {
  'approval.waiting': '待我审批',
  'approval.cc': '抄送我的',
  'approval.approved': '审批通过',
  'approval.rejected': '审批驳回',
  'approval.returned': '退回给我',
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
