// '@app/shared/admin': the calls of 系统管理 and 个人设置 (people, departments, the directory, the
// operation log, leavers, notice settings, app passwords), kept out of '@app/shared' so that the
// sign-in page does not load them. Their modules reach the HTTP client through '@app/shared'
// (one client and one session for the shell and every remote).
export { adminApi, ADMIN_ROLES, ADMIN_ROLE_LABELS, USER_SOURCE_LABELS, IMPORT_COLUMNS, FEATURE_LABELS, ANNOUNCEMENT_TITLE_MAX, ANNOUNCEMENT_BODY_MAX } from './api/admin';
export { directoryApi } from './api/directory';
export { oplogApi } from './api/oplog';
export { leaverApi } from './api/leavers';
export { noticeSettingsApi } from './api/noticeSettings';
export { appPasswordsApi, APP_PASSWORD_SCOPE_LABELS, APP_PASSWORD_NAME_MAX, webdavAddress } from './api/appPasswords';
