// The mails of 云文档's notices, in Chinese, as HTML and as plain text: one notice (sent at once),
// a digest of several (at most DIGEST_LIMIT listed, the rest counted with a link to 消息中心), and
// the test mail of 系统管理. Each names the product (品牌 › 系统名称), links back to what it is
// about through the external address, and says where 通知设置 are changed.
import type { OutgoingMail } from './smtp';

/** Notices listed in one digest mail; the others are counted (“另有 N 条”). */
export const DIGEST_LIMIT = 25;

export interface MailNotice {
  title: string;
  body: string;
  /** the app route ('' when none) */
  link: string;
  /** yyyy-MM-dd HH:mm:ss */
  createdAt: string;
}

export interface MailContext {
  /** 品牌 › 系统名称 */
  product: string;
  /** the product's external address, without a trailing slash ('' when not set) */
  externalUrl: string;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The route made absolute with the external address ('' when either is missing). */
export function absoluteLink(ctx: MailContext, route: string): string {
  if (!ctx.externalUrl) return '';
  if (/^https?:\/\//i.test(route)) return route;
  return `${ctx.externalUrl}${route.startsWith('/') ? '' : '/'}${route}`;
}

function footer(ctx: MailContext): { html: string; text: string } {
  const settings = absoluteLink(ctx, '/account');
  const line = `此邮件由${ctx.product}自动发送，请勿直接回复。如需调整收到哪些通知、邮件的发送频率，请登录${ctx.product}，在“个人设置 › 通知设置”中修改。`;
  return {
    html: `<p style="margin:24px 0 0;padding-top:12px;border-top:1px solid #e5e5e5;color:#8c8c8c;font-size:12px;line-height:1.6">${escape(line)}${
      settings ? `<br><a href="${escape(settings)}" style="color:#8c8c8c">${escape(settings)}</a>` : ''
    }</p>`,
    text: `--\n${line}${settings ? `\n${settings}` : ''}`,
  };
}

function page(ctx: MailContext, heading: string, content: string): string {
  return [
    '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="margin:0;padding:24px;background:#f5f5f5;font-family:-apple-system,BlinkMacSystemFont,\'PingFang SC\',\'Microsoft YaHei\',sans-serif;color:#262626">',
    '<div style="max-width:600px;margin:0 auto;background:#fff;border-radius:6px;padding:24px">',
    `<div style="color:#1677ff;font-weight:600;margin-bottom:12px">${escape(ctx.product)}</div>`,
    `<h2 style="margin:0 0 16px;font-size:18px">${escape(heading)}</h2>`,
    content,
    footer(ctx).html,
    '</div></body></html>',
  ].join('');
}

const button = (href: string, label: string) =>
  `<p style="margin:20px 0 0"><a href="${escape(href)}" style="display:inline-block;padding:8px 20px;background:#1677ff;color:#fff;border-radius:4px;text-decoration:none">${escape(label)}</a></p>`;

/** One notice, sent at once. */
export function singleMail(ctx: MailContext, to: string, n: MailNotice): OutgoingMail {
  const href = n.link ? absoluteLink(ctx, n.link) : '';
  const html = page(
    ctx,
    n.title,
    [
      n.body ? `<p style="margin:0 0 8px;line-height:1.6">${escape(n.body)}</p>` : '',
      `<p style="margin:0;color:#8c8c8c;font-size:12px">${escape(n.createdAt)}</p>`,
      href ? button(href, '查看详情') : '',
    ].join(''),
  );
  const text = [n.title, '', ...(n.body ? [n.body] : []), n.createdAt, ...(href ? ['', `查看详情：${href}`] : []), '', footer(ctx).text].join('\n');
  return { to, subject: `【${ctx.product}】${n.title}`, html, text };
}

/** Several notices in one mail, newest last; at most DIGEST_LIMIT listed, the rest counted. */
export function digestMail(ctx: MailContext, to: string, notices: readonly MailNotice[]): OutgoingMail {
  const listed = notices.slice(0, DIGEST_LIMIT);
  const more = notices.length - listed.length;
  const center = absoluteLink(ctx, '/');
  const heading = `你有 ${notices.length} 条新消息`;
  const items = listed
    .map((n) => {
      const href = n.link ? absoluteLink(ctx, n.link) : '';
      const title = href ? `<a href="${escape(href)}" style="color:#1677ff;text-decoration:none">${escape(n.title)}</a>` : escape(n.title);
      return `<li style="margin:0 0 12px;line-height:1.6"><div style="font-weight:600">${title}</div>${n.body ? `<div>${escape(n.body)}</div>` : ''}<div style="color:#8c8c8c;font-size:12px">${escape(n.createdAt)}</div></li>`;
    })
    .join('');
  const moreLine = more > 0 ? `另有 ${more} 条消息未列出，请到${ctx.product}的消息中心（页面右上角的铃铛）查看。` : '';
  const html = page(
    ctx,
    heading,
    [
      `<ol style="margin:0;padding-left:20px">${items}</ol>`,
      moreLine ? `<p style="margin:8px 0 0">${escape(moreLine)}</p>` : '',
      center ? button(center, '打开消息中心') : '',
    ].join(''),
  );
  const text = [
    heading,
    '',
    ...listed.map((n, i) => {
      const href = n.link ? absoluteLink(ctx, n.link) : '';
      return [`${i + 1}. ${n.title}`, n.body ? `   ${n.body}` : '', `   ${n.createdAt}`, href ? `   ${href}` : ''].filter(Boolean).join('\n');
    }),
    ...(moreLine ? ['', moreLine] : []),
    ...(center ? ['', `打开消息中心：${center}`] : []),
    '',
    footer(ctx).text,
  ].join('\n');
  return { to, subject: `【${ctx.product}】${heading}`, html, text };
}

/** The test mail of 系统管理 › 通知. */
export function testMail(ctx: MailContext, to: string): OutgoingMail {
  const line = `这是一封测试邮件：${ctx.product}的邮件服务器设置可以正常发送邮件。`;
  const home = absoluteLink(ctx, '/');
  return {
    to,
    subject: `【${ctx.product}】测试邮件`,
    html: page(ctx, '测试邮件', `<p style="margin:0;line-height:1.6">${escape(line)}</p>${home ? button(home, `打开${ctx.product}`) : ''}`),
    text: [line, home ? `\n${home}` : '', '', footer(ctx).text].join('\n'),
  };
}
