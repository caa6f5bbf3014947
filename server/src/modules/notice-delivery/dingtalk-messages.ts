// The DingTalk 工作通知 of 云文档's notices, in Chinese: one notice (sent at once) as an action
// card whose button opens what it is about through the external address (a markdown message
// when there is nothing to open), and a digest listing at most DINGTALK_DIGEST_LIMIT notices with
// a button to 消息中心. Every message carries the notices' times to the second: DingTalk drops
// a message identical to one the person already got that day, and still answers success; the
// sender adds a line (`variant`) when even that would repeat.
import crypto from 'node:crypto';
import { absoluteLink, type MailContext, type MailNotice } from './templates';

/** Notices listed in one DingTalk digest; the others are counted. */
export const DINGTALK_DIGEST_LIMIT = 10;
const BODY_LIMIT = 200;

export type DingTalkMessage =
  | { msgtype: 'action_card'; action_card: { title: string; markdown: string; single_title: string; single_url: string } }
  | { msgtype: 'markdown'; markdown: { title: string; text: string } };

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
/** One line of markdown: no line breaks inside. */
const line = (s: string) => s.replace(/\s*[\r\n]+\s*/g, ' ').trim();

function message(title: string, markdown: string, button: string, href: string): DingTalkMessage {
  const t = clip(line(title), 64);
  return href ? { msgtype: 'action_card', action_card: { title: t, markdown, single_title: button, single_url: href } } : { msgtype: 'markdown', markdown: { title: t, text: markdown } };
}

const repeat = (variant: number) => (variant > 1 ? [`（今天第 ${variant} 条相同内容的通知）`] : []);

/** One notice, sent at once. */
export function dingtalkSingle(ctx: MailContext, n: MailNotice, variant = 1): DingTalkMessage {
  const href = n.link ? absoluteLink(ctx, n.link) : '';
  const markdown = [`#### ${line(n.title)}`, ...(n.body ? [clip(line(n.body), BODY_LIMIT)] : []), `${ctx.product} · ${n.createdAt}`, ...repeat(variant)].join('\n\n');
  return message(n.title, markdown, '查看详情', href);
}

/** Several notices in one message, oldest first; at most DINGTALK_DIGEST_LIMIT listed, the rest counted. */
export function dingtalkDigest(ctx: MailContext, notices: readonly MailNotice[], variant = 1): DingTalkMessage {
  const listed = notices.slice(0, DINGTALK_DIGEST_LIMIT);
  const more = notices.length - listed.length;
  const heading = `你有 ${notices.length} 条新消息`;
  const items = listed.map((n, i) => {
    const href = n.link ? absoluteLink(ctx, n.link) : '';
    const title = href ? `[${line(n.title)}](${href})` : `**${line(n.title)}**`;
    return `${i + 1}. ${title}${n.body ? `：${clip(line(n.body), BODY_LIMIT)}` : ''}（${n.createdAt}）`;
  });
  const markdown = [
    `#### ${heading}`,
    items.join('\n'),
    ...(more > 0 ? [`另有 ${more} 条消息未列出，请到${ctx.product}的消息中心（页面右上角的铃铛）查看。`] : []),
    `${ctx.product} · 如需调整收到哪些通知、汇总的频率，请在“个人设置 › 通知设置”中修改。`,
    ...repeat(variant),
  ].join('\n\n');
  return message(`${ctx.product}：${heading}`, markdown, '打开消息中心', absoluteLink(ctx, '/'));
}

/** A key of the content as DingTalk compares it (a person gets identical content once a day). */
export function contentKey(msg: DingTalkMessage): string {
  return crypto.createHash('sha256').update(JSON.stringify(msg)).digest('hex').slice(0, 40);
}
