// 系统管理 for the whole organisation: people, departments, groups, roles, feature policy,
// quotas and the upload policy (docs/integration.md, "Organisation administration").
// System administrators may make every call; department administrators only the calls on
// people and departments of their subtrees (the server refuses the rest with 403/40301).
import { http, type HttpConfig } from '@app/shared';
import type { FeaturePolicy, OrgUser, Paged } from './types';

/** Roles an account may hold. 部门管理员 is not a role: it is held per department (AdminDepartmentNode.admins). */
export type AdminRole = 'admin' | 'docAdmin' | 'tagAdmin' | 'flowAdmin' | 'auditAdmin';
export const ADMIN_ROLES: readonly AdminRole[] = ['admin', 'docAdmin', 'tagAdmin', 'flowAdmin', 'auditAdmin'];
export const ADMIN_ROLE_LABELS: Record<AdminRole, string> = {
  admin: '系统管理员',
  docAdmin: '文档管理员',
  tagAdmin: '标签管理员',
  flowAdmin: '流程管理员',
  auditAdmin: '审计管理员',
};

/** Where an account comes from: made here, synced from LDAP/AD, or from DingTalk. */
export type UserSource = 'local' | 'ldap' | 'dingtalk';
export const USER_SOURCE_LABELS: Record<UserSource, string> = { local: '本地', ldap: 'LDAP', dingtalk: '钉钉' };

/** A user in the administrators' list (GET /api/Admin/Users). */
export interface AdminUser {
  userId: string;
  userName: string;
  nickName: string;
  deptId: string | null;
  /** the department's names from the root, `/`-separated ('' when none) */
  deptName: string;
  mobile: string;
  email: string;
  employeeNo: string;
  source: UserSource;
  roles: AdminRole[];
  /** the departments this person administers */
  adminOf: { id: string; name: string }[];
  isDocAdmin: boolean;
  isFlowAdmin: boolean;
  isTagAdmin: boolean;
  disabled: boolean;
  /** too many wrong passwords: sign-in refused until the lockout ends or 解锁 */
  locked: boolean;
  totpRequired: boolean;
  totpBound: boolean;
  mustChangePassword: boolean;
  /** the person's own quota in bytes; null: the department's, else the default */
  quota: number | null;
  /** the quota that applies (bytes; 0: unlimited) */
  effectiveQuota: number;
  /** bytes of the personal space, the recycle bin included */
  used: number;
  lastLoginAt: number | null;
  createdAt: number;
}

export type AdminUserStatus = 'enabled' | 'disabled' | 'locked';

/** GET /api/Admin/Users query: deptId includes the sub-departments unless `directOnly`. */
export interface AdminUsersQuery {
  keyword?: string;
  deptId?: string;
  directOnly?: boolean;
  status?: AdminUserStatus;
  /** a role, or 'deptAdmin' for the administrators of some department */
  role?: AdminRole | 'deptAdmin';
  source?: UserSource;
  page?: number;
  pageSize?: number;
}

/** POST /api/Admin/Users: without `password`, one is generated and returned once (initialPassword). */
export interface CreateAdminUserBody {
  userName: string;
  nickName?: string;
  password?: string;
  deptId?: string | null;
  mobile?: string;
  email?: string;
  employeeNo?: string;
  roles?: AdminRole[];
  quota?: number | null;
  mustChangePassword?: boolean;
}

/** PUT /api/Admin/Users/{userId}: what is left out stays. */
export interface UpdateAdminUserBody {
  nickName?: string;
  deptId?: string | null;
  mobile?: string;
  email?: string;
  employeeNo?: string;
  roles?: AdminRole[];
  quota?: number | null;
}

/** GET /api/Admin/Scope: what the caller may manage. */
export interface AdminScope {
  /** a system administrator: everything */
  system: boolean;
  /** roles the caller holds (and so may grant) */
  roles: AdminRole[];
  /** the departments whose subtrees a department administrator manages */
  departments: { id: string; name: string; path: string }[];
}

