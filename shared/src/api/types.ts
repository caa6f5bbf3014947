// Types of the 云文档 HTTP API and of the web runtime wiring. Type-only: the server imports
// this file with `import type`, so nothing here may exist at run time.

/** Every /api call answers this envelope; `code` 200 means success. */
export interface ApiEnvelope<T = unknown> {
  code: number;
  result: T;
  message: string | null;
}

/** The signed-in user (spec section 3), stored at sign-in. */
export interface UserInfo {
  userId: string;
  userName: string;
  nickName: string;
  avatar: string;
  deptName: string;
  token: string;
  isTagAdmin: boolean;
  isDocAdmin: boolean;
  isLdapUser: boolean;
  allowBackendLogin: boolean;
  allowRepositoryLogin: boolean;
  isFlowAdmin: boolean;
  /** a system administrator (not among the spec's fields): the user menu offers 系统管理; absent in sessions stored before it existed */
  isAdmin?: boolean;
  /** administers some department: 系统管理 with 用户 and 部门 only */
  isDeptAdmin?: boolean;
  /** may read the record of administrators' actions */
  isAuditAdmin?: boolean;
}

/** POST /api/login body. */
export interface LoginBody {
  userName: string;
  password: string;
  mode: 'password';
}

/**
 * POST /api/login result. On a plain success every user-info field is present and the
 * flags are false; when a second step is required the matching flag is true, an
 * `actionToken` is given and there is no `token`.
 */
export interface LoginResult extends Partial<UserInfo> {
  jwtId?: string;
  showGuide?: boolean;
  passwordReset: boolean;
  totpBind: boolean;
  totpCode: boolean;
  actionToken?: string;
  totpUri?: string;
  /** the key of totpUri, for typing it into an authenticator by hand */
  totpSecret?: string;
  /** why a new password is needed (passwordReset) */
  message?: string;
}

/** POST /api/login/ResetPassword body. */
export interface ResetPasswordBody {
  actionToken: string;
  password: string;
}

/** POST /api/login/TotpBind and /api/login/TotpCode body. */
export interface TotpBody {
  actionToken: string;
  code: string;
}

/** GET /api/account/Security */
export interface AccountSecurity {
  totpBound: boolean;
  /** required by the policy or an administrator: cannot be removed */
  totpRequired: boolean;
  passwordChangedAt: string;
  passwordExpiresAt: string | null;
  /** why the password is changed elsewhere (a directory account); null: 修改密码 works here */
  passwordElsewhere: string | null;
}

/** POST /api/account/Totp/Begin */
export interface TotpSetup {
  actionToken: string;
  totpUri: string;
  totpSecret: string;
}

/** GET /api/account/Sessions */
export interface MySession {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  ip: string;
  device: string;
}

/** POST /api/User/Register body. */
export interface RegisterBody {
  phone: string;
  code: string;
  userName: string;
  nickName: string;
  password: string;
  department?: string;
  reason?: string;
}

/** A registration application (the applicant's answer, and the administrators' list). */
export interface Registration {
  id: string;
  phone: string;
  userName: string;
  nickName: string;
  department: string;
  reason: string;
  status: 'pending' | 'approved' | 'rejected';
  createdAt: string;
  decidedAt: string | null;
  decisionNote: string;
  userId: string | null;
}

/** GET /api/OAuth/Request: a client's authorization request as the page shows it. */
export interface AuthorizeInfo {
  clientId: string;
  clientName: string;
  redirectUri: string;
  scopes: { name: string; description: string }[];
}

/** GET /api/account/Clients */
export interface AuthorizedClient {
  clientId: string;
  name: string;
  scopes: string[];
  authorizedAt: string;
  lastUsedAt: string;
}

/** POST /api/account/changepassword body. */
export interface ChangePasswordBody {
  oldPassword: string;
  newPassword: string;
}

/** Temporary login record read at start-up through the `temporarily-token` key. */
export interface TemporaryLogin {
  accessToken: string;
  accessUserInfo: Partial<UserInfo>;
}

export interface FeaturePolicy {
  personalSpace: boolean;
  publicSpace: boolean;
  workflow: boolean;
  ferrySpaces: boolean;
}

export interface EnvironmentConfig {
  personalFolderName: string;
  publicFolderName: string;
}

export interface PasswordPolicy {
  minLength: number;
  requireDigit: boolean;
  requireLetter: boolean;
  requireSymbol: boolean;
  requireMixedCase: boolean;
  /** a new password may not be any of the last N */
  historyCount: number;
  /** 0: passwords never expire */
  expiryDays: number;
  /** 0: no lockout */
  lockoutThreshold: number;
  lockoutMinutes: number;
  totpRequired: boolean;
  /** people without TOTP may connect WebDAV with their account password (else application passwords only) */
  webdavAccountPassword: boolean;
}

