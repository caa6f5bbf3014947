// 通知设置 (个人设置: each notice kind on each channel, and how often mails and DingTalk messages
// are summed up) and 系统管理 › 通知 (system administrators only: the mail server, the rules fixed
// for everyone, the notices that could not be delivered). Issue 28.
import { http, type HttpConfig } from '@app/shared';

/** inApp 站内消息, mail 邮件, dingtalk 钉钉 (only where DingTalk 工作通知 is configured: the server lists the channels). */
export type NoticeChannel = 'inApp' | 'mail' | (string & {});
export type NoticeDigest = 'hourly' | 'daily';
/** user 用户自选, on 强制开启, off 强制关闭 */
export type NoticePolicyMode = 'user' | 'on' | 'off';

export interface NoticeChannelInfo {
  key: NoticeChannel;
  name: string;
  /** the person can be reached there (mail: switched on by the administrator, and an address; 钉钉: DingTalk bound) */
  available: boolean;
  /** why not, when not */
  note: string;
}

export interface NoticeSettingCell {
  enabled: boolean;
  /** fixed by an administrator (shown disabled) */
  fixed: boolean;
}

/** GET /api/Account/NoticeSettings */
export interface NoticeSettings {
  kinds: string[];
  channels: NoticeChannelInfo[];
  rows: Array<{ kind: string; urgent: boolean; channels: Record<string, NoticeSettingCell> }>;
  digest: NoticeDigest;
  /** the hour daily digests go out */
  dailyHour: number;
  email: string;
}

export interface NoticeSettingsBody {
  settings?: Record<string, Record<string, boolean>>;
  digest?: NoticeDigest;
}

export type MailSecurity = 'none' | 'starttls' | 'tls';

/** GET /api/Admin/MailSettings: the password is never returned (`hasPassword`). */
export interface MailSettings {
  enabled: boolean;
  host: string;
  port: number;
  security: MailSecurity;
  tlsVerify: boolean;
  user: string;
  from: string;
  fromName: string;
  /** the product's address as people reach it: links in mails */
  externalUrl: string;
  hasPassword: boolean;
}

/** PUT /api/Admin/MailSettings: what is left out stays; `password` '' clears the stored one. */
export type MailSettingsBody = Partial<Omit<MailSettings, 'hasPassword'>> & { password?: string };

/** GET /api/Admin/NoticePolicy */
export interface NoticePolicy {
  kinds: string[];
  channels: Array<{ key: NoticeChannel; name: string }>;
  rules: Record<string, Record<string, NoticePolicyMode>>;
  dailyHour: number;
  /** mailed (and sent to DingTalk) at once; the others wait for each person's digest */
  urgentKinds: string[];
}

export interface NoticePolicyBody {
  rules?: Record<string, Record<string, NoticePolicyMode>>;
  dailyHour?: number;
}

export type NoticeDeliveryStatus = 'failed' | 'skipped';

export interface NoticeDelivery {
  id: string;
  userId: string;
  userName: string;
  nickName: string;
  email: string;
  kind: string;
  title: string;
  /** 'mail' or 'dingtalk' */
  channel: string;
  /** 邮件, 钉钉 */
  channelName: string;
  /** where it went: the e-mail address or the DingTalk userid ('' when nothing went out) */
  recipient: string;
  status: string;
  reason: string;
  attempts: number;
  /** when the notice was made */
  createdAt: string;
  /** when it failed or was skipped */
  updatedAt: string;
}

export const noticeSettingsApi = {
  getMine: (config?: HttpConfig) => http.get<NoticeSettings>('/Account/NoticeSettings', config),
  saveMine: (body: NoticeSettingsBody, config?: HttpConfig) => http.put<NoticeSettings>('/Account/NoticeSettings', body, config),
  getMail: (config?: HttpConfig) => http.get<MailSettings>('/Admin/MailSettings', config),
  saveMail: (body: MailSettingsBody, config?: HttpConfig) => http.put<MailSettings>('/Admin/MailSettings', body, config),
  /** sends a test mail now with the saved settings; a failure rejects with the server's Chinese message (502/50201) */
  testMail: (to: string, config?: HttpConfig) => http.post<{ message: string }>('/Admin/MailSettings/Test', { to }, config),
  getPolicy: (config?: HttpConfig) => http.get<NoticePolicy>('/Admin/NoticePolicy', config),
  savePolicy: (body: NoticePolicyBody, config?: HttpConfig) => http.put<NoticePolicy>('/Admin/NoticePolicy', body, config),
  getDeliveries: (query: { status: NoticeDeliveryStatus; page: number; pageSize: number }, config?: HttpConfig) =>
    http.get<{ data: NoticeDelivery[]; total: number }>('/Admin/NoticeDeliveries', { ...config, params: { ...query, ...config?.params } }),
};

export type NoticeSettingsApi = typeof noticeSettingsApi;
