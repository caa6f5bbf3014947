// Business constants and limits of 云文档 (product specification, section 9), plus the
// storage keys of section 3 and the fixed Chinese messages of section 8.

// ---- Product and requests -------------------------------------------------------------
export const APP_NAME = '云文档';
export const APP_VERSION = '1.1.0';
/** Request timeout: 60 s. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Default URL prefix of the API when no runtime configuration is loaded. */
export const DEFAULT_API_URL_PREFIX = '/api';
/** Cookie `token` (value jwtId) lives 720 days. */
export const TOKEN_COOKIE_NAME = 'token';
export const TOKEN_COOKIE_DAYS = 720;
/** Stored items expire after 604800 s (7 days). */
export const STORAGE_EXPIRE_SECONDS = 604_800;
/** Local storage encryption is off by default. */
export const STORAGE_ENCRYPT = false;
/** Encryption, when on, needs a 16-character key and a 16-character IV. */
export const STORAGE_CIPHER_KEY_LENGTH = 16;
export const STORAGE_CIPHER_IV_LENGTH = 16;

// ---- Routes and session ---------------------------------------------------------------
export const DEFAULT_HOME = '/file/personal';
export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404';
export const ERROR_LOG_PATH = '/error-log/list';
/** Delay between the expired-session warning and the jump to login. */
export const EXPIRED_REDIRECT_DELAY_MS = 1_000;
/** Name of the BroadcastChannel that syncs sign-in across tabs. */
export const SESSION_CHANNEL_NAME = 'yunwendang-session';

// ---- Upload ---------------------------------------------------------------------------
export const CHUNK_SIZE = 5_242_880;
/**
 * A file of LARGE_FILE_FROM bytes or more asks the server for chunks of LARGE_CHUNK_SIZE when
 * it creates its task (CheckAndCreateFileInfo's chunkSize; the server answers the size it
 * grants, at most 32 MB): fewer, larger requests (a 1 GB file's chunks alone took 6.4–7.7 s
 * in chunks of 20 MB against 8.9 s in chunks of 5 MB, bench figure 3).
 */
export const LARGE_FILE_FROM = 100 * 1024 * 1024;
export const LARGE_CHUNK_SIZE = 20 * 1024 * 1024;
export const CHUNK_CONCURRENCY = 3;
export const CHUNK_RETRIES = 2;
export const CHUNK_RETRY_INTERVAL_MS = 5_000;
export const ALLOW_DUPLICATE_UPLOADS = true;
export const CHUNK_TEST = false;
export const UPLOAD_QUEUE_CONCURRENCY = 1;
export const MD5_SLICE_SIZE = 2 * 1024 * 1024;
export const CHUNK_CHECK = false;
export const CHUNK_CHECK_ALGORITHM = 'MD5';
export const RAPID_UPLOAD = true;
export const MAX_FILE_SIZE = 5_368_709_120;
/** Over this many picked files a lag warning shows (warning only). */
export const MAX_FILE_COUNT = 500;
export const PICKER_BATCH_SIZE = 50;
export const WARNING_NOTICE_SECONDS = 5;

export const UploadStatus = {
  Waiting: 'waiting',
  Uploading: 'uploading',
  Paused: 'paused',
  Success: 'success',
  Error: 'error',
  Complete: 'complete',
} as const;
export type UploadStatus = (typeof UploadStatus)[keyof typeof UploadStatus];

export const PanelStatus = {
  Idle: 'idle',
  Uploading: 'uploading',
  Success: 'success',
  Error: 'error',
  Paused: 'paused',
} as const;
export type PanelStatus = (typeof PanelStatus)[keyof typeof PanelStatus];

/** Conflict strategies 0–3 (3 skip is sent as null). */
export const ConflictStrategy = {
  NewVersion: 0,
  Overwrite: 1,
  Rename: 2,
  Skip: 3,
} as const;
export type ConflictStrategy = (typeof ConflictStrategy)[keyof typeof ConflictStrategy];
export const RENAME_MAX_LENGTH = 150;
export const CONFLICT_DIALOG_WIDTH = 500;

// ---- Download -------------------------------------------------------------------------
export const DOWNLOAD_POLL_INTERVAL_MS = 3_000;
export const DOWNLOAD_FRAME_TTL_MS = 300_000;

// ---- Version update -------------------------------------------------------------------
export const VERSION_CONFIG_URL = '/json/config.json';
export const UPDATE_MODAL_WIDTH = 430;
export const UPDATE_RECHECK_DELAY_MS = 3_000;

// ---- Layout ---------------------------------------------------------------------------
export const PROGRESS_ROW_HEIGHT = 50;
export const UPLOAD_PANEL_HEIGHT_EXPANDED = 398;
export const UPLOAD_PANEL_HEIGHT_COLLAPSED = 68;
export const FILE_ICON_SIZE = 32;
/** Loading screen: 1 % every 30 ms (about 3 s). */
export const LOADING_TICK_MS = 30;
export const LOADING_TICK_PERCENT = 1;
export const SIDEBAR_FIX_DELAY_MS = 500;
export const PAGE_LOADING_DELAY_MS = 50;
export const PAGE_LOADING_MIN_MS = 220;
export const LIST_SCROLL_BUFFER_PX = 200;
export const LIST_MAX_RENDERED_ITEMS = 1_000;
export const BYTE_BASE = 1024;
/** The most items one page may ask for (also the most the client renders). */
export const MAX_PAGE_SIZE = 1_000;