export interface ClientBranding {
  systemName_Client: string;
  favroiteIcon: string;
  login_Background: string;
  logo_Dark: string;
  logo_Dark_Large: string;
  logo_Light: string;
}

/** The pictures of the client branding an administrator sets (PUT /api/Admin/Branding/Images/{kind}). */
export type BrandingImageKind = 'favicon' | 'logoLight' | 'logoDark' | 'logoDarkLarge' | 'loginBackground';

/** GET /api/Client/Agreements/{kind}: content is plain text; blank lines part paragraphs, "# " starts a heading, "- " a list item. */
export interface Agreement {
  kind: 'service' | 'privacy';
  title: string;
  content: string;
  /** null: the built-in text */
  updatedAt: number | null;
}

/** A user in the administrators' list (GET /api/Admin/Users): ./admin.ts. */
export type { AdminUser } from './admin';

/** A client registered for authorization (GET /api/Admin/Clients). */
export interface OAuthClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  createdAt: string;
}

/** A text message kept by the log sender (GET /api/Admin/Sms). */
export interface SmsMessage {
  phone: string;
  text: string;
  createdAt: string;
}

/** The user's role list: gates personal and enterprise files. */
export interface Roles {
  personalSpace: boolean;
  publicSpace: boolean;
}

export type MenuName = 'file' | 'workflow' | 'swapSpace' | 'ferry' | 'setting';

export interface MenuEntry {
  name: MenuName;
  path: string;
  title: string;
  isShow: boolean;
}

/** GET /api/User/Home */
export interface HomeInfo {
  baseHome: string;
  roles: Roles;
  menus: MenuEntry[];
}

export type ItemType = 'folder' | 'file' | 'shortcut';
/** 1 enterprise space, 2 personal space (first segment of an idPath). */
export type SpaceType = 1 | 2;

export interface Item {
  id: string;
  parentId: string | null;
  name: string;
  type: ItemType;
  extension: string;
  size: number;
  idPath: string;
  namePath: string;
  spaceType: SpaceType;
  ownerId: string;
  ownerName: string;
  createdAt: string;
  updatedAt: string;
  isFavorite: boolean;
  /** the caller's own tags and the public ones on this item */
  tags: TagRef[];
  permissions: string[];
  /** shortcuts: the item pointed at (null for other items) */
  targetId?: string | null;
  targetType?: 'folder' | 'file' | null;
  /** null when the target is gone or the caller cannot see it */
  targetIdPath?: string | null;
}

export interface Paged<T> {
  data: T[];
  total: number;
}

/** GET /api/User/Folders/{parentId}/Items */
export interface FolderItems {
  folder: Item;
  items: Paged<Item>;
}

export interface ItemsQuery {
  page: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
  keyword?: string;
}

/** POST /api/User/Files/CreateFile body. */
export interface CreateFileBody {
  parentId: string;
  name: string;
  type: 'folder' | 'file';
}

export type RemoteName = 'files' | 'workflow' | 'swapspace' | 'ferry' | 'share';

/** One remote in runtime-config.json: its federation name and its mf-manifest.json URL. */
export interface RemoteEntry {
  name: RemoteName;
  entry: string;
}

/** GET /runtime-config.json */
export interface RuntimeConfig {
  mode: 'full' | 'simple';
  appTitle: string;
  apiUrl: string;
  apiUrlPrefix: string;
  fileUrl: string;
  workflowFileNumber: number;
  remotes: RemoteEntry[];
  /** DingTalk sign-in, when the server has it configured */
  dingtalk?: { appId: string; authorizeUrl: string; /** redirect (default): to DingTalk and back; qr: DingTalk's QR code inside the login page */ mode?: 'redirect' | 'qr'; /** qr: the address of DingTalk's login script (DTFrameLogin) */ sdkUrl?: string } | null;
}

/** One side-menu entry that a remote publishes in its `./meta` module. */
export interface RemoteMenuItem {
  key: string;
  path: string;
  title: string;
  /** name of an @ant-design/icons icon, e.g. 'FolderOutlined' */
  icon?: string;
  /** the entry shows only when this feature-policy flag is on */
  feature?: keyof FeaturePolicy;
}
/** Same as RemoteMenuItem (the name docs/integration.md uses). */
export type MenuItem = RemoteMenuItem;

/** Default export of a remote's `./meta` module. */
export interface RemoteMeta {
  name: RemoteName;
  title: string;
  menu: RemoteMenuItem[];
  /**
   * The shell ↔ remote contract version the remote was built against (shared/src/contract.ts).
   * Absent in remotes built before the contract had a number (version 1).
   */
  contract?: number;
}

/** GET /api/User/FileTransfer/FileUploadOptions */
export interface FileUploadOptions {
  chunkCheck: boolean;
  chunkCheckAlgorithm: string;
  chunkSize: number;
  maxFileCount: number;
  maxFileSize: number;
  rapidUpload: boolean;
}

/** /json/config.json, emitted by the shell build. */
export interface VersionConfig {
  VITE_GLOB_APP_VERSION: string;
}