/** A department in the administrators' tree (GET /api/Admin/Departments/Tree). */
export interface AdminDepartmentNode {
  id: string;
  parentId: string | null;
  name: string;
  /** ids from the root department to this one, `/`-separated */
  path: string;
  leader: AdminUserRef | null;
  admins: AdminUserRef[];
  /** people directly in this department (enabled and disabled) */
  userCount: number;
  /** the default personal quota of people in this subtree (bytes, 0: unlimited); null: inherited */
  quota: number | null;
  /** the switches set on this department (null: inherited) */
  featurePolicy: FeaturePolicyOverride;
  /** false: shown only as the way to a managed subtree (department administrators) */
  manageable: boolean;
  children: AdminDepartmentNode[];
}

export interface AdminUserRef {
  userId: string;
  userName: string;
  nickName: string;
}

export interface UpdateDepartmentBody {
  name?: string;
  parentId?: string;
  leaderId?: string | null;
  quota?: number | null;
}

/** A switch left null follows the department above (or, at the top, the global policy). */
export type FeaturePolicyOverride = { [K in keyof FeaturePolicy]: boolean | null };

/** GET /api/Admin/Users/{userId}/FeaturePolicy: the person's own switches and what applies, with where it comes from. */
export interface EffectiveFeaturePolicy {
  own: FeaturePolicyOverride;
  effective: FeaturePolicy;
  /** per switch: '全局', '部门：研发中心' or '个人' */
  source: { [K in keyof FeaturePolicy]: string };
}

/** GET /api/Admin/Quota/Overview */
export interface QuotaOverview {
  defaultQuota: number;
  totals: { personal: number; public: number; recycleBin: number; uploading: number };
  /** bytes that files would take without deduplication, and what the stored contents take */
  dedup: { logical: number; stored: number; saved: number };
  largestUsers: { userId: string; userName: string; nickName: string; used: number; quota: number }[];
  largestFolders: { id: string; name: string; space: 'personal' | 'public'; ownerName: string; size: number }[];
}

/**
 * A member of a user group as administrators see it (GET /api/Admin/Groups/{id}/Members): the
 * disabled members are listed too, marked. PUT …/Members replaces the whole list, so a save must
 * start from this list, not from the user call (which leaves the disabled members out).
 */
export interface AdminGroupMember extends OrgUser {
  /** 已停用: cannot sign in and is not counted in memberCount, but is still a member */
  disabled: boolean;
}

/** GET/PUT /api/Admin/UploadPolicy */
export interface AdminUploadPolicy {
  rapidUpload: boolean;
  rapidUploadOrganization: boolean;
  personalQuota: number;
  chunkCheck: boolean;
  /** bytes: a file this size or larger is refused */
  maxFileSize: number;
  /** a selection of more files than this is warned about */
  maxFileCount: number;
}

/** A recorded administrator action (GET /api/Admin/Actions). */
export interface AdminAction {
  id: string;
  at: number;
  actorId: string;
  actorName: string;
  action: string;
  targetType: string;
  targetId: string;
  targetName: string;
  detail: string;
}

/** 批量导入: upsert adds and updates; sync also disables the people the file leaves out. */
export type ImportMode = 'upsert' | 'sync';

/** A refused row: its line in the file (the header is line 1), the column and the Chinese reason. */
export interface ImportRowError {
  line: number;
  userName: string;
  column: string;
  reason: string;
}

/** POST /api/Admin/Users/Import: the check of a file; nothing is written. */
export interface ImportPlan {
  importId: string;
  mode: ImportMode;
  /** data rows read */
  total: number;
  /** when not empty, the file cannot be applied */
  errors: ImportRowError[];
  adds: number;
  updates: number;
  unchanged: number;
  /** sync only: enabled people absent from the file */
  disables: number;
  /** department paths the apply creates */
  departmentsToCreate: string[];
  /** the first rows of each kind */
  samples: { adds: string[]; updates: { userName: string; changes: string[] }[]; disables: string[] };
}

/** POST /api/Admin/Users/Import/{importId}/Apply: the generated passwords are returned this once. */
export interface ImportResult {
  added: number;
  updated: number;
  disabled: number;
  departmentsCreated: number;
  passwords: { userName: string; nickName: string; initialPassword: string }[];
}

/** The columns of the template, the import and the export, in order. */
export const IMPORT_COLUMNS = ['用户名', '昵称', '部门', '工号', '手机', '邮箱', '角色', '个人空间配额(GB)', '状态'] as const;

