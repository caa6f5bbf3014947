// Tables of the 云文档 database. Booleans are stored as 0/1 integers and times as epoch
// milliseconds so that the same queries run on SQLite and PostgreSQL.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type Flag = 0 | 1;

export interface DepartmentsTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  /** slash-separated ids from the root department down to this one */
  path: string;
  sort_order: number;
  created_at: number;
  /** the department's leader (approvals: 部门负责人) */
  leader_id: Generated<number | null>;
  /** the default personal quota (bytes, 0: unlimited) of people in this subtree; null: the one above */
  quota: Generated<number | null>;
  /** JSON of the feature switches set here ({personalSpace: false, ...}); null or a missing key: the one above */
  feature_policy: Generated<string | null>;
  /** 'local', 'ldap' or 'dingtalk' */
  source: Generated<string>;
  /** the directory's id of the department (an OU's DN, a DingTalk dept_id); null for local ones */
  external_id: Generated<string | null>;
}

/** A checked 批量导入 file: its rows as read (JSON), applied once. */
export interface UserImportsTable {
  id: string;
  created_by: number;
  created_at: number;
  mode: string;
  file_name: string;
  rows: string;
  applied_at: number | null;
}

/** One 目录同步 run. */
export interface DirectoryRunsTable {
  id: Generated<number>;
  source: string;
  /** 'manual' or 'schedule' */
  trigger: string;
  /** 'planned', 'applied', 'refused', 'failed' */
  status: string;
  started_at: number;
  finished_at: number | null;
  created_by: number | null;
  /** JSON of the SyncSummary */
  summary: Generated<string>;
  /** JSON of the entries answered, kept while the run waits to be applied */
  entries: string | null;
  error: Generated<string>;
}

/** A job that one instance at a time may run: held by `holder` until `until` (ms). */
export interface ZipTasksTable {
  id: string;
  owner: string;
  file_name: string;
  /** JSON: the archive's entries (paths, times, sizes, blob storage keys) */
  entries: string;
  total_bytes: number;
  force_zip64: Flag;
  state: 'queued' | 'running' | 'ready' | 'failed';
  processed_bytes: number;
  /** the instance building it */
  holder: string | null;
  heartbeat_at: number | null;
  attempts: number;
  created_at: number;
  finished_at: number | null;
  /** the archive in the object store (ready tasks): whole, or its frame when `holes` is set */
  object_key: string | null;
  size: number;
  error: string | null;
  /**
   * 1: the task holds a reference on the blob of each file entry (`blobId` in `entries`) until it
   * is forgotten, and its archive is kept as a frame and holes; 0: a task of an older version
   */
  holds_blobs: Generated<Flag>;
  /** JSON [[archive offset, size, blob storage key], …]: the stored entries left out of the frame */
  holes: string | null;
}

export interface ServerInstancesTable {
  id: string;
  host: string;
  pid: number;
  started_at: number;
  heartbeat_at: number;
  /** SecretBox.fingerprint(): instances with different keys cannot read each other's sealed secrets */
  key_fingerprint: string;
  /** `s3:<endpoint>/<bucket>/<prefix>` or `local` */
  storage: string;
}

/** What happened (issue 28), written in the transaction of the change; the dispatcher works it once. */
export interface EventsTable {
  id: Generated<number>;
  kind: string;
  /** JSON of the event's payload (notices/events.ts) */
  payload: string;
  created_at: number;
  /** null until the dispatcher has made its notices */
  dispatched_at: number | null;
  attempts: Generated<number>;
  /** not before (ms): retries back off */
  next_at: Generated<number>;
  last_error: Generated<string>;
}

/** A 系统公告 (issue 28): sent by a system administrator to everyone or to departments and those below. */
export interface AnnouncementsTable {
  id: Generated<number>;
  title: string;
  body: string;
  /** 'all' or 'departments' */
  scope: string;
  /** JSON array of the chosen departments' ids (scope 'departments') */
  department_ids: Generated<string>;
  sender_id: number | null;
  sender_name: Generated<string>;
  /** the active people it reaches: counted when sent, set exactly once dispatched */
  recipients: Generated<number>;
  created_at: number;
  /** when the dispatcher made its notices; null until then */
  sent_at: number | null;
}

/** What a kind of notice last told a person, so that it is not told again (quota.warning, password.expiring). */
export interface NoticeMarksTable {
  user_id: number;
  kind: string;
  /** what was told (password.expiring: the expiry in ms) */
  mark: Generated<string>;
  at: number;
}

