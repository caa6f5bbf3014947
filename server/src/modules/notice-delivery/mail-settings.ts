// 系统管理 › 通知 › 邮件服务器: the SMTP settings of 云文档's notice mails, kept in the settings
// table (`mailSettings`) with the password sealed (lib/secret-box.ts) and never sent back, and the
// test mail, sent at once, whose failure is answered as a Chinese sentence.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { AppError, badRequest } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { recordAction } from '../people/repository';
import { readSetting, writeSetting } from '../settings/repository';
import type { SettingsService } from '../settings/service';
import { assertSystemAdmin } from '../users/service';
import { DEFAULT_MAIL_SETTINGS, explainSmtpError, MAIL_SECURITIES, smtpTransport, type MailSecurity, type MailSettings, type MailTransport } from './smtp';
import { testMail, type MailContext } from './templates';

const SEAL_PURPOSE = 'smtp-password';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface StoredMail extends MailSettings {
  passwordSealed?: string;
}

export interface MailSettingsView extends MailSettings {
  /** a password is stored (it is never sent back) */
  hasPassword: boolean;
}

export type MailSettingsBody = Partial<MailSettings> & {
  /** undefined keeps the stored one; '' clears it */
  password?: string;
};

/** 502, code 50201: the mail server did not take the mail. */
export const mailFailed = (message: string) => new AppError(502, 50201, message);

function clean(body: Partial<MailSettings>, current: MailSettings): MailSettings {
  const s: MailSettings = { ...current };
  for (const [k, v] of Object.entries(body) as Array<[keyof MailSettings, unknown]>) {
    if (v !== undefined && k in DEFAULT_MAIL_SETTINGS && typeof v === typeof DEFAULT_MAIL_SETTINGS[k]) (s as unknown as Record<string, unknown>)[k] = v;
  }
  s.host = s.host.trim();
  s.user = s.user.trim();
  s.from = s.from.trim();
  s.fromName = s.fromName.trim();
  s.externalUrl = s.externalUrl.trim().replace(/\/+$/, '');
  if (!MAIL_SECURITIES.includes(s.security as MailSecurity)) throw badRequest('加密方式应为 无、STARTTLS 或 TLS');
  if (!Number.isInteger(s.port) || s.port < 1 || s.port > 65535) throw badRequest('端口应为 1–65535 之间的整数');
  if (s.host && !/^[A-Za-z0-9.\-:[\]]+$/.test(s.host)) throw badRequest('邮件服务器地址应为主机名或 IP 地址，如 smtp.example.com');
  if (s.from && !EMAIL.test(s.from)) throw badRequest('发件人地址不是有效的邮箱地址');
  if (s.fromName.length > 100) throw badRequest('发件人名称不能超过 100 个字符');
  if (s.externalUrl) {
    let ok = false;
    try {
      const u = new URL(s.externalUrl);
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && !u.search && !u.hash;
    } catch {
      ok = false;
    }
    if (!ok) throw badRequest('外部访问地址应为 http:// 或 https:// 开头的网址，如 https://docs.example.com');
  }
  if (s.enabled) {
    if (!s.host) throw badRequest('启用邮件通知需要填写邮件服务器地址');
    if (!s.from) throw badRequest('启用邮件通知需要填写发件人地址');
    if (!s.externalUrl) throw badRequest('启用邮件通知需要填写外部访问地址（邮件中的链接指向这里）');
  }
  return s;
}

export class MailSettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly settings: SettingsService,
  ) {}

  private async stored(): Promise<StoredMail> {
    const raw = (await readSetting(this.db, 'mailSettings')) as Partial<StoredMail> | undefined;
    const s = { ...DEFAULT_MAIL_SETTINGS } as StoredMail;
    if (raw && typeof raw === 'object') {
      for (const k of Object.keys(DEFAULT_MAIL_SETTINGS) as Array<keyof MailSettings>) {
        if (typeof raw[k] === typeof DEFAULT_MAIL_SETTINGS[k]) (s as unknown as Record<string, unknown>)[k] = raw[k];
      }
      if (typeof raw.passwordSealed === 'string') s.passwordSealed = raw.passwordSealed;
    }
    return s;
  }

  private view(s: StoredMail): MailSettingsView {
    const { passwordSealed, ...rest } = s;
    return { ...rest, hasPassword: !!passwordSealed };
  }

  async get(caller: UserRow): Promise<MailSettingsView> {
    assertSystemAdmin(caller);
    return this.view(await this.stored());
  }

  async set(caller: UserRow, body: MailSettingsBody): Promise<MailSettingsView> {
    assertSystemAdmin(caller);
    const current = await this.stored();
    const { password, ...rest } = body;
    const next: StoredMail = { ...clean(rest, current), passwordSealed: current.passwordSealed };
    if (password !== undefined) next.passwordSealed = password ? this.box.seal(password, SEAL_PURPOSE) : undefined;
    await writeSetting(this.db, 'mailSettings', next, Date.now());
    await recordAction(this.db, {
      actorId: caller.id,
      actorName: caller.user_name,
      action: '修改邮件服务器设置',
      targetType: 'setting',
      targetId: 'mailSettings',
      targetName: '邮件通知',
      detail: `${next.enabled ? '启用' : '停用'}，${next.host || '未填写服务器'}:${next.port}，${next.security === 'tls' ? 'TLS' : next.security === 'starttls' ? 'STARTTLS' : '不加密'}，发件人 ${next.from || '未填写'}${password !== undefined ? (password ? '，密码已更新' : '，密码已清除') : ''}`,
    });
    return this.view(next);
  }

  /** What the sender needs: the settings, the password, the mails' context. */
  async current(): Promise<{ settings: MailSettings; password: string; context: MailContext }> {
    const s = await this.stored();
    const { passwordSealed, ...settings } = s;
    const product = (await this.settings.branding()).systemName_Client || '云文档';
    return {
      settings,
      password: passwordSealed ? (this.box.open(passwordSealed, SEAL_PURPOSE) ?? '') : '',
      context: { product, externalUrl: settings.externalUrl },
    };
  }

  /** The product's name and external address (links in mails and DingTalk messages), without opening the password. */
  async context(): Promise<MailContext> {
    const s = await this.stored();
    const product = (await this.settings.branding()).systemName_Client || '云文档';
    return { product, externalUrl: s.externalUrl };
  }

  /** A transport on the stored settings. */
  async transport(): Promise<{ settings: MailSettings; context: MailContext; transport: MailTransport }> {
    const { settings, password, context } = await this.current();
    return { settings, context, transport: smtpTransport(settings, password, context.product) };
  }

  /** Sends a test mail now with the stored settings (enabled or not); a failure answers 502/50201 in Chinese. */
  async test(caller: UserRow, to: string): Promise<{ message: string }> {
    assertSystemAdmin(caller);
    const address = to.trim();
    if (!EMAIL.test(address)) throw badRequest('请填写有效的收件邮箱地址');
    const { settings, context, transport } = await this.transport();
    if (!settings.host) {
      transport.close();
      throw badRequest('请先填写并保存邮件服务器地址');
    }
    if (!settings.from) {
      transport.close();
      throw badRequest('请先填写并保存发件人地址');
    }
    try {
      await transport.send(testMail(context, address));
    } catch (err) {
      throw mailFailed(`测试邮件发送失败：${explainSmtpError(err, settings)}`);
    } finally {
      transport.close();
    }
    return { message: `测试邮件已发送到 ${address}，请查收` };
  }
}
