// Typed calls of the 云文档 API. Paths are relative to the API prefix (`/api` by default).
import { getWithoutSession, http, type HttpConfig } from '../http/client';
import { readNoticeStream, type NoticeKind, type NoticePage, type NoticesQuery, type NoticeStreamHandlers } from '../notices';
import type {
  ClientBranding,
  CreateFileBody,
  EnvironmentConfig,
  FeaturePolicy,
  FileActions,
  FolderItems,
  HomeInfo,
  Item,
  ItemsQuery,
  LoginBody,
  LoginResult,
  MoveCopyBody,
  OperationResult,
  Paged,
  PasswordPolicy,
  ResetPasswordBody,
  TotpBody,
  ChangePasswordBody,
  AccountSecurity,
  AuthorizeInfo,
  AuthorizedClient,
  RegisterBody,
  Registration,
  AdminUser,
  Agreement,
  BrandingImageKind,
  OAuthClient,
  SmsMessage,
  TotpSetup,
  MySession,
  RecycleItem,
  RecycleQuery,
  TreeNode,
} from './types';
import type {
  FavoriteCategory,
  FavoriteCategoryBody,
  FavoriteItem,
  FavoritesBody,
  SearchQuery,
  SearchResult,
  Tag,
  TagBody,
  TagFilesBody,
} from './types';
import type { DepartmentNode, OrgUser, OrgUsersQuery, UserGroup } from './types';
import type { DiskStatus, PersonalPolicy, PersonalUsage } from './types';
import type { FileVersion, FolderSize, Permission, PolicyList, SetPoliciesBody } from './types';
import type { PreviewBody, PreviewConversion, PreviewPayload, TextPreview } from './types';
import type { CreatedShare, CreateShareBody, OutsourceInfo, ShareEvent, ShareRecord, UpdateShareBody } from './types';
import type {
  StartWorkflowBody,
  WorkflowActionBody,
  WorkflowCounts,
  WorkflowDefinition,
  WorkflowDefinitionBody,
  WorkflowInstanceDetail,
  WorkflowInstanceRow,
  WorkflowInstancesQuery,
  WorkflowRemindResult,
  WorkflowRouteStep,
} from './types';
import type {
  CreatedFerryTask,
  CreateFerryTaskBody,
  FerryAuditQuery,
  FerryAuditRecord,
  FerryAuditVerify,
  FerryInboxItem,
  FerryPreview,
  FerryPreviewBody,
  FerrySettings,
  FerrySettingsView,
  FerryStats,
  FerryStatsBucket,
  FerryTaskDetail,
  FerryTaskRow,
  FerryTasksQuery,
  FerryZones,
} from './types';

/** The actions on an instance, as the last segment of their path. */
export type WorkflowActionName = 'Approve' | 'Reject' | 'Revoke' | 'Transfer' | 'Return' | 'AddApprover' | 'Comment';

const seg = encodeURIComponent;