export const FEATURE_LABELS: Record<keyof FeaturePolicy, string> = {
  personalSpace: '个人空间',
  publicSpace: '企业空间',
  workflow: '审批流程',
  ferrySpaces: '摆渡',
};

/** 系统公告: to every active person, or to the chosen departments with those below them. */
export type AnnouncementScope = 'all' | 'departments';

/** The limits of a 公告 (the server checks the same, in characters). */
export const ANNOUNCEMENT_TITLE_MAX = 100;
export const ANNOUNCEMENT_BODY_MAX = 2000;

/** POST /api/Admin/Announcements */
export interface AnnouncementBody {
  title: string;
  /** plain text, line breaks kept */
  body: string;
  scope: AnnouncementScope;
  /** scope 'departments': the departments chosen (each with those below it) */
  departmentIds?: string[];
}

/** A 公告 sent (GET /api/Admin/Announcements, newest first). */
export interface Announcement {
  id: string;
  title: string;
  body: string;
  scope: AnnouncementScope;
  departments: { id: string; name: string }[];
  senderName: string;
  /** the people it reaches: counted when sent, exact once delivered */
  recipients: number;
  /** yyyy-MM-dd HH:mm:ss */
  createdAt: string;
  /** when its notices were made; '' while being sent */
  sentAt: string;
}

const seg = encodeURIComponent;
const query = (o: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(o).filter(([, v]) => v !== undefined && v !== '' && v !== null).map(([k, v]) => [k, String(v)])).toString();