// ---- File operations (docs/integration.md, "File operations (issue 3)") ----------------

/** A folder in the folder tree: GET /api/User/Folders/{id}/TreeNodes, …/FolderTree. */
export interface TreeNode {
  id: string;
  parentId: string | null;
  name: string;
  idPath: string;
  namePath: string;
  hasChildren: boolean;
}

/** One strategy the user may pick for a name conflict: 0 新版本, 1 覆盖, 2 重命名, 3 跳过. */
export interface ConflictStrategyOption {
  name: string;
  value: 0 | 1 | 2 | 3;
}

/** Result of POST /api/User/Files/Move and /Copy. */
export interface OperationResult {
  conflictType: 0 | 1;
  conflictInfo: { fileName: string } | null;
  conflictStrategies: ConflictStrategyOption[];
  items: Item[];
}

/** Body of POST /api/User/Files/Move and /Copy. */
export interface MoveCopyBody {
  ids: string[];
  targetId: string;
  strategy?: 0 | 1 | 2 | 3 | null;
  newFileName?: string;
}

/** An item in the recycle bin: GET /api/User/Recycle. */
export interface RecycleItem extends Item {
  deletedAt: string;
  expiresAt: string;
  /** namePath of the original parent folder */
  originalPath: string;
}

/** GET /api/User/Recycle query. */
export interface RecycleQuery {
  page: number;
  pageSize: number;
}

/** GET /api/User/Files/Actions?extension= */
export interface FileActions {
  previewable: boolean;
  editable: boolean;
  actions: string[];
}

// ---- Organisation (docs/integration.md, "Organisation") -------------------------------

/** GET /api/User/Organizations/Departments/Tree: a department with its sub-departments. */
export interface DepartmentNode {
  id: string;
  name: string;
  parentId: string | null;
  /** ids from the root department to this one, `/`-separated */
  path?: string;
  children: DepartmentNode[];
}

/** A user of the organisation: GET /api/User/Organizations/Users. */
export interface OrgUser {
  userId: string;
  userName: string;
  nickName: string;
  deptId: string | null;
  deptName: string;
}

/** GET /api/User/Organizations/Users query; `deptId` includes the sub-departments. */
export interface OrgUsersQuery {
  keyword?: string;
  deptId?: string;
  page?: number;
  pageSize?: number;
}

/** GET /api/User/Organizations/Groups */
export interface UserGroup {
  id: string;
  name: string;
  memberCount: number;
}

// ---- Access policies, versions, shortcuts, size and order (docs/integration.md) --------

/** 0 无权限, 1 预览, 2 下载, 3 上传/编辑, 4 管理. */
export type AccessLevel = 0 | 1 | 2 | 3 | 4;
/** 1 user, 2 department (with its sub-departments), 3 group. */
export type SubjectType = 1 | 2 | 3;

/** GET /api/User/FileAccessPolicies/FilePermissions, /FolderPermission; POST …/Calc items. */
export interface Permission {
  fileId: string;
  level: AccessLevel;
  permissions: string[];
}

export interface AccessPolicy {
  id: string;
  subjectType: SubjectType;
  subjectId: string;
  subjectName: string;
  level: AccessLevel;
  createdAt: string;
}

/** GET /api/User/FileAccessPolicies/{id}/Policies, POST …/Policies result. */
export interface PolicyList {
  fileId: string;
  inherited: boolean;
  inheritedFrom: { id: string; name: string; namePath: string } | null;
  policies: AccessPolicy[];
}

/** POST /api/User/FileAccessPolicies/Policies body. */
export interface SetPoliciesBody {
  fileId: string;
  policies: { subjectType: SubjectType; subjectId: string; level: AccessLevel }[];
}

/** GET /api/User/Files/{id}/Versions items. */
export interface FileVersion {
  id: string;
  fileId: string;
  version: number;
  size: number;
  md5: string | null;
  isMaster: boolean;
  creatorId: string;
  creatorName: string;
  createdAt: string;
}

/** POST /api/User/Folders/{id}/SizeCalc */
export interface FolderSize {
  id: string;
  size: number;
  fileCount: number;
  folderCount: number;
}

// ---- Sharing (api-contract.md, "Sharing") -------------------------------------------------

/** 1 internal (to users, departments, groups), 2 external (a link /s/{shareId} with a 提取码). */
export type ShareType = 1 | 2;
/** 1 preview, 2 download, 3 upload and edit. */
export type ShareLevel = 1 | 2 | 3;
/** 1 valid, 2 expired or used up, 3 cancelled. */
export type ShareStatus = 1 | 2 | 3;

export interface ShareTarget {
  /** 1 user, 2 department (with its sub-departments), 3 group */
  type: SubjectType;
  id: string;
}

export interface ShareTargetView extends ShareTarget {
  name: string;
}