/** 催办: when an approver of a request was last reminded (ms). */
export interface WorkflowRemindersTable {
  instance_id: number;
  user_id: number;
  reminded_at: number;
}

/** A notice in a person's 消息中心. */
export interface NoticesTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  title: string;
  body: Generated<string>;
  /** what it is about: 'workflow' and the instance's wire id, 'share' and the share id… */
  object_type: Generated<string>;
  object_id: Generated<string>;
  /** the web route that opens it */
  link: Generated<string>;
  event_id: number;
  created_at: number;
  read_at: number | null;
  /** the action it asked for was taken (by someone else, or the request ended) */
  resolved_at: number | null;
  resolution: Generated<string>;
  /** 1: kept out of the person's 站内消息 by their 通知设置 (it still carries what a mail says) */
  hidden: Generated<Flag>;
}

/**
 * pending (waits for next_at), sending (claimed by a sender), checking (taken by DingTalk, its send
 * result is looked at from next_at), sent, failed (gave up), skipped (reason), cancelled (read or
 * resolved in the app first).
 */
export type NoticeDeliveryStatus = 'pending' | 'sending' | 'checking' | 'sent' | 'failed' | 'skipped' | 'cancelled';

/** A notice's delivery on a channel outside the app (notice-delivery/). */
export interface NoticeDeliveriesTable {
  id: Generated<number>;
  notice_id: number;
  user_id: number;
  /** 'mail' or 'dingtalk' */
  channel: string;
  status: NoticeDeliveryStatus;
  /** 1: goes out in the person's digest, 0: at once */
  digest: Generated<Flag>;
  attempts: Generated<number>;
  /** not before (ms): the digest's time, a retry's backoff */
  next_at: Generated<number>;
  /** why it was skipped or failed, in Chinese */
  reason: Generated<string>;
  /** the last error as the mail server (or DingTalk) gave it */
  last_error: Generated<string>;
  /** where it went: the e-mail address, the DingTalk userid */
  recipient: Generated<string>;
  /** DingTalk's task id of the message that carried it (its send result is asked with it) */
  task_id: Generated<string>;
  /** a hash of the content sent: DingTalk drops a message identical to one the person got that day */
  content_key: Generated<string>;
  claimed_by: Generated<string>;
  claimed_at: number | null;
  sent_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A person's 通知设置. */
export interface NoticePreferencesTable {
  user_id: number;
  /** JSON: { [kind]: { [channel]: boolean } }; what is missing takes the default (on) */
  channels: Generated<string>;
  /** 'hourly' or 'daily' */
  digest: Generated<string>;
  updated_at: number;
}

/** The DingTalk userid of a union id (topapi/user/getbyunionid), kept once found. */
export interface DingtalkUseridsTable {
  union_id: string;
  /** '' when DingTalk knows no member of the organisation by that union id (asked again after a day) */
  userid: string;
  resolved_at: number;
}

export interface JobLeasesTable {
  name: string;
  holder: string;
  until: number;
}

export interface DepartmentAdminsTable {
  dept_id: number;
  user_id: number;
}

/** What an administrator did: kept with the names of the time, so that it reads true after renames. */
export interface AdminActionsTable {
  id: Generated<number>;
  at: number;
  actor_id: number;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  target_name: string;
  detail: Generated<string>;
}

export interface UsersTable {
  id: Generated<number>;
  user_name: string;
  /** normalised user name (trimmed, NFKC, lower case): unique */
  user_name_key: string;
  nick_name: string;
  /** normalised nickname (trimmed, NFKC, lower case): what user search compares */
  nick_name_key: string;
  password_hash: string;
  dept_id: number | null;
  avatar: string;
  /** system administrator: may call /api/Admin */
  is_admin: Flag;
  is_doc_admin: Flag;
  is_flow_admin: Flag;
  is_tag_admin: Flag;
  is_ldap_user: Flag;
  allow_backend_login: Flag;
  allow_repository_login: Flag;
  disabled: Flag;
  last_login_at: number | null;
  created_at: number;
  updated_at: number;
  /** when the password was last set (the policy's expiry counts from here) */
  password_changed_at: Generated<number>;
  /** set by an administrator (new account, reset): the next sign-in must choose a new password */
  must_change_password: Generated<Flag>;
  /** an administrator requires TOTP for this user (the policy may require it for everyone) */
  totp_required: Generated<Flag>;
  /** the TOTP key, sealed (lib/secret-box.ts); null: no TOTP bound */
  totp_secret: Generated<string | null>;
  /** the last TOTP time step accepted: a code of that step or earlier is never taken again */
  totp_last_step: Generated<number>;
  /** mobile number ('' when none): registration, and a way to find the account of a DingTalk user */
  mobile: Generated<string>;
  /** the DingTalk user (unionId) this account signs in as; null: none bound */
  dingtalk_union_id: Generated<string | null>;
  email: Generated<string>;
  /** 工号 ('' when none): unique when set */
  employee_no: Generated<string>;
  /** 'local', 'ldap' or 'dingtalk' */
  source: Generated<string>;
  /** the directory's id of the person (LDAP entryUUID or DN, DingTalk userid); null for local accounts */
  external_id: Generated<string | null>;
  /** the person's own quota (bytes, 0: unlimited); null: the department's, else the default */
  quota: Generated<number | null>;
  is_audit_admin: Generated<Flag>;
  /** JSON of the feature switches set for this person; null or a missing key: the department's */
  feature_policy: Generated<string | null>;
  /** when the person left and their work was handed over (the account stays, disabled) */
  left_at: Generated<number | null>;
}

export interface VerifyCodesTable {
  id: Generated<number>;
  phone: string;
  ip: string;
  code_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** What the log SMS sender "sent": administrators read the codes here. */
export interface SmsOutboxTable {
  id: Generated<number>;
  phone: string;
  text: string;
  created_at: number;
}

export type RegistrationStatus = 'pending' | 'approved' | 'rejected';

export interface RegistrationsTable {
  id: Generated<number>;
  phone: string;
  user_name: string;
  user_name_key: string;
  nick_name: string;
  password_hash: string;
  department: string;
  reason: string;
  status: RegistrationStatus;
  decided_by: number | null;
  decided_at: number | null;
  decision_note: string;
  user_id: number | null;
  ip: string;
  created_at: number;
}

export interface PasswordHistoryTable {
  id: Generated<number>;
  user_id: number;
  password_hash: string;
  created_at: number;
}

export type LoginStepKind = 'passwordReset' | 'totpBind' | 'totpCode';

/** A sign-in waiting for its second step; the actionToken is stored as its SHA-256. */
export interface LoginStepsTable {
  token_hash: string;
  user_id: number;
  kind: LoginStepKind;
  secret: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the bearer token */
  token_hash: string;
  /** SHA-256 (hex) of the jwtId carried by the `token` cookie */
  jwt_id_hash: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  ip: string;
  user_agent: string;
  /** a token issued to a client through client authorization; null: a browser sign-in */
  client_id: Generated<string | null>;
  /** the scopes granted to that client, space-separated */
  client_scope: Generated<string>;
  /** the client grant (oauth_grants) an access token belongs to; null: a browser sign-in or an older client token */
  grant_id: Generated<number | null>;
}

export interface OAuthClientsTable {
  client_id: string;
  name: string;
  /** JSON array of the exact redirect URIs */
  redirect_uris: string;
  created_at: number;
  revoked_at: number | null;
}

export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: number;
  redirect_uri: string;
  scope: string;
  code_challenge: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** One authorization of a client by a user: its access tokens (sessions) and rotating refresh tokens. */
export interface OAuthGrantsTable {
  id: Generated<number>;
  client_id: string;
  user_id: number;
  /** the scopes granted, space-separated */
  scope: string;
  /** SHA-256 (hex) of the authorization code the grant was made from */
  code_hash: string | null;
  created_at: number;
  last_used_at: number;
  /** when the current refresh token expires: the grant ends then unless it is refreshed */
  expires_at: number;
  revoked_at: number | null;
}

/** A refresh token of a grant, stored as its SHA-256; used_at is set when it is rotated. */
export interface OAuthRefreshTokensTable {
  token_hash: string;
  grant_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** 'readOnly': WebDAV reads only; 'readWrite': writes too, with the person's rights. */
export type AppPasswordScope = 'readOnly' | 'readWrite';

/** An application password (应用密码) for WebDAV; the secret is stored as its SHA-256 only. */
export interface AppPasswordsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  scope: AppPasswordScope;
  /** SHA-256 (hex) of the secret, normalised (lower case, no separators) */
  secret_hash: string;
  created_at: number;
  last_used_at: number | null;
  /** the client address of the last use */
  last_used_ip: Generated<string>;
  /** revoked by the person, by disabling the account, or by a new password of the account */
  revoked_at: number | null;
}

/** A WebDAV dead property (PROPPATCH) of an item: its value as XML (the element's content). */
export interface DavPropertiesTable {
  item_id: number;
  /** namespace name ('' for none) */
  ns: string;
  name: string;
  /** the property element's content, as XML with its namespace declarations */
  value: string;
  updated_at: number;
}

/** A WebDAV chunked upload (Nextcloud's protocol): its parts are objects under dav-uploads/<id>/. */
export interface DavUploadsTable {
  id: Generated<number>;
  user_id: number;
  /** the upload's name in its URL (uploads/<user>/<name>) */
  name: string;
  /** where MKCOL's Destination said it goes ('' when not said) */
  destination: Generated<string>;
  /** OC-Total-Length, when a request gave it */
  total_length: number | null;
  /** bytes of the parts received (a part sent again counts once) */
  received: Generated<number>;
  part_count: Generated<number>;
  created_at: number;
  /** the last request that touched it; untouched for a day, it is removed */
  touched_at: number;
}

/** A WebDAV write lock (class 2) on an item. */
export interface DavLocksTable {
  /** opaquelocktoken:… */
  token: string;
  item_id: number;
  /** who took it */
  user_id: number;
  scope: 'exclusive' | 'shared';
  /** 0, or -1 for infinity */
  depth: number;
  /** the owner element's content, as XML */
  owner_xml: string;
  timeout_s: number;
  expires_at: number;
  /** the lock root as the client named it (percent-encoded href) */
  root_href: string;
  created_at: number;
}

export interface SettingsTable {
  key: string;
  /** JSON */
  value: string;
  updated_at: number;
}

export type ItemTypeName = 'folder' | 'file' | 'shortcut';

export interface ItemsTable {
  id: Generated<number>;
  parent_id: number | null;
  /** 1 enterprise, 2 personal */
  space_type: number;
  owner_id: number;
  name: string;
  /** normalised name (NFC, lower case): unique among the live items of a folder */
  name_key: string;
  type: ItemTypeName;
  /** 0 folder, 1 anything else: folders list first */
  type_order: number;
  extension: string;
  size: number;
  /** `<space>/<root id>/.../<id>` */
  id_path: string;
  /** names below the root folder, slash-separated ('' for a root folder) */
  name_path: string;
  /** position in the folder's manual order (folders and files apart), ascending; ties by id */
  sort_order: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** the user who sent the item to the recycle bin */
  deleted_by: Generated<number | null>;
  /** set on the descendants of a deleted item: the id of that deleted (top) item */
  deleted_with: Generated<number | null>;
  /** live child folders (type_order 0); 0 for a deleted item */
  child_folders: Generated<number>;
  /** live child files and shortcuts (type_order 1); 0 for a deleted item */
  child_files: Generated<number>;
  /** a shortcut's target item (null for folders and files) */
  target_id: Generated<number | null>;
}

export interface BlobsTable {
  id: Generated<number>;
  /** hex MD5 of the content; unique with size */
  md5: string;
  size: number;
  /** where the content lies, relative to `$DATA_DIR/blobs` */
  storage_key: string;
  /** file versions holding this content; the blob goes at 0 */
  ref_count: number;
  created_at: number;
  /** CRC-32 of the content (unsigned), when known: made at upload; null for older blobs */
  crc32: Generated<number | null>;
}

export interface FileVersionsTable {
  id: Generated<number>;
  item_id: number;
  /** 1, 2, … per file */
  version_no: number;
  /** null for empty content */
  blob_id: number | null;
  size: number;
  md5: string | null;
  /** 1 for the version that is the file's content (exactly one per file) */
  is_master: number;
  creator_id: number;
  created_at: number;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  /** normalised user name as typed (also for names that do not exist) */
  account_key: string;
  ip: string;
  created_at: number;
}

export interface GroupsTable {
  id: Generated<number>;
  /** unique */
  name: string;
  created_at: number;
  /** 'local', or 'ldap' for a group the directory sync keeps */
  source: Generated<string>;
  /** the directory's id of the group (entryUUID or DN) */
  external_id: Generated<string | null>;
}

export interface GroupMembersTable {
  group_id: number;
  user_id: number;
}

export interface AccessPoliciesTable {
  id: Generated<number>;
  /** an enterprise item (file or folder) */
  item_id: number;
  /** 1 user, 2 department (with its sub-departments), 3 group */
  subject_type: number;
  subject_id: number;
  /** 0 none, 1 preview, 2 download, 3 edit, 4 manage */
  level: number;
  created_by: number | null;
  created_at: number;
}

/**
 * A share of one or more items (share_items): internal, to users, departments and groups
 * (share_targets), or external, a link /s/{id} with a key. Rights through it are its level,
 * never more than its owner holds at the time of each call.
 */
export interface SharesTable {
  /** random, unguessable (128 bits); the `{shareId}` of the share calls */
  id: string;
  /** the creator: whose rights apply and who owns what is uploaded */
  owner_id: number;
  /** the first shared item (share_items holds them all) */
  root_item_id: number;
  /** 1 internal, 2 external */
  share_type: number;
  /** 1 preview, 2 download, 3 upload and edit */
  level: number;
  /** SHA-256 (hex) of the access key; '' for internal shares */
  access_key_hash: string;
  /** level ≥ 3 (kept in step with level) */
  allow_upload: Flag;
  /** epoch ms; null: never expires */
  expires_at: number | null;
  /** downloads allowed in all; null: no limit */
  download_limit: number | null;
  download_count: number;
  visit_count: number;
  /** cancelled (status 3) */
  deleted: Flag;
  cancelled_at: number | null;
  created_at: number;
  updated_at: number | null;
}

export interface ShareItemsTable {
  share_id: string;
  item_id: number;
  position: number;
}

export interface ShareTargetsTable {
  share_id: string;
  /** 1 user, 2 department (with its sub-departments), 3 group */
  target_type: number;
  target_id: number;
}

/** What happened through a share: a visit, a download, an upload. */
export interface ShareEventsTable {
  id: Generated<number>;
  share_id: string;
  kind: 'visit' | 'download' | 'upload';
  /** the signed-in recipient; null for an outside visitor */
  user_id: number | null;
  /** the client address */
  address: string;
  item_id: number | null;
  item_name: string;
  created_at: number;
}

/** A wrong access key given for a share (throttling). */
export interface ShareKeyFailuresTable {
  share_id: string;
  address: string;
  created_at: number;
}

/** One chunked upload session (the `fileId` of the upload calls until the merge). */
export interface UploadSessionsTable {
  /** random, unguessable */
  id: string;
  /** `u:<user id>` for a signed-in user, `s:<share id>` for an external share upload */
  owner_key: string;
  /** whose rights apply and who owns the file: the caller, or the share's owner */
  user_id: number;
  share_id: string | null;
  /** the client's id of the upload (same taskId, same owner, unfinished: the session resumes) */
  task_id: string;
  /** the folder chosen as target (relative_dir lies below it) */
  folder_id: number;
  /** folder names below folder_id, slash-separated ('' for none); made at the merge */
  relative_dir: string;
  file_name: string;
  size: number;
  chunk_size: number;
  total_chunks: number;
  /** null, 0 new version, 1 overwrite, 2 rename (file_name is the new name) */
  strategy: number | null;
  /** strategy 0/1: the item that held the name at creation */
  target_item_id: number | null;
  /** open, done */
  status: string;
  /** done: the file made (or given a new version) */
  result_item_id: number | null;
  created_at: number;
  /** last activity; sessions idle longer than the time-to-live are removed */
  updated_at: number;
  /** the owner of the personal space the file lands in, whose quota the open session reserves `size` of; null elsewhere */
  quota_owner_id: number | null;
  /** chunks kept as objects: hash-wasm's saved MD5 state of chunks 1..hashed_through (base64) */
  md5_state: Generated<string | null>;
  /** CRC-32 of the same chunks 1..hashed_through (null: none yet) */
  crc32_state: Generated<number | null>;
  hashed_through: Generated<number>;
  /** S3 with chunks of 5 MiB or more: the multipart upload whose parts the chunks are */
  multipart_id: Generated<string | null>;
  /** when that upload was completed into the object `blobs/up/<id>` (ms) */
  assembled_at: Generated<number | null>;
}

/** A chunk received, written and fsync'ed into the session's staging file. */
export interface UploadChunksTable {
  session_id: string;
  /** from 1 */
  chunk_no: number;
  size: number;
  /** hex MD5 of the chunk */
  md5: string;
  created_at: number;
  /** set while the chunk is being written (a lease, ms): the row is not a received chunk yet */
  writing_until: number | null;
  /** the ETag the store gave the chunk as a part of the session's multipart upload */
  etag: Generated<string | null>;
}

/** An approval flow (issue 12). `body` holds the JSON of DefinitionBody (workflow/schemas.ts). */
export interface WorkflowDefinitionsTable {
  id: Generated<number>;
  name: string;
  category: string;
  description: string;
  enabled: Flag;
  /** bumped by every change; an instance stores the version it started with */
  version: number;
  body: string;
  /** deleted definitions stay for the instances that used them */
  deleted: Flag;
  /** 自动催办: remind the approvers after this many hours without action (0 off, 1–168) */
  auto_remind_hours: Generated<number>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** A request going through an approval flow. */
export interface WorkflowInstancesTable {
  id: Generated<number>;
  definition_id: number;
  definition_version: number;
  /** JSON: the definition as it was when the instance started (name, category, fields, rules) */
  definition: string;
  title: string;
  /** JSON: field key → value */
  form: string;
  initiator_id: number;
  /** 1 processing, 2 approved, 3 rejected, 4 revoked (kept in step with state) */
  status: number;
  /** JSON: the engine's InstanceState */
  state: string;
  /** the state's version: a write names the version it read */
  version: number;
  /** the module that started the instance ('' for a plain approval; 'ferry', …) */
  source: string;
  source_id: string;
  /** when the source module took the instance's end; null while it has not */
  end_handled_at: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** Who takes part in an instance: todo (must act now), done (has acted), cc, route (anywhere on it). */
export interface WorkflowParticipantsTable {
  instance_id: number;
  user_id: number;
  role: 'todo' | 'done' | 'cc' | 'route';
  /** todo: since when the task waits for this person (ms; kept while they stay asked); else 0 */
  todo_since: Generated<number>;
}

/** The action log: appended, never rewritten. */
export interface WorkflowActionsTable {
  id: Generated<number>;
  instance_id: number;
  kind: string;
  /** null for the engine (a finish) */
  user_id: number | null;
  step: number;
  comment: string;
  /** 转交 / 加签: the other person */
  target_id: number | null;
  /** 退回: the step returned to */
  to_step: number | null;
  /** finish: the end */
  status: number | null;
  created_at: number;
}

/** A file version attached to an instance; its blob is held (ref_count) as long as the instance is. */
export interface WorkflowFilesTable {
  instance_id: number;
  position: number;
  item_id: number;
  version_id: number;
  blob_id: number | null;
  name: string;
  extension: string;
  size: number;
  md5: string;
}

/** One record of the operation log (oplog/): appended by requests, chained by the sealer (seq, prev_hash, hash null until then). */
export interface OperationLogsTable {
  id: Generated<number>;
  seq: number | null;
  at: number;
  user_id: number | null;
  /** the person's user name at the time ('' when unknown) */
  user_name: Generated<string>;
  /** the person's department path at the time (department administrators see their subtree) */
  dept_path: Generated<string>;
  on_behalf_id: Generated<number | null>;
  on_behalf_name: Generated<string>;
  ip: Generated<string>;
  user_agent: Generated<string>;
  action: string;
  object_type: Generated<string>;
  object_id: Generated<string>;
  object_name: Generated<string>;
  object_path: Generated<string>;
  /** an item's id path (`<space>/<root>/…/<id>`), '' for other objects */
  object_scope: Generated<string>;
  /** 'ok' or 'fail' */
  result: Generated<string>;
  reason: Generated<string>;
  request_id: Generated<string>;
  /** JSON object */
  detail: Generated<string>;
  prev_hash: string | null;
  hash: string | null;
}

export interface OperationLogHeadTable {
  id: number;
  seq: number;
  hash: string;
  pruned_seq: number;
  pruned_hash: string;
}

/** One record of the ferry's audit log: hash-chained (ferry/audit.ts), never rewritten. */
export interface FerryAuditTable {
  id: Generated<number>;
  /** the position in the chain, from 1, without gaps */
  seq: number;
  /** epoch ms */
  at: number;
  actor_id: number | null;
  actor_name: string;
  event: string;
  task_id: string;
  /** JSON */
  detail: string;
  /** the hash of the record at seq - 1 (64 zeros for the first) */
  prev_hash: string;
  /** SHA-256 (hex) over prev_hash and the record's content */
  hash: string;
}

/** The chain's head: one row (id 1), the last position and hash. */
export interface FerryAuditHeadTable {
  id: number;
  seq: number;
  hash: string;
  /** audit retention: the last record removed (0 and 64 zeros while none has been) */
  pruned_seq: Generated<number>;
  pruned_hash: Generated<string>;
}

/** A request to move files to another zone (the sending side). */
export interface FerryTasksTable {
  id: Generated<number>;
  requester_id: number;
  /** the requester's name and department at submission (audit and statistics keep them) */
  requester_name: string;
  dept_id: number | null;
  from_zone: string;
  to_zone: string;
  /** JSON: user names on the receiving side */
  recipients: string;
  reason: string;
  /** FerryTaskStatus */
  status: string;
  /** why it is blocked, rejected, cancelled or failed */
  status_reason: string;
  instance_id: number | null;
  /** the package sent (its id is new for every send) */
  package_id: string | null;
  created_at: number;
  updated_at: number;
  /** when the approval decided */
  decided_at: number | null;
  sent_at: number | null;
  delivered_at: number | null;
  downloaded_at: number | null;
  expires_at: number | null;
  /** background work (scanning, sending) is leased: another instance takes it over after this */
  lease_until: number;
  attempts: number;
  last_error: string;
}

/** A file of a ferry task: the version submitted, pinned (its blob is held) until it is sent. */
export interface FerryTaskFilesTable {
  task_id: number;
  position: number;
  item_id: number;
  version_id: number;
  blob_id: number | null;
  /** the blob is no longer held (sent, or the task ended) */
  released: Flag;
  name: string;
  extension: string;
  size: number;
  md5: string;
  /** '' until scanned */
  sha256: string;
  detected_type: string;
  /** JSON FerryCheckResult[] */
  checks: string;
  /** JSON FerryKeywordHit[] */
  keyword_hits: string;
  blocked: Flag;
}

/** A package received from another zone (the receiving side). */
export interface FerryInboxTable {
  id: Generated<number>;
  package_id: string;
  /** the sender's task id and number */
  task_id: string;
  task_number: string;
  from_zone: string;
  sender_name: string;
  /** JSON: the recipients' names as sent */
  recipients: string;
  reason: string;
  received_at: number;
  expires_at: number;
  /** delivered, downloaded, expired, removed */
  status: string;
  downloaded_at: number | null;
  downloaded_by: string;
}

export interface FerryInboxFilesTable {
  inbox_id: number;
  idx: number;
  name: string;
  size: number;
  sha256: string;
  md5: string;
  /** null for empty files, and once expired (the blob is let go) */
  blob_id: number | null;
}

/** Who may see a received package: recipients found by user name. */
export interface FerryInboxUsersTable {
  inbox_id: number;
  user_id: number;
}

/** Every package or receipt id imported here: a second arrival is a replay. */
export interface FerrySeenTable {
  package_id: string;
  kind: string;
  at: number;
}

/** Receipts to send back to the sending zone (received, downloaded, expired, removed, refused): sent in the background. */
export interface FerryReceiptsTable {
  id: Generated<number>;
  to_zone: string;
  task_id: string;
  /** the package the receipt is about */
  package_id: string;
  event: string;
  at: number;
  by_name: string;
  sent_at: number | null;
  lease_until: number;
  attempts: number;
  last_error: string;
  /** refused: the receiving zone's RejectReason ('' for the other events) */
  reason: Generated<string>;
  /** refused: the file concerned, when there is one */
  detail: Generated<string>;
}

/** A user's favourites category (默认收藏夹 has no row: favourites with category_id null). */
export interface FavoriteCategoriesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** trimmed, NFKC, lower case: unique per user */
  name_key: string;
  created_at: number;
}

export interface FavoritesTable {
  user_id: number;
  item_id: number;
  /** null: 默认收藏夹 */
  category_id: number | null;
  created_at: number;
  /** copies of the item's state, kept by triggers (migration 0014): lists count and page without reading items */
  item_deleted: Generated<number>;
  item_space_type: Generated<number>;
  item_owner_id: Generated<number>;
}

/** A personal tag (owner_id its owner) or a public one (owner_id 0, is_public 1). */
export interface TagsTable {
  id: Generated<number>;
  owner_id: number;
  is_public: Flag;
  name: string;
  name_key: string;
  /** #rrggbb */
  color: string;
  created_by: number;
  created_at: number;
}

export interface ItemTagsTable {
  tag_id: number;
  item_id: number;
  created_by: number;
  created_at: number;
  /** as in FavoritesTable */
  item_deleted: Generated<number>;
  item_space_type: Generated<number>;
  item_owner_id: Generated<number>;
}

/** What the preview makes of a content once: an office document's PDF, a picture's thumbnail or scaled view (migration 0015). */
export interface PreviewConversionsTable {
  content_key: string;
  kind: 'pdf' | 'thumb' | 'view';
  blob_id: number;
  extension: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  lease_until: Generated<number>;
  attempts: Generated<number>;
  error: Generated<string>;
  output: Generated<string>;
  bytes: Generated<number>;
  requested_at: number;
  finished_at: Generated<number>;
}

/** The extracted text of a file's master version (full-text search). */
export interface ItemTextsTable {
  item_id: number;
  blob_id: number | null;
  /** stale: done, but to be read again (the rebuild command) */
  status: 'done' | 'failed' | 'skipped' | 'stale';
  text: string;
  truncated: Flag;
  error: string;
  extracted_at: number;
}

/** A file whose text is to be extracted (queued by a trigger on file_versions; leased by a worker). */
export interface ContentJobsTable {
  item_id: number;
  queued_at: number;
  lease_until: number;
  attempts: number;
}

export interface Database {
  departments: DepartmentsTable;
  users: UsersTable;
  department_admins: DepartmentAdminsTable;
  admin_actions: AdminActionsTable;
  user_imports: UserImportsTable;
  directory_runs: DirectoryRunsTable;
  job_leases: JobLeasesTable;
  events: EventsTable;
  notices: NoticesTable;
  notice_deliveries: NoticeDeliveriesTable;
  notice_preferences: NoticePreferencesTable;
  dingtalk_userids: DingtalkUseridsTable;
  workflow_reminders: WorkflowRemindersTable;
  announcements: AnnouncementsTable;
  notice_marks: NoticeMarksTable;
  zip_tasks: ZipTasksTable;
  server_instances: ServerInstancesTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  items: ItemsTable;
  login_failures: LoginFailuresTable;
  password_history: PasswordHistoryTable;
  login_steps: LoginStepsTable;
  verify_codes: VerifyCodesTable;
  sms_outbox: SmsOutboxTable;
  registrations: RegistrationsTable;
  oauth_clients: OAuthClientsTable;
  oauth_codes: OAuthCodesTable;
  oauth_grants: OAuthGrantsTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  app_passwords: AppPasswordsTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  dav_uploads: DavUploadsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  access_policies: AccessPoliciesTable;
  blobs: BlobsTable;
  file_versions: FileVersionsTable;
  shares: SharesTable;
  share_items: ShareItemsTable;
  share_targets: ShareTargetsTable;
  share_events: ShareEventsTable;
  share_key_failures: ShareKeyFailuresTable;
  upload_sessions: UploadSessionsTable;
  upload_chunks: UploadChunksTable;
  workflow_definitions: WorkflowDefinitionsTable;
  workflow_instances: WorkflowInstancesTable;
  workflow_participants: WorkflowParticipantsTable;
  workflow_actions: WorkflowActionsTable;
  workflow_files: WorkflowFilesTable;
  ferry_audit: FerryAuditTable;
  ferry_audit_head: FerryAuditHeadTable;
  operation_logs: OperationLogsTable;
  operation_log_head: OperationLogHeadTable;
  ferry_tasks: FerryTasksTable;
  ferry_task_files: FerryTaskFilesTable;
  ferry_inbox: FerryInboxTable;
  ferry_inbox_files: FerryInboxFilesTable;
  ferry_inbox_users: FerryInboxUsersTable;
  ferry_seen: FerrySeenTable;
  ferry_receipts: FerryReceiptsTable;
  favorite_categories: FavoriteCategoriesTable;
  favorites: FavoritesTable;
  tags: TagsTable;
  item_tags: ItemTagsTable;
  item_texts: ItemTextsTable;
  preview_conversions: PreviewConversionsTable;
  content_jobs: ContentJobsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ItemRow = Selectable<ItemsTable>;
export type NewItem = Insertable<ItemsTable>;
export type DepartmentRow = Selectable<DepartmentsTable>;
export type GroupRow = Selectable<GroupsTable>;
export type AccessPolicyRow = Selectable<AccessPoliciesTable>;
export type BlobRow = Selectable<BlobsTable>;
export type FileVersionRow = Selectable<FileVersionsTable>;
export type ShareRow = Selectable<SharesTable>;
export type ShareEventRow = Selectable<ShareEventsTable>;
export type UploadSessionRow = Selectable<UploadSessionsTable>;
export type WorkflowDefinitionRow = Selectable<WorkflowDefinitionsTable>;
export type WorkflowInstanceRow = Selectable<WorkflowInstancesTable>;
export type WorkflowActionRow = Selectable<WorkflowActionsTable>;
export type WorkflowFileRow = Selectable<WorkflowFilesTable>;
export type FerryAuditRow = Selectable<FerryAuditTable>;
export type FerryTaskRow = Selectable<FerryTasksTable>;
export type FerryTaskFileRow = Selectable<FerryTaskFilesTable>;
export type FerryInboxRow = Selectable<FerryInboxTable>;
export type FerryInboxFileRow = Selectable<FerryInboxFilesTable>;
export type FerryReceiptRow = Selectable<FerryReceiptsTable>;
