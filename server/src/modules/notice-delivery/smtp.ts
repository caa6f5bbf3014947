// The mail server of 云文档's notices: a nodemailer transport made from 系统管理 › 通知, and the
// failures it reports told in Chinese (connection refused, no such host, timeout, encryption,
// sign-in, refused address).
import nodemailer from 'nodemailer';

export type MailSecurity = 'none' | 'starttls' | 'tls';
export const MAIL_SECURITIES: readonly MailSecurity[] = ['none', 'starttls', 'tls'];

/** 系统管理 › 通知 › 邮件服务器 (the password kept apart, sealed). */
export interface MailSettings {
  enabled: boolean;
  host: string;
  port: number;
  /** none: plain; starttls: plain then STARTTLS (required); tls: TLS from the start (465) */
  security: MailSecurity;
  /** verify the server's certificate */
  tlsVerify: boolean;
  /** the account to sign in with ('' for none) */
  user: string;
  /** the sender's address */
  from: string;
  /** the sender's name ('' for the product's name) */
  fromName: string;
  /** the product's address as people reach it (https://docs.example.com): links in mails */
  externalUrl: string;
}

export const DEFAULT_MAIL_SETTINGS: MailSettings = {
  enabled: false,
  host: '',
  port: 587,
  security: 'starttls',
  tlsVerify: true,
  user: '',
  from: '',
  fromName: '',
  externalUrl: '',
};

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** A transport on the settings (one connection, kept while the round sends). */
export function smtpTransport(s: MailSettings, password: string, senderName: string): MailTransport {
  const t = nodemailer.createTransport({
    pool: true,
    maxConnections: 1,
    host: s.host,
    port: s.port,
    secure: s.security === 'tls',
    requireTLS: s.security === 'starttls',
    ignoreTLS: s.security === 'none',
    auth: s.user ? { user: s.user, pass: password } : undefined,
    tls: { rejectUnauthorized: s.tlsVerify },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  const from = { name: s.fromName || senderName, address: s.from };
  return {
    async send(mail) {
      const info = await t.sendMail({ from, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text });
      return { messageId: String(info.messageId ?? '') };
    },
    close() {
      t.close();
    },
  };
}

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
  command?: string;
}

/** A reply the server would give again to the same mail (5yz, except 503): retrying is useless. */
export function isPermanent(err: unknown): boolean {
  const e = err as SmtpFailure | null;
  const code = Number(e?.responseCode);
  return code >= 500 && code < 600 && code !== 503 && e?.code !== 'EAUTH';
}

/** What went wrong, in a Chinese sentence an administrator can act on. */
export function explainSmtpError(err: unknown, s: Pick<MailSettings, 'host' | 'port' | 'security'>): string {
  const e = (err ?? {}) as SmtpFailure;
  const text = `${e.message ?? ''} ${e.response ?? ''}`;
  const where = `${s.host}:${s.port}`;
  const reply = e.response ? `（服务器答复：${e.response.slice(0, 200)}）` : '';
  if (/ECONNREFUSED/.test(text)) return `无法连接邮件服务器 ${where}：连接被拒绝，请检查服务器地址和端口`;
  if (/ENOTFOUND|EAI_AGAIN/.test(text) || e.code === 'EDNS') return `找不到邮件服务器 ${s.host}，请检查服务器地址`;
  if (/EHOSTUNREACH|ENETUNREACH/.test(text)) return `无法连接邮件服务器 ${where}：网络不可达`;
  if (e.code === 'ETIMEDOUT' || /ETIMEDOUT|timeout/i.test(text)) return `连接邮件服务器 ${where} 超时，请检查地址、端口和防火墙`;
  if (e.code === 'EAUTH') return `登录邮件服务器失败：账号或密码错误${reply}`;
  if (e.code === 'ENOAUTH') return '邮件服务器要求登录，请填写账号和密码';
  if (e.code === 'ETLS' || /TLS|SSL|certificate|wrong version number|self[- ]signed|EPROTO/i.test(text)) {
    const hint = s.security === 'tls' ? '（TLS 通常使用 465 端口；587 端口请选择 STARTTLS）' : s.security === 'starttls' ? '（服务器可能不支持 STARTTLS，或证书无法校验）' : '';
    return `与邮件服务器建立加密连接失败，请检查“加密方式”与端口是否匹配${hint}${/certificate|self[- ]signed/i.test(text) ? '；服务器证书无法校验，可关闭“校验服务器证书”' : ''}`;
  }
  if (e.code === 'EENVELOPE' || e.command === 'RCPT TO' || e.command === 'MAIL FROM') return `邮件服务器拒绝了发件人或收件人地址${reply}`;
  if (e.code === 'ECONNECTION' || e.code === 'ESOCKET' || /ECONNRESET|closed/i.test(text)) return `与邮件服务器 ${where} 的连接中断${reply}`;
  if (e.responseCode) return `邮件服务器拒绝发送${reply}`;
  return `邮件发送失败：${(e.message ?? String(err)).slice(0, 200)}`;
}