/** POST /api/User/Shares body. */
export interface CreateShareBody {
  fileIds: string[];
  shareType: ShareType;
  level: ShareLevel;
  /** `YYYY-MM-DD HH:mm:ss`, or null for never */
  expireAt: string | null;
  targets?: ShareTarget[];
  /** external: blank makes the server choose */
  accessKey?: string | null;
  downloadLimit?: number | null;
}

export interface CreatedShare {
  shareId: string;
  /** `/s/{shareId}` for external shares, '' for internal ones */
  url: string;
  /** the 提取码, given this once ('' for internal shares) */
  accessKey: string;
}

export interface ShareRecord {
  shareId: string;
  shareType: ShareType;
  level: ShareLevel;
  items: Array<Pick<Item, 'id' | 'name' | 'extension' | 'size'> & { type: string }>;
  ownerId: string;
  ownerName: string;
  targets: ShareTargetView[];
  expireAt: string | null;
  createdAt: string;
  visitCount: number;
  downloadCount: number;
  downloadLimit: number | null;
  status: ShareStatus;
  url: string;
}

/** PUT /api/User/Shares/{shareId} body: what is given changes. */
export interface UpdateShareBody {
  level?: ShareLevel;
  expireAt?: string | null;
  targets?: ShareTarget[];
  /** '' makes a new random key; null or absent keeps it */
  accessKey?: string | null;
  downloadLimit?: number | null;
}

export interface ShareEvent {
  kind: 'visit' | 'download' | 'upload';
  userName: string;
  address: string;
  itemName: string;
  createdAt: string;
}

/** GET /api/Outsource/{shareId} */
export interface OutsourceInfo {
  shareId: string;
  ownerName: string;
  /** '' until the key is right */
  name: string;
  needKey: boolean;
  expireAt: string | null;
  level: ShareLevel;
}

// ---- Approvals (api-contract.md, "Approvals"; docs/integration.md, "Approvals") -----------

/** 1 审批中, 2 已通过, 3 已驳回, 4 已撤销 */
export type WorkflowStatus = 1 | 2 | 3 | 4;
/** 依次 (one after another), 会签 (all must approve), 或签 (any one approves) */
export type WorkflowStepMode = 'sequential' | 'all' | 'any';

/**
 * Who approves a step (or is copied): named users, a department's leader, the members of a
 * department (with its sub-departments) or of a group, the initiator's department leader, or
 * people the initiator chooses when submitting. `name` is filled in by the server.
 */
export type WorkflowApproverRule =
  | { type: 'user'; id: string; name?: string }
  | { type: 'deptLeader'; id: string; name?: string }
  | { type: 'deptMembers'; id: string; name?: string }
  | { type: 'groupMembers'; id: string; name?: string }
  | { type: 'initiatorLeader'; name?: string }
  | { type: 'initiatorChoice'; name?: string };

export type WorkflowFieldType = 'text' | 'textarea' | 'number' | 'date' | 'select';

/** A field of a definition's form. */
export interface WorkflowFieldDef {
  /** unique within the definition: letters, digits, _ */
  key: string;
  label: string;
  type: WorkflowFieldType;
  required: boolean;
  /** select: the choices */
  options?: string[];
}

export interface WorkflowStepDef {
  name: string;
  mode: WorkflowStepMode;
  approvers: WorkflowApproverRule[];
}

/** 撤销: while no approver has acted (untouched), any time while processing, or never. */
export type WorkflowRevokeRule = 'untouched' | 'processing' | 'never';

/** POST /api/Workflow/Definitions and PUT /api/Workflow/Definitions/{id} body. */
export interface WorkflowDefinitionBody {
  name: string;
  category: string;
  description: string;
  enabled: boolean;
  fields: WorkflowFieldDef[];
  /** files may be attached (at most workflowFileNumber) */
  allowFiles: boolean;
  steps: WorkflowStepDef[];
  cc: WorkflowApproverRule[];
  revoke: WorkflowRevokeRule;
  /**
   * 自动催办: remind the approvers after this many hours without action (0 off, 1–168 whole
   * hours); absent: 0 for a new flow, unchanged on an edit
   */
  autoRemindHours?: number;
}