// ---- Formats --------------------------------------------------------------------------
export const PAYLOAD_DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DISPLAY_DATETIME_FORMAT = 'YYYY-MM-DD HH:mm';
export const DATE_FORMAT = 'YYYY-MM-DD';

// ---- Storage keys (spec section 3) ----------------------------------------------------
export const StorageKey = {
  Token: 'TOKEN__',
  UserInfo: 'USER__INFO__',
  Roles: 'ROLES__KEY__',
  ProjectConfig: 'PROJ__CFG__KEY__',
  LockInfo: 'LOCK__INFO__KEY__',
  DarkMode: '__APP__DARK__MODE__',
  ClientConfig: 'CLIENT_ENVIRONMENT_CONFIG',
  Version: 'APP__VERSION__',
  Permission: 'PERMISSION__CACHE__',
  /** names another key whose JSON value is a TemporaryLogin */
  TemporaryToken: 'temporarily-token',
  /** session storage: sign-in result kept for /authorization */
  AuthorizeLogin: 'AUTHORIZE__LOGIN__',
  /** session storage: the state sent to DingTalk, and the authorize query to come back to */
  DingTalkState: 'DINGTALK__STATE__',
  ErrorLog: 'ERROR__LOG__',
} as const;

// ---- Messages (spec sections 5 and 8) -------------------------------------------------
export const Messages = {
  sessionExpiredTitle: '登录已过期',
  sessionExpired: '您的登录已过期，为了保证您的使用安全，请重新登录',
  relogin: '重新登录',
  expiredWarning: '登录信息已过期，即将返回登录页...',
  /** The server's message when a share does not exist or has expired (envelope 401). */
  shareExpired: '指定的分享不存在或已过期。',
  requestError: '请求出错，请稍后重试',
  requestTimeout: '接口请求超时，请刷新页面重试',
  errorTitle: '错误提示',
  loginFailed: '登录失败，请稍后重试',
  tokenRefreshFailed: '令牌刷新失败',
  noEnterpriseAccess: '当前功能策略无法访问企业文件',
  noPersonalAccess: '当前功能策略无法访问个人文件',
  invalidIdPath: '文件路径无效，无法跳转',
  updateTitle: '系统更新提示',
  updateContent: '检测到系统已发布新版本，为了保证最佳体验，系统将为您自动升级。',
  updateOk: '立即升级',
  readingFiles: '正在读取文件/文件夹',
  loading: '加载中',
  notFound: '页面不存在',
  remoteFailed: '模块加载失败',
  retry: '重试',
  logout: '退出登录',
  unknownError: '未知错误',
  fileMissingName: '文件缺少必需属性：name',
  invalidFileName: '文件名无效',
  fileTooLarge: (size: string) => `该文件超过允许的最大值（${size}），无法上传`,
  invalidFileList: '输入无效：fileList 应为非空数组',
  cannotPreview: '该文件暂不支持预览',
  previewFailed: '预览失败，请稍后重试',
  compressing: '该文件正在压缩中，请稍后再试',
  tooManyFiles: (max: number) => `选择的文件超过 ${max} 个，可能会出现卡顿`,
  fileReadFailed: '文件读取失败',
  fileInfoInvalid: '文件信息无效',
  downloadFailed: '文件下载失败',
  appleMobileNoDownload: '苹果手机和平板暂不支持下载文件，请在电脑上下载',
  previewUrlFailed: '创建预览地址失败',
  invalidInput: '输入的数据无效！',
  noData: '暂无数据',
  noMatch: '无匹配数据',
  imageLoadFailed: '图片加载失败',
} as const;

// ---- favourites, tags and search (api-contract.md, "Favourites and tags", "Search") ----

/** The favourites category that always exists (默认收藏夹). */
export const DEFAULT_FAVORITE_CATEGORY = 0;
/** GET /api/User/Favorites/{categoryId} with this id lists every category. */
export const ALL_FAVORITES = -1;
/** Longest name of a tag or a favourites category. */
export const TAG_NAME_MAX_LENGTH = 20;
/** The colours offered for a tag (#rrggbb; the server accepts any #rrggbb). */
export const TAG_COLORS = ['#f5222d', '#fa8c16', '#fadb14', '#52c41a', '#13c2c2', '#1677ff', '#722ed1', '#eb2f96', '#8c8c8c'] as const;
/** Search counts matches up to this many; beyond it `limited` is true. */
export const SEARCH_TOTAL_LIMIT = 10_000;
/** Session-storage key of the advanced search page's state (spec: search info). */
export const SEARCH_INFO_KEY = 'searchInfo';

// ---- preview (api-contract.md, "Preview") ----

/** Session-storage key of an external share's access key (the share page keeps it; the preview page reads it). */
export const shareKeyStorageName = (shareId: string) => `share-key:${shareId}`;
/** Bytes of a text file the preview shows (the server sends no more; `truncated` says so). */
export const TEXT_PREVIEW_LIMIT = 2 * 1024 * 1024;