export const adminApi = {
  getScope: (config?: HttpConfig) => http.get<AdminScope>('/Admin/Scope', config),
  getUsers: (query: AdminUsersQuery, config?: HttpConfig) =>
    http.get<Paged<AdminUser>>('/Admin/Users', { ...config, params: { ...query, ...config?.params } }),
  getUser: (userId: string, config?: HttpConfig) => http.get<AdminUser>(`/Admin/Users/${seg(userId)}`, config),
  createUser: (body: CreateAdminUserBody, config?: HttpConfig) =>
    http.post<{ userId: string; initialPassword?: string }>('/Admin/Users', body, config),
  updateUser: (userId: string, body: UpdateAdminUserBody, config?: HttpConfig) => http.put<AdminUser>(`/Admin/Users/${seg(userId)}`, body, config),
  disableUser: (userId: string, config?: HttpConfig) => http.post<{ userId: string }>(`/Admin/Users/${seg(userId)}/Disable`, undefined, config),
  enableUser: (userId: string, config?: HttpConfig) => http.post<{ userId: string }>(`/Admin/Users/${seg(userId)}/Enable`, undefined, config),
  unlockUser: (userId: string, config?: HttpConfig) => http.post<{ userId: string }>(`/Admin/Users/${seg(userId)}/Unlock`, undefined, config),
  resetPassword: (userId: string, body: { password?: string; mustChangePassword?: boolean }, config?: HttpConfig) =>
    http.post<{ userId: string; revoked: number; initialPassword?: string }>(`/Admin/Users/${seg(userId)}/ResetPassword`, body, config),
  revokeSessions: (userId: string, config?: HttpConfig) => http.post<{ revoked: number }>(`/Admin/Users/${seg(userId)}/RevokeSessions`, undefined, config),
  resetTotp: (userId: string, config?: HttpConfig) => http.delete<AdminUser>(`/Admin/Users/${seg(userId)}/Totp`, config),
  getUserFeaturePolicy: (userId: string, config?: HttpConfig) => http.get<EffectiveFeaturePolicy>(`/Admin/Users/${seg(userId)}/FeaturePolicy`, config),
  setUserFeaturePolicy: (userId: string, body: FeaturePolicyOverride, config?: HttpConfig) =>
    http.put<EffectiveFeaturePolicy>(`/Admin/Users/${seg(userId)}/FeaturePolicy`, body, config),

  getDepartments: (config?: HttpConfig) => http.get<AdminDepartmentNode[]>('/Admin/Departments/Tree', config),
  createDepartment: (body: { name: string; parentId?: string | null }, config?: HttpConfig) =>
    http.post<{ id: string }>('/Admin/Departments', body, config),
  updateDepartment: (id: string, body: UpdateDepartmentBody, config?: HttpConfig) => http.put<{ id: string }>(`/Admin/Departments/${seg(id)}`, body, config),
  deleteDepartment: (id: string, config?: HttpConfig) => http.delete<{ id: string }>(`/Admin/Departments/${seg(id)}`, config),
  setDepartmentAdmins: (id: string, userIds: string[], config?: HttpConfig) =>
    http.put<{ id: string }>(`/Admin/Departments/${seg(id)}/Admins`, { userIds }, config),
  setDepartmentFeaturePolicy: (id: string, body: FeaturePolicyOverride, config?: HttpConfig) =>
    http.put<{ id: string }>(`/Admin/Departments/${seg(id)}/FeaturePolicy`, body, config),

  createGroup: (name: string, config?: HttpConfig) => http.post<{ id: string; name: string; memberCount: number }>('/Admin/Groups', { name }, config),
  renameGroup: (id: string, name: string, config?: HttpConfig) =>
    http.put<{ id: string; name: string; memberCount: number }>(`/Admin/Groups/${seg(id)}`, { name }, config),
  deleteGroup: (id: string, config?: HttpConfig) => http.delete<{ id: string }>(`/Admin/Groups/${seg(id)}`, config),
  /** every member, the disabled ones included and marked; by user name, paged (pageSize up to 1000) */
  getGroupMembers: (id: string, query: { page?: number; pageSize?: number }, config?: HttpConfig) =>
    http.get<Paged<AdminGroupMember>>(`/Admin/Groups/${seg(id)}/Members`, { ...config, params: { ...query, ...config?.params } }),
  /** replaces the whole member list: ids left out (disabled members too) are removed */
  setGroupMembers: (id: string, userIds: string[], config?: HttpConfig) =>
    http.put<{ id: string; name: string; memberCount: number }>(`/Admin/Groups/${seg(id)}/Members`, { userIds }, config),

  getFeaturePolicy: (config?: HttpConfig) => http.get<FeaturePolicy>('/Admin/FeaturePolicy', config),
  setFeaturePolicy: (body: FeaturePolicy, config?: HttpConfig) => http.put<FeaturePolicy>('/Admin/FeaturePolicy', body, config),

  getQuotaOverview: (config?: HttpConfig) => http.get<QuotaOverview>('/Admin/Quota/Overview', config),
  getUploadPolicy: (config?: HttpConfig) => http.get<AdminUploadPolicy>('/Admin/UploadPolicy', config),
  setUploadPolicy: (body: AdminUploadPolicy, config?: HttpConfig) => http.put<AdminUploadPolicy>('/Admin/UploadPolicy', body, config),

  /** paths for a download frame (cookie authentication): the template, and the people matching a filter */
  importTemplatePath: (format: 'xlsx' | 'csv') => `/Admin/Users/Import/Template?format=${format}`,
  exportUsersPath: (format: 'xlsx' | 'csv', filter: Omit<AdminUsersQuery, 'page' | 'pageSize'> = {}) => `/Admin/Users/Export?${query({ format, ...filter })}`,
  checkImport: (file: Blob, fileName: string, mode: ImportMode, config?: HttpConfig) => {
    const form = new FormData();
    form.append('mode', mode);
    form.append('file', file, fileName);
    return http.post<ImportPlan>('/Admin/Users/Import', form, { ...config, headers: { ...config?.headers, 'Content-Type': 'multipart/form-data' } });
  },
  applyImport: (importId: string, confirmDisable: number, config?: HttpConfig) =>
    http.post<ImportResult>(`/Admin/Users/Import/${seg(importId)}/Apply`, { confirmDisable }, config),

  getActions: (query: { page?: number; pageSize?: number }, config?: HttpConfig) =>
    http.get<Paged<AdminAction>>('/Admin/Actions', { ...config, params: { ...query, ...config?.params } }),

  getAnnouncements: (query: { page?: number; pageSize?: number }, config?: HttpConfig) =>
    http.get<Paged<Announcement>>('/Admin/Announcements', { ...config, params: { ...query, ...config?.params } }),
  sendAnnouncement: (body: AnnouncementBody, config?: HttpConfig) => http.post<Announcement>('/Admin/Announcements', body, config),
};
export type AdminApi = typeof adminApi;