/** GET /api/Workflow/Definitions: enabled definitions, and for flow admins every one. */
export interface WorkflowDefinition extends WorkflowDefinitionBody {
  id: string;
  autoRemindHours: number;
  /** bumped by every change; instances keep the version they started with */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface WorkflowUser {
  userId: string;
  name: string;
}

/** GET /api/Workflow/Definitions/{id}/Route: the steps resolved for the caller as initiator. */
export interface WorkflowRouteStep {
  name: string;
  mode: WorkflowStepMode;
  approvers: WorkflowUser[];
  /** the initiator picks (some of) the approvers of this step: `chosen` in the start body */
  choose: boolean;
  /** nobody to approve: the step goes to the flow admins (listed in approvers) */
  fallback: boolean;
}

/** POST /api/Workflow/Instances body. */
export interface StartWorkflowBody {
  definitionId: string;
  title: string;
  form: Record<string, string | number | null>;
  fileIds: string[];
  /** for steps whose approvers the initiator chooses: step index → user ids */
  chosen?: Record<string, string[]>;
}

export type WorkflowBox = 'todo' | 'done' | 'mine' | 'cc';

/** GET /api/Workflow/Instances query. */
export interface WorkflowInstancesQuery {
  box: WorkflowBox;
  status?: WorkflowStatus;
  definitionId?: string;
  /** YYYY-MM-DD, on the day the instance started or later */
  from?: string;
  /** YYYY-MM-DD, on the day the instance started or earlier */
  to?: string;
  keyword?: string;
  page: number;
  pageSize: number;
}

/** A row of GET /api/Workflow/Instances. */
export interface WorkflowInstanceRow {
  instanceId: string;
  /** the instance number shown on the stamp, e.g. SP20261124000012 */
  number: string;
  title: string;
  definitionId: string;
  definitionName: string;
  category: string;
  initiator: WorkflowUser;
  status: WorkflowStatus;
  /** the step being decided ('' once ended) */
  currentStep: string;
  /** who must act now */
  pending: WorkflowUser[];
  createdAt: string;
  updatedAt: string;
  /** when it ended; null while processing */
  finishedAt: string | null;
  /** the module that started it ('' for a request made on the 流程 pages; 'ferry' for a ferry task) */
  source: string;
  /** the starting module's own id (the ferry task's taskId) */
  sourceId: string;
}

/** GET /api/Workflow/Counts: the numbers on the tabs (todo also on the menu). */
export interface WorkflowCounts {
  todo: number;
  done: number;
  mine: number;
  cc: number;
}

export type WorkflowTaskStatus = 'waiting' | 'pending' | 'approved' | 'rejected' | 'transferred' | 'returned' | 'cancelled';

export interface WorkflowStepView {
  name: string;
  mode: WorkflowStepMode;
  fallback: boolean;
  /** done, current (being decided), waiting (later), or skipped by the end of the instance */
  state: 'done' | 'current' | 'waiting' | 'closed';
  tasks: Array<WorkflowUser & { status: WorkflowTaskStatus; from: WorkflowUser | null }>;
}

export type WorkflowActionKind = 'start' | 'approve' | 'reject' | 'return' | 'transfer' | 'addApprover' | 'revoke' | 'comment' | 'finish';

/** One line of the timeline (the action log, never rewritten). */
export interface WorkflowAction {
  id: string;
  kind: WorkflowActionKind;
  /** null for the engine itself (kind finish) */
  user: WorkflowUser | null;
  step: number;
  stepName: string;
  comment: string;
  /** 转交 / 加签: the other person */
  target: WorkflowUser | null;
  /** 退回: the step returned to */
  toStep: number | null;
  /** finish: the end */
  status: WorkflowStatus | null;
  createdAt: string;
}

export interface WorkflowFile {
  fileId: string;
  versionId: string;
  name: string;
  extension: string;
  size: number;
  /** GET it (signed-in, cookie or bearer) to view the attached version inline; '' once no longer viewable */
  url: string;
}

/** GET /api/Workflow/Instances/{id} */
export interface WorkflowInstanceDetail extends WorkflowInstanceRow {
  /** the form as the definition version it started with labels it */
  fields: Array<{ key: string; label: string; type: WorkflowFieldType; value: string | number | null }>;
  files: WorkflowFile[];
  steps: WorkflowStepView[];
  cc: WorkflowUser[];
  timeline: WorkflowAction[];
  /** what the caller may do now */
  can: {
    approve: boolean;
    reject: boolean;
    /** 退回: the steps the caller may return to (empty: not allowed) */
    returnTo: number[];
    transfer: boolean;
    addApprover: boolean;
    revoke: boolean;
    comment: boolean;
    /** 催办: the initiator, while it runs */
    remind: boolean;
  };
}

/** POST /api/Workflow/Instances/{id}/Remind: who was reminded now, and who was within the hour (and from when again). */
export interface WorkflowRemindResult {
  reminded: string[];
  /** at: yyyy-MM-dd HH:mm:ss */
  later: Array<{ name: string; at: string }>;
}

/** POST /api/Workflow/Instances/{id}/{Approve|Reject|Revoke|Transfer|Return|AddApprover|Comment} body. */
export interface WorkflowActionBody {
  comment?: string;
  /** Transfer and AddApprover: the other person */
  userId?: string;
  /** Return: the step to go back to */
  toStep?: number;
}

// ---- Exchange space and ferry (api-contract.md, "Approvals, exchange space and ferry";
// docs/integration.md, "File ferry") ------------------------------------------------------------

/**
 * A ferry task's state. 扫描中 scanning, 已拦截 blocked (a check failed), 审批中 pending, 已批准
 * approved (about to be packed), 传输中 transferring (sent, not yet confirmed by the other zone),
 * 已送达 delivered, 已下载 downloaded, 已过期 expired, 已移除 removed, 已驳回 rejected (or revoked by
 * an approver), 已取消 cancelled (by the requester), 传输失败 failed (the approved bytes could not
 * be sent, e.g. changed on disk after approval), 被拒收 refused (the receiving zone's checks
 * refused the package: statusReason says which zone and why, e.g. 外网拒收：文件哈希不符（a.pdf）).
 */
export type FerryTaskStatus =
  | 'scanning'
  | 'blocked'
  | 'pending'
  | 'approved'
  | 'transferring'
  | 'delivered'
  | 'downloaded'
  | 'expired'
  | 'removed'
  | 'rejected'
  | 'cancelled'
  | 'failed'
  | 'refused';

/** The three tabs of 我的摆渡: processing (scanning…transferring), completed (delivered…removed), rejected (blocked, rejected, cancelled, failed, refused). */
export type FerryTab = 'processing' | 'completed' | 'rejected';

/** The checks, each switched on or off in the settings. */
export type FerryCheckName = 'type' | 'size' | 'count' | 'keyword' | 'antivirus';

export interface FerryCheckResult {
  name: FerryCheckName;
  /** 'passed', 'failed' (blocks the task), or 'skipped' (switched off, or ClamAV missing: message says which) */
  result: 'passed' | 'failed' | 'skipped';
  /** Chinese, e.g. 实际类型为 exe，不在允许的类型中 */
  message: string;
}

/** A keyword found in a file's text, with the text around its first occurrence. */
export interface FerryKeywordHit {
  keyword: string;
  count: number;
  /** up to 40 characters either side of the first occurrence */
  context: string;
}

export interface FerryTaskFile {
  /** the file's id in its space (approvers preview with it) */
  fileId: string;
  name: string;
  size: number;
  /** hex SHA-256 of the version submitted (the one that crosses) */
  sha256: string;
  /** the real type by content (magic bytes), e.g. pdf, docx, png, txt, exe; '' when unknown */
  detectedType: string;
  checks: FerryCheckResult[];
  keywordHits: FerryKeywordHit[];
  /** some check failed */
  blocked: boolean;
}

export interface FerryUser {
  userId: string;
  name: string;
}

/** GET /api/Ferry/FerryTasks rows. Times are YYYY-MM-DD HH:mm:ss. */
export interface FerryTaskRow {
  taskId: string;
  /** shown to people, e.g. BD20261124000012 */
  number: string;
  fromZone: string;
  targetZone: string;
  /** user names on the receiving side */
  recipients: string[];
  reason: string;
  status: FerryTaskStatus;
  requester: FerryUser;
  fileCount: number;
  totalSize: number;
  /** the approval ('' when none started: blocked before approval) */
  instanceId: string;
  /** why it is blocked, rejected, cancelled or failed ('' otherwise) */
  statusReason: string;
  createdAt: string;
  updatedAt: string;
  /** when the receiving side confirmed it ('' before) */
  deliveredAt: string;
  /** when a recipient first downloaded it ('' before) */
  downloadedAt: string;
  /** when the received files expire on the other side ('' until sent) */
  expiresAt: string;
}

export interface FerryTaskEvent {
  at: string;
  /** Chinese, e.g. 已提交，开始检查 / 审批通过 / 已送达外网 */
  text: string;
  actorName: string;
}

/** GET /api/Ferry/FerryTasks/{taskId}: for the requester, the approvers of its approval, and administrators. */
export interface FerryTaskDetail extends FerryTaskRow {
  files: FerryTaskFile[];
  events: FerryTaskEvent[];
  can: {
    /** the requester, while scanning or pending */
    cancel: boolean;
    /** PreviewInProcessing: the approvers and administrators while pending */
    preview: boolean;
  };
}

export interface FerryTasksQuery {
  status: FerryTab;
  keyword?: string;
  page?: number;
  pageSize?: number;
}

/** POST /api/Ferry/FerryTasks body. */
export interface CreateFerryTaskBody {
  fileIds: string[];
  targetZone: string;
  /** user names on the receiving side (at least one) */
  recipients: string[];
  reason: string;
}

/** POST /api/Ferry/FerryTasks reply: instanceId is '' when a check blocked the task. */
export interface CreatedFerryTask {
  taskId: string;
  instanceId: string;
  status: FerryTaskStatus;
}

/** POST /api/Ferry/FerryFiles/PreviewInProcessing body. */
export interface FerryPreviewBody {
  taskId: string;
  fileId: string;
}

/** POST /api/Ferry/FerryFiles/PreviewInProcessing reply: a short-lived URL that shows the submitted version inline. */
export interface FerryPreview {
  url: string;
  name: string;
  detectedType: string;
}

/** GET /api/Ferry/Zones: this deployment's zone and where a user may send to. */
export interface FerryZones {
  zone: string;
  /** zones this one may send to now (a configured peer and an enabled direction) */
  targets: string[];
  /** personal-space folder the ferry page uploads new files into */
  uploadFolderId: string;
}

/** One direction of the allowed-direction matrix. */
export interface FerryDirection {
  from: string;
  to: string;
  enabled: boolean;
  /** the approval flow (workflow definition id) for this direction; '' uses 文件摆渡审批 */
  definitionId: string;
}

/** GET|PUT /api/Ferry/Settings (administrators). Filters switch on and off one by one. */
export interface FerrySettings {
  directions: FerryDirection[];
  typeCheck: boolean;
  /** real types allowed (lower-case keys such as pdf, docx, xlsx, png, txt, zip) */
  allowedTypes: string[];
  sizeCheck: boolean;
  /** bytes, per file */
  maxFileSize: number;
  /** bytes, per task */
  maxTotalSize: number;
  countCheck: boolean;
  maxFileCount: number;
  keywordCheck: boolean;
  keywords: string[];
  antivirus: boolean;
  /** received files expire after this many days (1–365; default 7) */
  expiryDays: number;
  /** audit records are kept at least this many days (≥ 180) */
  auditRetentionDays: number;
}

/** GET /api/Ferry/Settings reply: the settings plus what the deployment has (read-only). */
export interface FerrySettingsView extends FerrySettings {
  zone: string;
  /** configured peers and their channel */
  peers: Array<{ zone: string; channel: 'spool' | 'https' }>;
  /** FERRY_SECRET is set (without it nothing is sent or received) */
  secretConfigured: boolean;
  /** ClamAV found ('' when not installed: the page says antivirus cannot run) */
  antivirusEngine: string;
  /** why antivirus cannot run, in Chinese ('' when it can), e.g. 未找到 ClamAV 病毒库… */
  antivirusMissing: string;
  /** the real types the type check knows */
  knownTypes: string[];
}

/** GET /api/Ferry/Inbox rows: packages received from other zones for the caller. */
export interface FerryInboxItem {
  id: string;
  taskId: string;
  /** the sender's number of the task */
  number: string;
  fromZone: string;
  senderName: string;
  reason: string;
  files: Array<{ index: number; name: string; size: number; sha256: string }>;
  totalSize: number;
  status: 'delivered' | 'downloaded' | 'expired' | 'removed';
  receivedAt: string;
  expiresAt: string;
  downloadedAt: string;
}

export interface FerryAuditQuery {
  from?: string;
  to?: string;
  /** an event name, e.g. task.created */
  event?: string;
  keyword?: string;
  page?: number;
  pageSize?: number;
}

export interface FerryAuditRecord {
  seq: number;
  at: string;
  actorName: string;
  event: string;
  /** Chinese name of the event */
  eventText: string;
  taskId: string;
  /** Chinese summary of the detail (files with hashes, zones, decision, reason) */
  summary: string;
  detail: Record<string, unknown>;
  hash: string;
}

/** GET /api/Ferry/Audit/Verify */
export interface FerryAuditVerify {
  ok: boolean;
  /** records checked */
  count: number;
  /** seq of the first altered, removed or inserted record; null when whole */
  brokenAt: number | null;
  message: string;
}

export type FerryStatsBucket = 'day' | 'week' | 'month';

/** GET /api/Ferry/Audit/Stats?from&to&bucket */
export interface FerryStats {
  tasks: number;
  files: number;
  bytes: number;
  byUser: Array<{ name: string; tasks: number; files: number; bytes: number }>;
  byDepartment: Array<{ name: string; tasks: number; files: number; bytes: number }>;
  byDirection: Array<{ from: string; to: string; tasks: number; files: number; bytes: number }>;
  byBucket: Array<{ bucket: string; tasks: number; files: number; bytes: number }>;
  byStatus: Array<{ status: FerryTaskStatus; tasks: number }>;
  blockedByReason: Array<{ reason: string; count: number }>;
  /** median time from submission to the approval's decision, ms; null with none decided */
  medianApprovalMs: number | null;
}

// ---- favourites and tags (api-contract.md, "Favourites and tags") ----

/** A tag as an item carries it. */
export interface TagRef {
  id: string;
  name: string;
  /** #rrggbb */
  color: string;
}

/** GET /api/User/Tags: the caller's own tags and the public ones. */
export interface Tag extends TagRef {
  isPublic: boolean;
  /** items with this tag that the caller may read */
  count: number;
  /** true when the caller may rename, recolour or delete it (own tag, or a public one for isTagAdmin) */
  editable: boolean;
}

/** POST /api/User/Tags, PUT /api/User/Tags/{id} */
export interface TagBody {
  name: string;
  color: string;
  isPublic?: boolean;
}

/** POST and DELETE /api/User/Tags/Files */
export interface TagFilesBody {
  fileIds: string[];
  tagIds: string[];
}

/** GET /api/User/Favorites/Categories (id 0, DEFAULT_FAVORITE_CATEGORY, is 默认收藏夹, always first). */
export interface FavoriteCategory {
  id: number;
  name: string;
  count: number;
}

/** POST /api/User/Favorites/Categories: creates (no id) or renames. */
export interface FavoriteCategoryBody {
  id?: number;
  name: string;
}

/** POST /api/User/Favorites, PUT /api/User/Favorites/Move */
export interface FavoritesBody {
  fileIds: string[];
  categoryId: number;
}

/** A favourite as the favourites page lists it. */
export interface FavoriteItem extends Item {
  favoriteCategoryId: number;
  /** when it was favourited, YYYY-MM-DD HH:mm:ss */
  favoritedAt: string;
}

// ---- search (api-contract.md, "Search") ----

export interface SearchQuery {
  keyword: string;
  page: number;
  pageSize: number;
  spaceType?: SpaceType;
  /** only this folder's subtree */
  folderId?: string;
  type?: 'folder' | 'file';
  /** one extension or several, comma-separated, without dots */
  extension?: string;
  sizeMin?: number;
  sizeMax?: number;
  /** YYYY-MM-DD (inclusive) */
  updatedFrom?: string;
  updatedTo?: string;
  ownerId?: string;
  /** comma-separated tag ids: items carrying all of them */
  tagIds?: string;
  sortField?: 'updatedAt' | 'name' | 'size';
  sortOrder?: 'asc' | 'desc';
}

/** A search result: an item, and for content search a plain-text snippet around the hit. */
export interface SearchItem extends Item {
  highlight?: string;
}

export interface SearchResult extends Paged<SearchItem> {
  /** true when more matched than `total` says (the count stops at SEARCH_TOTAL_LIMIT) */
  limited?: boolean;
}

// ---- Preview (api-contract.md, "Preview"; docs/integration.md, "Preview") ---------------

/** The viewer that shows a file. */
export type PreviewSource = 'image' | 'pdf' | 'video' | 'audio' | 'text' | 'office';

/** POST /api/User/FileTransfer/CreateComponentData body (an external share sends its key in the accessKey header). */
export interface PreviewBody {
  fileId: string;
  /** a version of the file (not through a share) */
  versionId?: string;
  /** through an internal share (与我共享) or an external share (/s/{shareId}) */
  shareId?: string;
}

/** POST /api/User/FileTransfer/CreateComponentData reply: what the preview page shows. */
export interface PreviewPayload {
  fileId: string;
  source: PreviewSource;
  data: {
    name: string;
    extension: string;
    size: number;
    updatedAt: string;
    versionId: string | null;
    shareId: string | null;
    /**
     * What the viewer loads (cookie session; an external share adds `accessKey=` to it):
     * image, pdf, video, audio: the bytes (Range works; a picture over 4096×4096 pixels comes
     * scaled, as WebP); text: GET → TextPreview;
     * office: the PDF LibreOffice made of it, once `conversionUrl` says it is ready.
     */
    url: string;
    /** office only: GET → PreviewConversion (starts the conversion when needed) */
    conversionUrl: string | null;
    /** pictures (JPEG, PNG, WebP, GIF, AVIF): a 256 px WebP thumbnail (404 while it is being made); null otherwise */
    thumbnailUrl: string | null;
    /** the original file, when the caller may download it (level 2 or more); null otherwise */
    downloadUrl: string | null;
    /** drawn over the preview (enterprise files, while the setting is on); null for none */
    watermark: string | null;
  };
  permissionVo: {
    /** 1 preview, 2 download, 3 upload and edit, 4 manage */
    level: number;
    download: boolean;
  };
  PreviewActions: { previewable: boolean };
}

/** GET data.url of a text preview. */
export interface TextPreview {
  text: string;
  /** how the bytes were read */
  encoding: 'utf-8' | 'gb18030';
  /** the file's size in bytes */
  size: number;
  /** only the first TEXT_PREVIEW_LIMIT bytes are shown */
  truncated: boolean;
}

/** GET data.conversionUrl of an office preview. */
export interface PreviewConversion {
  /** ready: data.url gives the PDF; converting: ask again shortly; failed: `message` says why */
  status: 'ready' | 'converting' | 'failed';
  message: string;
}

/** GET /api/Account/PersonalRootUsed: bytes of the personal space (recycle bin included) and of unfinished uploads into it. */
export interface PersonalUsage {
  used: number;
  recycleBin: number;
  uploading: number;
}

/** GET /api/Account/PersonalRootPolicy: the personal space's quota in bytes (0: unlimited). */
export interface PersonalPolicy {
  quota: number;
  unlimited: boolean;
}

/** GET /api/Admin/DiskSpace: the data volume (system administrators). */
export interface DiskStatus {
  total: number;
  free: number;
  minFree: number;
  level: 'ok' | 'low' | 'full';
}
