// 离职交接 (系统管理 › 用户): what a leaving person holds (files, approvals, shares, ferry tasks, and
// the posts of 部门负责人 and 部门管理员), and the handover of all of it to a successor in one step. System administrators, and department administrators when the leaver
// and the successor are both in their subtrees (the server refuses the rest with 403/40301).
import { http, type HttpConfig } from '@app/shared';

/** What happens to the leaver's shares: kept (the successor owns them, links keep working) or cancelled. */
export type HandoverSharesChoice = 'keep' | 'cancel';

/** A department the person holds a post in; `name` is its full path (`总部/研发中心`). */
export interface HandoverDepartmentPost {
  id: string;
  name: string;
}

/** GET /api/Admin/Users/{userId}/Handover */
export interface HandoverPreview {
  userId: string;
  userName: string;
  nickName: string;
  disabled: boolean;
  /** when the handover was done (ms); null before */
  leftAt: number | null;
  /** live files and folders of the personal space, and the bytes of the files */
  files: { count: number; bytes: number };
  /** approval tasks waiting for the person */
  pendingTasks: number;
  /** flows the person started that are still running */
  runningFlows: number;
  /** shares that work now */
  shares: { count: number };
  /** ferry tasks not finished yet */
  ferryTasks: { count: number };
  /** the departments the person leads (部门负责人), by full path */
  leaderOf: HandoverDepartmentPost[];
  /** the departments the person administers (部门管理员), by full path */
  adminOf: HandoverDepartmentPost[];
}

export interface HandoverBody {
  successorId: string;
  shares: HandoverSharesChoice;
}

/** POST /api/Admin/Users/{userId}/Handover */
export interface HandoverResult {
  userId: string;
  successorId: string;
  leftAt: number;
  /** the folder of the successor's personal space holding the leaver's files (null: there were none) */
  folder: { id: string; name: string } | null;
  files: { count: number; bytes: number };
  pendingTasks: number;
  runningFlows: number;
  shares: { mode: HandoverSharesChoice; count: number };
  ferryTasks: { count: number };
  /** the departments the successor now leads in the leaver's place */
  leaderOf: HandoverDepartmentPost[];
  /** the departments the successor now administers in the leaver's place */
  adminOf: HandoverDepartmentPost[];
}

const seg = encodeURIComponent;

export const leaverApi = {
  getHandover: (userId: string, config?: HttpConfig) => http.get<HandoverPreview>(`/Admin/Users/${seg(userId)}/Handover`, config),
  handover: (userId: string, body: HandoverBody, config?: HttpConfig) => http.post<HandoverResult>(`/Admin/Users/${seg(userId)}/Handover`, body, config),
};
export type LeaverApi = typeof leaverApi;
