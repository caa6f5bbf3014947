// 目录同步 (系统管理, system administrators only): the LDAP/AD settings, 测试连接, the 钉钉通讯录同步
// settings, and the runs of a sync, each first a plan that an administrator applies. Every call
// from anyone else is refused with 403/40301.
import { http, type HttpConfig } from '@app/shared';

/** Where the people of a sync come from. */
export type DirectorySource = 'ldap' | 'dingtalk';

/** GET /api/Admin/Directory/Ldap: the bind password is never returned (`hasBindPassword`). */
export interface LdapSettings {
  /** LDAP sync and sign-in of directory people */
  enabled: boolean;
  /** ldap://host:port or ldaps://host:port */
  url: string;
  /** ldap:// only: encrypt with StartTLS after connecting */
  startTls: boolean;
  /** verify the server's certificate (LDAPS, StartTLS) */
  tlsVerify: boolean;
  bindDn: string;
  /** people are looked up below it; departments are the OUs under it */
  baseDn: string;
  /** an LDAP filter in parentheses, e.g. (objectClass=inetOrgPerson) */
  userFilter: string;
  /** the directory's attribute names for each field */
  attributes: { userName: string; displayName: string; mail: string; mobile: string; employeeNo: string };
  /** 'ou': the OU path of the DN; 'attribute': a path like 研发中心/前端组 in `departmentAttribute` */
  departmentsFrom: 'ou' | 'attribute';
  departmentAttribute: string;
  /** minutes between scheduled syncs; 0: none */
  intervalMinutes: number;
  /** a sync disabling more than this share (percent) of the synced people is not applied */
  maxDisablePercent: number;
  /** a bind password is stored */
  hasBindPassword: boolean;
}

/** PUT /api/Admin/Directory/Ldap: what is left out stays; `bindPassword` '' clears the stored one. */
export type LdapSettingsBody = Partial<Omit<LdapSettings, 'attributes' | 'hasBindPassword'>> & {
  attributes?: Partial<LdapSettings['attributes']>;
  bindPassword?: string;
};

/** POST /api/Admin/Directory/Ldap/Test: `message` is the Chinese answer either way. */
export interface LdapTestResult {
  ok: boolean;
  /** people the filter selects */
  people: number;
  /** the first few, as “uid（显示名）” */
  sample: string[];
  message: string;
}

/**
 * GET /api/Admin/Directory/Dingtalk: 钉钉通讯录同步. DingTalk itself (the app) is configured by
 * the DINGTALK_* environment variables; `configured` says whether it is, and the app secret is
 * never returned.
 */
export interface DingtalkSyncSettings {
  /** DINGTALK_APP_KEY and DINGTALK_APP_SECRET are set: the sync can run */
  configured: boolean;
  /** the app's key ('' when not configured) */
  appKey: string;
  /** 自动同步: a scheduled sync every `intervalMinutes`, applied unless refused */
  enabled: boolean;
  /** minutes between scheduled syncs, 5–10080 (default 60) */
  intervalMinutes: number;
  /** a sync disabling more than this share (percent) of the synced people is not applied (default 10) */
  maxDisablePercent: number;
  /** the DingTalk department synced with the ones under it; null: the whole organisation */
  rootDeptId: number | null;
}

/** PUT /api/Admin/Directory/Dingtalk: what is left out stays; 自动同步 cannot be switched on while DingTalk is not configured. */
export type DingtalkSyncSettingsBody = Partial<Pick<DingtalkSyncSettings, 'enabled' | 'intervalMinutes' | 'maxDisablePercent' | 'rootDeptId'>>;

/** The plan of a sync: what applying it does. */
export interface SyncSummary {
  /** people the directory answered */
  total: number;
  adds: number;
  updates: number;
  moves: number;
  disables: number;
  unchanged: number;
  /** people skipped, with the Chinese reason */
  conflicts: { userName: string; reason: string }[];
  /** department paths created on applying */
  departmentsToCreate: string[];
  /** the first rows of each kind */
  samples: {
    adds: string[];
    updates: { userName: string; changes: string[] }[];
    moves: { userName: string; from: string; to: string }[];
    disables: string[];
  };
  /** why nothing may be applied; null: it may be */
  refused: string | null;
}

/** planned 待应用; applied 已应用; refused 因安全规则未应用; failed 失败 */
export type DirectoryRunStatus = 'planned' | 'applied' | 'refused' | 'failed';

/** A sync (GET /api/Admin/Directory/Runs, newest first). */
export interface DirectoryRun {
  id: string;
  source: DirectorySource;
  trigger: 'manual' | 'schedule';
  status: DirectoryRunStatus;
  startedAt: number;
  finishedAt: number | null;
  /** null when the directory could not be read */
  summary: SyncSummary | null;
  /** the Chinese reason of a refused or failed run; '' otherwise */
  error: string;
}

const seg = encodeURIComponent;

export const directoryApi = {
  getLdap: (config?: HttpConfig) => http.get<LdapSettings>('/Admin/Directory/Ldap', config),
  setLdap: (body: LdapSettingsBody, config?: HttpConfig) => http.put<LdapSettings>('/Admin/Directory/Ldap', body, config),
  /** binds with the saved settings and counts the people */
  testLdap: (config?: HttpConfig) => http.post<LdapTestResult>('/Admin/Directory/Ldap/Test', undefined, config),
  /** reads the directory and returns the plan; nothing is written */
  syncLdap: (config?: HttpConfig) => http.post<DirectoryRun>('/Admin/Directory/Ldap/Sync', undefined, config),
  getDingtalk: (config?: HttpConfig) => http.get<DingtalkSyncSettings>('/Admin/Directory/Dingtalk', config),
  setDingtalk: (body: DingtalkSyncSettingsBody, config?: HttpConfig) => http.put<DingtalkSyncSettings>('/Admin/Directory/Dingtalk', body, config),
  /** reads the DingTalk contacts and returns the plan; nothing is written */
  syncDingtalk: (config?: HttpConfig) => http.post<DirectoryRun>('/Admin/Directory/Dingtalk/Sync', undefined, config),
  /** the latest 20 runs of a source, or of every source ('all'), newest first */
  getRuns: (source: DirectorySource | 'all', config?: HttpConfig) =>
    http.get<DirectoryRun[]>('/Admin/Directory/Runs', { ...config, params: { source, ...config?.params } }),
  /** applies the latest planned run, checked again against the accounts of now */
  applyRun: (id: string, config?: HttpConfig) => http.post<DirectoryRun>(`/Admin/Directory/Runs/${seg(id)}/Apply`, undefined, config),
};
export type DirectoryApi = typeof directoryApi;