export const api = {
  login: (body: Omit<LoginBody, 'mode'> & { mode?: LoginBody['mode'] }, config?: HttpConfig) =>
    http.post<LoginResult>('/login', { mode: 'password', ...body }, { withToken: false, ...config }),
  loginWithDingtalk: (code: string, appId: string, config?: HttpConfig) =>
    http.post<LoginResult>('/login/LoginWithDingtalk', undefined, { withToken: false, ...config, params: { ...config?.params, code, appId } }),
  /** The second steps of a sign-in: each answers a session or the next step. */
  resetPassword: (body: ResetPasswordBody, config?: HttpConfig) =>
    http.post<LoginResult>('/login/ResetPassword', body, { withToken: false, ...config }),
  totpBind: (body: TotpBody, config?: HttpConfig) => http.post<LoginResult>('/login/TotpBind', body, { withToken: false, ...config }),
  totpCode: (body: TotpBody, config?: HttpConfig) => http.post<LoginResult>('/login/TotpCode', body, { withToken: false, ...config }),
  changePassword: (body: ChangePasswordBody, config?: HttpConfig) =>
    http.post<{ revoked: number }>('/account/changepassword', body, config),
  // ---- registration (docs/integration.md, "Registration") ----
  sendRegisterCode: (phone: string, config?: HttpConfig) =>
    http.post<{ resendAfter: number; expiresIn: number }>('/User/Register/SendVerifyCode', undefined, { withToken: false, ...config, params: { ...config?.params, phone } }),
  register: (body: RegisterBody, config?: HttpConfig) => http.post<Registration>('/User/Register', body, { withToken: false, ...config }),
  // ---- client authorization (docs/integration.md, "Client authorization") ----
  getAuthorizeRequest: (request: string, config?: HttpConfig) =>
    http.get<AuthorizeInfo>('/OAuth/Request', { ...config, params: { ...config?.params, request } }),
  answerAuthorize: (request: string, approve: boolean, config?: HttpConfig) =>
    http.post<{ redirectTo: string }>('/OAuth/Authorize', { request, approve }, config),
  getMyClients: (config?: HttpConfig) => http.get<AuthorizedClient[]>('/account/Clients', config),
  revokeMyClient: (clientId: string, config?: HttpConfig) =>
    http.delete<{ revoked: number }>(`/account/Clients/${encodeURIComponent(clientId)}`, config),
  // ---- 个人设置 (docs/integration.md, "Account") ----
  getSecurity: (config?: HttpConfig) => http.get<AccountSecurity>('/account/Security', config),
  beginTotp: (config?: HttpConfig) => http.post<TotpSetup>('/account/Totp/Begin', undefined, config),
  confirmTotp: (body: TotpBody, config?: HttpConfig) => http.post<null>('/account/Totp/Confirm', body, config),
  removeTotp: (code: string, config?: HttpConfig) => http.post<null>('/account/Totp/Remove', { code }, config),
  getMySessions: (config?: HttpConfig) => http.get<MySession[]>('/account/Sessions', config),
  endMySession: (id: string, config?: HttpConfig) => http.delete<null>(`/account/Sessions/${encodeURIComponent(id)}`, config),
  setAvatar: (file: Blob, config?: HttpConfig) => {
    const form = new FormData();
    form.append('file', file);
    // not the client's JSON default: axios would turn the form into JSON; the browser adds the boundary
    return http.put<{ avatar: string }>('/account/avatar', form, { ...config, headers: { ...config?.headers, 'Content-Type': 'multipart/form-data' } });
  },
  quit: (config?: HttpConfig) =>
    http.post<unknown>('/login/quit', undefined, { errorMode: 'none', silentLogout: true, ...config }),
  getEnvironmentConfig: (config?: HttpConfig) => http.get<EnvironmentConfig>('/EnvironmentConfig', config),
  getFeaturePolicy: (config?: HttpConfig) => http.get<FeaturePolicy>('/User/GlobalPolicies/FeaturePolicy', config),
  getPasswordPolicy: (config?: HttpConfig) => http.get<PasswordPolicy>('/Login/PasswordPolicy', { withToken: false, ...config }),
  /** with fetch, not axios: the sign-in page shows it before any other call; a failure is shown nowhere */
  getBranding: () => getWithoutSession<ClientBranding>('/Client/Branding'),
  getAgreement: (kind: Agreement['kind'], config?: HttpConfig) => http.get<Agreement>(`/Client/Agreements/${kind}`, { withToken: false, ...config }),
  getHome: (config?: HttpConfig) => http.get<HomeInfo>('/User/Home', config),
  // ---- 系统管理 (docs/integration.md, "Administration"; system administrators only) ----
  getAdminUsers: (query: { keyword?: string; page?: number; pageSize?: number }, config?: HttpConfig) =>
    http.get<{ data: AdminUser[]; total: number }>('/Admin/Users', { ...config, params: { ...query, ...config?.params } }),
  setUserTotpRequired: (userId: string, required: boolean, config?: HttpConfig) =>
    http.put<AdminUser>(`/Admin/Users/${seg(userId)}/Totp`, { required }, config),
  resetUserTotp: (userId: string, config?: HttpConfig) => http.delete<AdminUser>(`/Admin/Users/${seg(userId)}/Totp`, config),
  setPasswordPolicy: (policy: PasswordPolicy, config?: HttpConfig) => http.put<PasswordPolicy>('/Admin/PasswordPolicy', policy, config),
  getRegistrations: (query: { status?: Registration['status']; page?: number; pageSize?: number }, config?: HttpConfig) =>
    http.get<{ data: Registration[]; total: number }>('/Admin/Registrations', { ...config, params: { ...query, ...config?.params } }),
  approveRegistration: (id: string, deptId: string | null, config?: HttpConfig) =>
    http.post<Registration>(`/Admin/Registrations/${seg(id)}/Approve`, { deptId }, config),
  rejectRegistration: (id: string, reason: string, config?: HttpConfig) =>
    http.post<Registration>(`/Admin/Registrations/${seg(id)}/Reject`, { reason }, config),
  getSmsMessages: (phone?: string, config?: HttpConfig) =>
    http.get<SmsMessage[]>('/Admin/Sms', { ...config, params: { ...(phone ? { phone } : {}), ...config?.params } }),
  getOAuthClients: (config?: HttpConfig) => http.get<OAuthClient[]>('/Admin/Clients', config),
  registerOAuthClient: (body: { name: string; redirectUris: string[] }, config?: HttpConfig) => http.post<OAuthClient>('/Admin/Clients', body, config),
  removeOAuthClient: (clientId: string, config?: HttpConfig) => http.delete<null>(`/Admin/Clients/${seg(clientId)}`, config),
  setEnvironmentConfig: (body: EnvironmentConfig, config?: HttpConfig) => http.put<EnvironmentConfig>('/Admin/EnvironmentConfig', body, config),
  setBrandingName: (systemName: string, config?: HttpConfig) =>
    http.put<ClientBranding>('/Admin/Branding', { systemName_Client: systemName }, config),
  setBrandingImage: (kind: BrandingImageKind, file: Blob, config?: HttpConfig) => {
    const form = new FormData();
    form.append('file', file);
    return http.put<ClientBranding>(`/Admin/Branding/Images/${kind}`, form, { ...config, headers: { ...config?.headers, 'Content-Type': 'multipart/form-data' } });
  },
  clearBrandingImage: (kind: BrandingImageKind, config?: HttpConfig) => http.delete<ClientBranding>(`/Admin/Branding/Images/${kind}`, config),
  setAgreement: (kind: Agreement['kind'], content: string, config?: HttpConfig) =>
    http.put<Agreement>(`/Admin/Agreements/${kind}`, { content }, config),
  getPersonalUsage: (config?: HttpConfig) => http.get<PersonalUsage>('/Account/PersonalRootUsed', config),
  getPersonalPolicy: (config?: HttpConfig) => http.get<PersonalPolicy>('/Account/PersonalRootPolicy', config),
  getDiskStatus: (config?: HttpConfig) => http.get<DiskStatus>('/Admin/DiskSpace', config),
  getRootFolders: (space: 'Personal' | 'Public', config?: HttpConfig) =>
    http.get<Item[]>(`/User/Folders/${space}/RootFolders`, config),
  getItems: (parentId: string, query: ItemsQuery, config?: HttpConfig) =>
    http.get<FolderItems>(`/User/Folders/${encodeURIComponent(parentId)}/Items`, { ...config, params: { ...query, ...config?.params } }),
  createFile: (body: CreateFileBody, config?: HttpConfig) => http.post<Item>('/User/Files/CreateFile', body, config),
  // ---- file operations (docs/integration.md, "File operations (issue 3)") ----
  getFile: (id: string, config?: HttpConfig) => http.get<Item>(`/User/Files/${encodeURIComponent(id)}`, config),
  renameFile: (id: string, fileName: string, config?: HttpConfig) =>
    http.put<Item>(`/User/Files/Rename/${encodeURIComponent(id)}`, undefined, { ...config, params: { ...config?.params, fileName } }),
  deleteFiles: (ids: string[], config?: HttpConfig) => http.delete<{ deleted: number }>('/User/Files', { ...config, data: ids }),
  moveFiles: (body: MoveCopyBody, config?: HttpConfig) => http.post<OperationResult>('/User/Files/Move', body, config),
  copyFiles: (body: MoveCopyBody, config?: HttpConfig) => http.post<OperationResult>('/User/Files/Copy', body, config),
  getTreeNodes: (id: string, config?: HttpConfig) => http.get<TreeNode[]>(`/User/Folders/${encodeURIComponent(id)}/TreeNodes`, config),
  getFolderTree: (space: 'Personal' | 'Public', config?: HttpConfig) => http.get<TreeNode[]>(`/User/Folders/${space}/FolderTree`, config),
  getFileActions: (extension: string, config?: HttpConfig) =>
    http.get<FileActions>('/User/Files/Actions', { ...config, params: { ...config?.params, extension } }),
  getRecycle: (query: RecycleQuery, config?: HttpConfig) =>
    http.get<Paged<RecycleItem>>('/User/Recycle', { ...config, params: { ...query, ...config?.params } }),
  restoreRecycle: (ids: string[], config?: HttpConfig) => http.post<{ restored: Item[] }>('/User/Recycle/Restore', ids, config),
  purgeRecycle: (ids: string[], config?: HttpConfig) => http.delete<{ purged: number }>('/User/Recycle', { ...config, data: ids }),
  // ---- organisation (docs/integration.md, "Organisation") ----
  getDepartmentTree: (config?: HttpConfig) => http.get<DepartmentNode[]>('/User/Organizations/Departments/Tree', config),
  getOrgUsers: (query: OrgUsersQuery, config?: HttpConfig) =>
    http.get<Paged<OrgUser>>('/User/Organizations/Users', { ...config, params: { ...query, ...config?.params } }),
  getUserGroups: (config?: HttpConfig) => http.get<UserGroup[]>('/User/Organizations/Groups', config),
  // ---- access policies (docs/integration.md, "Rights: levels and how they are found") ----
  getFilePermissions: (fileId: string, config?: HttpConfig) =>
    http.get<Permission>('/User/FileAccessPolicies/FilePermissions', { ...config, params: { ...config?.params, fileId } }),
  getFolderPermission: (folderId: string, config?: HttpConfig) =>
    http.get<Permission>('/User/FileAccessPolicies/FolderPermission', { ...config, params: { ...config?.params, folderId } }),
  getPolicies: (id: string, validOnly: boolean, config?: HttpConfig) =>
    http.get<PolicyList>(`/User/FileAccessPolicies/${seg(id)}/Policies`, { ...config, params: { ...config?.params, validOnly } }),
  setPolicies: (body: SetPoliciesBody, config?: HttpConfig) => http.post<PolicyList>('/User/FileAccessPolicies/Policies', body, config),
  calcPermissions: (body: { fileIds: string[]; userId?: string }, config?: HttpConfig) =>
    http.post<Permission[]>('/User/FileAccessPolicies/Calc', body, config),
  // ---- versions ----
  getVersions: (fileId: string, config?: HttpConfig) => http.get<FileVersion[]>(`/User/Files/${seg(fileId)}/Versions`, config),
  rollbackVersion: (fileId: string, versionId: string, config?: HttpConfig) =>
    http.post<FileVersion[]>(`/User/Files/${seg(fileId)}/VersionRollback/${seg(versionId)}`, undefined, config),
  setMasterVersion: (versionId: string, config?: HttpConfig) =>
    http.post<FileVersion[]>(`/User/Files/Versions/${seg(versionId)}/SetMaster`, undefined, { ...config, params: { ...config?.params, isMaster: true } }),
  deleteVersion: (versionId: string, config?: HttpConfig) => http.delete<FileVersion[]>(`/User/Files/Versions/${seg(versionId)}`, config),
  // ---- shortcuts, size and order ----
  createShortcut: (body: { targetId: string; parentId: string }, config?: HttpConfig) =>
    http.post<Item>('/User/Folders/Shortcuts', body, config),
  calcFolderSize: (id: string, config?: HttpConfig) => http.post<FolderSize>(`/User/Folders/${seg(id)}/SizeCalc`, undefined, config),
  setSort: (itemId: string, targetId: string, position: 'before' | 'after', config?: HttpConfig) =>
    http.post<Item>('/User/Folders/SetSort', undefined, { ...config, params: { ...config?.params, folderId: itemId, targetId, position } }),
  // ---- sharing (api-contract.md, "Sharing") ----
  createShare: (body: CreateShareBody, config?: HttpConfig) => http.post<CreatedShare>('/User/Shares', body, config),
  getSentShares: (query: { page: number; pageSize: number }, config?: HttpConfig) =>
    http.get<Paged<ShareRecord>>('/User/Shares/Sent', { ...config, params: { ...query, ...config?.params } }),
  getReceivedShares: (query: { page: number; pageSize: number }, config?: HttpConfig) =>
    http.get<Paged<ShareRecord>>('/User/Shares/Received', { ...config, params: { ...query, ...config?.params } }),
  updateShare: (shareId: string, body: UpdateShareBody, config?: HttpConfig) =>
    http.put<ShareRecord & { accessKey: string }>(`/User/Shares/${seg(shareId)}`, body, config),
  cancelShares: (ids: string[], config?: HttpConfig) => http.delete<{ cancelled: number }>('/User/Shares', { ...config, data: ids }),
  getShareEvents: (shareId: string, query: { page: number; pageSize: number }, config?: HttpConfig) =>
    http.get<Paged<ShareEvent>>(`/User/Shares/${seg(shareId)}/Events`, { ...config, params: { ...query, ...config?.params } }),
  /** Items of a folder reached through 与我共享 (the share's rights, paths from the shared folder). */
  getSharedItems: (shareId: string, folderId: string, query: ItemsQuery, config?: HttpConfig) =>
    http.get<FolderItems>(`/User/Folders/${seg(folderId)}/Items`, { ...config, params: { ...query, shareId, ...config?.params } }),
  // ---- the external share page: no session, the key in the accessKey header ----
  getOutsource: (shareId: string, accessKey: string | null, config?: HttpConfig) =>
    http.get<OutsourceInfo>(`/Outsource/${seg(shareId)}`, {
      withToken: false,
      silentLogout: true,
      ...config,
      headers: { ...(config?.headers as Record<string, string> | undefined), ...(accessKey ? { accessKey } : {}) },
    }),
  getOutsourceItems: (shareId: string, accessKey: string, query: Partial<ItemsQuery> & { folderId?: string }, config?: HttpConfig) =>
    http.get<FolderItems>(`/Outsource/${seg(shareId)}/Items`, {
      withToken: false,
      silentLogout: true,
      ...config,
      params: { ...query, ...config?.params },
      headers: { ...(config?.headers as Record<string, string> | undefined), accessKey },
    }),
  // ---- preview (api-contract.md, "Preview") ----
  /** The preview payload; an external share's key goes in the accessKey header. */
  createComponentData: (body: PreviewBody, accessKey?: string | null, config?: HttpConfig) =>
    http.post<PreviewPayload>('/User/FileTransfer/CreateComponentData', body, {
      ...(accessKey ? { withToken: false, silentLogout: true } : {}),
      ...config,
      headers: { ...(config?.headers as Record<string, string> | undefined), ...(accessKey ? { accessKey } : {}) },
    }),
  /** GET a payload's data.url (text) or data.conversionUrl (office): a path from the site root, /api/… */
  getPreviewText: (url: string, config?: HttpConfig) => http.get<TextPreview>(url.replace(/^\/api/, ''), config),
  getPreviewConversion: (url: string, config?: HttpConfig) => http.get<PreviewConversion>(url.replace(/^\/api/, ''), config),
  // ---- 消息中心 (issue 28) ----
  getNotices: (query: NoticesQuery, config?: HttpConfig) => http.get<NoticePage>('/Notices', { ...config, params: { ...query, ...config?.params } }),
  getNoticeUnread: (config?: HttpConfig) => http.get<{ unread: number }>('/Notices/UnreadCount', config),
  readNotices: (ids: string[], config?: HttpConfig) => http.post<{ changed: number }>('/Notices/Read', { ids }, config),
  readAllNotices: (kind?: NoticeKind, config?: HttpConfig) => http.post<{ changed: number }>('/Notices/ReadAll', kind ? { kind } : {}, config),
  deleteNotices: (ids: string[], config?: HttpConfig) => http.delete<{ changed: number }>('/Notices', { ...config, data: { ids } }),
  /** the pushed notices of the signed-in user, until the stream ends (see readNoticeStream) */
  openNoticeStream: (handlers: NoticeStreamHandlers, signal: AbortSignal) => readNoticeStream(handlers, signal),
  // ---- approvals (api-contract.md, "Approvals") ----
  getWorkflowDefinitions: (config?: HttpConfig) => http.get<WorkflowDefinition[]>('/Workflow/Definitions', config),
  createWorkflowDefinition: (body: WorkflowDefinitionBody, config?: HttpConfig) =>
    http.post<WorkflowDefinition>('/Workflow/Definitions', body, config),
  updateWorkflowDefinition: (id: string, body: WorkflowDefinitionBody, config?: HttpConfig) =>
    http.put<WorkflowDefinition>(`/Workflow/Definitions/${seg(id)}`, body, config),
  deleteWorkflowDefinition: (id: string, config?: HttpConfig) => http.delete<{ id: string }>(`/Workflow/Definitions/${seg(id)}`, config),
  getWorkflowRoute: (id: string, config?: HttpConfig) => http.get<WorkflowRouteStep[]>(`/Workflow/Definitions/${seg(id)}/Route`, config),
  startWorkflow: (body: StartWorkflowBody, config?: HttpConfig) => http.post<{ instanceId: string }>('/Workflow/Instances', body, config),
  getWorkflowInstances: (query: WorkflowInstancesQuery, config?: HttpConfig) =>
    http.get<Paged<WorkflowInstanceRow>>('/Workflow/Instances', { ...config, params: { ...query, ...config?.params } }),
  getWorkflowCounts: (config?: HttpConfig) => http.get<WorkflowCounts>('/Workflow/Counts', config),
  getWorkflowInstance: (id: string, config?: HttpConfig) => http.get<WorkflowInstanceDetail>(`/Workflow/Instances/${seg(id)}`, config),
  actOnWorkflow: (id: string, action: WorkflowActionName, body: WorkflowActionBody, config?: HttpConfig) =>
    http.post<WorkflowInstanceDetail>(`/Workflow/Instances/${seg(id)}/${action}`, body, config),
  /** 催办 by the initiator: the waiting approvers, each at most once an hour (else 429, code 42901) */
  remindWorkflow: (id: string, body: { comment?: string }, config?: HttpConfig) =>
    http.post<WorkflowRemindResult>(`/Workflow/Instances/${seg(id)}/Remind`, body, config),
  // ---- exchange space and ferry (api-contract.md, "Approvals, exchange space and ferry") ----
  getFerryZones: (config?: HttpConfig) => http.get<FerryZones>('/Ferry/Zones', config),
  createFerryTask: (body: CreateFerryTaskBody, config?: HttpConfig) => http.post<CreatedFerryTask>('/Ferry/FerryTasks', body, config),
  getFerryTasks: (query: FerryTasksQuery, config?: HttpConfig) =>
    http.get<Paged<FerryTaskRow>>('/Ferry/FerryTasks', { ...config, params: { ...query, ...config?.params } }),
  getFerryTask: (taskId: string, config?: HttpConfig) => http.get<FerryTaskDetail>(`/Ferry/FerryTasks/${seg(taskId)}`, config),
  cancelFerryTask: (taskId: string, config?: HttpConfig) => http.post<FerryTaskDetail>(`/Ferry/FerryTasks/${seg(taskId)}/Cancel`, {}, config),
  previewFerryFile: (body: FerryPreviewBody, config?: HttpConfig) => http.post<FerryPreview>('/Ferry/FerryFiles/PreviewInProcessing', body, config),
  getFerryInbox: (query: { page?: number; pageSize?: number }, config?: HttpConfig) =>
    http.get<Paged<FerryInboxItem>>('/Ferry/Inbox', { ...config, params: { ...query, ...config?.params } }),
  removeFerryInbox: (id: string, config?: HttpConfig) => http.delete<{ id: string }>(`/Ferry/Inbox/${seg(id)}`, config),
  /** the URL of a received package's file (index) or, without one, of all its files as a zip */
  ferryInboxDownloadPath: (id: string, index?: number) => `/Ferry/Inbox/${seg(id)}/Download${index === undefined ? '' : `?index=${index}`}`,
  getFerrySettings: (config?: HttpConfig) => http.get<FerrySettingsView>('/Ferry/Settings', config),
  saveFerrySettings: (body: FerrySettings, config?: HttpConfig) => http.put<FerrySettingsView>('/Ferry/Settings', body, config),
  getFerryAudit: (query: FerryAuditQuery, config?: HttpConfig) =>
    http.get<Paged<FerryAuditRecord>>('/Ferry/Audit', { ...config, params: { ...query, ...config?.params } }),
  verifyFerryAudit: (config?: HttpConfig) => http.get<FerryAuditVerify>('/Ferry/Audit/Verify', config),
  getFerryStats: (query: { from?: string; to?: string; bucket: FerryStatsBucket }, config?: HttpConfig) =>
    http.get<FerryStats>('/Ferry/Audit/Stats', { ...config, params: { ...query, ...config?.params } }),
  /** the URL of the audit export (format csv or xlsx) for the same filters */
  ferryAuditExportPath: (format: 'csv' | 'xlsx', query: Omit<FerryAuditQuery, 'page' | 'pageSize'>) =>
    `/Ferry/Audit/Export?${new URLSearchParams({ format, ...Object.fromEntries(Object.entries(query).filter(([, v]) => v)) } as Record<string, string>).toString()}`,
  // ---- favourites and tags (api-contract.md, "Favourites and tags") ----
  getFavoriteCategories: (config?: HttpConfig) => http.get<FavoriteCategory[]>('/User/Favorites/Categories', config),
  saveFavoriteCategory: (body: FavoriteCategoryBody, config?: HttpConfig) =>
    http.post<FavoriteCategory>('/User/Favorites/Categories', body, config),
  deleteFavoriteCategory: (id: number, config?: HttpConfig) =>
    http.delete<{ moved: number }>(`/User/Favorites/Categories/${id}`, config),
  /** categoryId -1 (ALL_FAVORITES) lists every category */
  getFavorites: (categoryId: number, query: { page: number; pageSize: number }, config?: HttpConfig) =>
    http.get<Paged<FavoriteItem>>(`/User/Favorites/${categoryId}`, { ...config, params: { ...query, ...config?.params } }),
  addFavorites: (body: FavoritesBody, config?: HttpConfig) => http.post<{ added: number }>('/User/Favorites', body, config),
  moveFavorites: (body: FavoritesBody, config?: HttpConfig) => http.put<{ moved: number }>('/User/Favorites/Move', body, config),
  removeFavorites: (fileIds: string[], config?: HttpConfig) =>
    http.delete<{ removed: number }>('/User/Favorites', { ...config, data: fileIds }),
  getTags: (config?: HttpConfig) => http.get<Tag[]>('/User/Tags', config),
  createTag: (body: TagBody, config?: HttpConfig) => http.post<Tag>('/User/Tags', body, config),
  updateTag: (id: string, body: TagBody, config?: HttpConfig) => http.put<Tag>(`/User/Tags/${seg(id)}`, body, config),
  deleteTag: (id: string, config?: HttpConfig) => http.delete<{ id: string }>(`/User/Tags/${seg(id)}`, config),
  addTagsToFiles: (body: TagFilesBody, config?: HttpConfig) => http.post<{ added: number }>('/User/Tags/Files', body, config),
  removeTagsFromFiles: (body: TagFilesBody, config?: HttpConfig) =>
    http.delete<{ removed: number }>('/User/Tags/Files', { ...config, data: body }),
  getTagFiles: (id: string, query: { page: number; pageSize: number }, config?: HttpConfig) =>
    http.get<Paged<Item>>(`/User/Tags/${seg(id)}/Files`, { ...config, params: { ...query, ...config?.params } }),
  // ---- search (api-contract.md, "Search") ----
  searchFiles: (query: SearchQuery, config?: HttpConfig) =>
    http.get<SearchResult>('/User/Search/Files', { ...config, params: { ...query, ...config?.params } }),
  searchContent: (query: SearchQuery, config?: HttpConfig) =>
    http.get<SearchResult>('/User/Search/Content', { ...config, params: { ...query, ...config?.params } }),
};

export type Api = typeof api;
