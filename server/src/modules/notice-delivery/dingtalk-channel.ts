// 钉钉 as a channel of the notice sender (sender.ts): DingTalk 工作通知 of the app configured by
// DINGTALK_APP_KEY / DINGTALK_APP_SECRET with DINGTALK_AGENT_ID.
//
// - Who: a person synced from DingTalk's contacts has their userid as the directory's external
//   id; for one who signed in with DingTalk, the userid of their union id is asked once
//   (topapi/user/getbyunionid) and kept (dingtalk_userids). Neither: skipped, 未绑定钉钉.
// - Sending: topapi/message/corpconversation/asyncsend_v2, an action card (or markdown) to up to
//   BATCH_SIZE people at once when the content is the same (one notice of an event to several
//   people); a digest per person. DingTalk drops a message identical to one the person got that
//   day and still answers success: every message carries its notices' times, and a content the
//   person got in the last 24 hours (content_key) gets a line that makes it differ. A person who
//   got URGENT_DAILY_CAP messages in 24 hours gets further urgent notices in the digest, well
//   inside DingTalk's daily limit per person.
// - Afterwards: DingTalk only said it took the message. The rows stay 'checking'; from
//   CONFIRM_AFTER_MS on, a later round asks topapi/message/corpconversation/getsendresult with
//   the task id: the people listed as failed, invalid or forbidden (flow control, the daily
//   limit) are marked failed with the reason in Chinese, those listed read or unread are sent;
//   someone not listed yet is asked again each CONFIRM_AGAIN_MS until CONFIRM_HORIZON_MS, then
//   taken as sent.
// - Errors of DingTalk (errcode ≠ 0) are retried with backoff like a mail; a refused access token
//   is fetched again once; DingTalk out of reach ends the round.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DingTalkConfig } from '../../config';
import type { Database } from '../../db/types';
import type { TimeFormatter } from '../../lib/time';
import { contentKey, dingtalkDigest, dingtalkSingle, type DingTalkMessage } from './dingtalk-messages';
import type { MailSettingsService } from './mail-settings';
import { dingtalkIdentities, dingtalkUserid, NO_ADDRESS } from './recipients';
import { DeliveryError, type Addressed, type ChannelSession, type Claimed, type DeliveryChannel, type Outcome } from './sender';

const TIMEOUT_MS = 15_000;
/** People per asyncsend_v2 call. */
export const BATCH_SIZE = 100;
/** Messages to one person in 24 hours after which urgent notices wait for the digest (DingTalk allows an app 500 a day per person). */
export const URGENT_DAILY_CAP = 100;
const DAY_MS = 24 * 3600_000;
/** Someone getsendresult does not list yet is asked about again after this… */
export const CONFIRM_AGAIN_MS = 60_000;
/** …until this long after sending; then the message is taken as delivered. */
export const CONFIRM_HORIZON_MS = 3600_000;
/** Task ids asked about per round, at most. */
const CONFIRM_BATCH = 50;

export const DINGTALK_OFF = '钉钉通知未配置（未设置 DINGTALK_AGENT_ID）';

/** errcodes of a refused or expired access token: fetched again once. */
const TOKEN_ERRORS = new Set([88, 40001, 40014, 42001]);
/** getbyunionid: no member of the organisation has that union id. */
const UNKNOWN_USER = 60121;

/** A Chinese sentence for an errcode of DingTalk's. */
export function explainDingTalkError(errcode: number, errmsg: string): string {
  const said = errmsg ? `（钉钉答复：${errmsg.slice(0, 200)}，错误码 ${errcode}）` : `（错误码 ${errcode}）`;
  if (TOKEN_ERRORS.has(errcode)) return `钉钉访问令牌无效，请检查 DINGTALK_APP_KEY 和 DINGTALK_APP_SECRET${said}`;
  if (errcode === 40056 || /agent ?id/i.test(errmsg)) return `钉钉应用的 AgentId 不正确，请检查 DINGTALK_AGENT_ID${said}`;
  if (errcode === 60020) return `服务器的 IP 地址不在钉钉应用的白名单中${said}`;
  if (errcode === 60011 || /权限|permission/i.test(errmsg)) return `钉钉应用没有所需的权限（工作通知、通讯录读取）${said}`;
  if ([90002, 90018, 143103, 143104, 143203, 143204].includes(errcode)) return `调用钉钉接口过于频繁，稍后重试${said}`;
  return `钉钉返回错误${said}`;
}

/** Why getsendresult lists someone as not reached. */
export const UNDELIVERED = {
  failed: '钉钉未送达：钉钉发送失败',
  invalid: '钉钉未送达：用户不存在或已离职',
  dailyLimit: '钉钉未送达：超出每日发送上限',
  repeated: '钉钉未送达：当天已收到过相同内容的消息',
  throttled: '钉钉未送达：发送过于频繁，被钉钉限流',
  forbidden: '钉钉未送达：被钉钉限制发送（发送过于频繁或超出每日上限）',
} as const;

function forbiddenReason(code: string): string {
  if (code === '143105' || code === '143205') return UNDELIVERED.dailyLimit;
  if (code === '143106' || code === '143206') return UNDELIVERED.repeated;
  if (['143103', '143104', '143203', '143204'].includes(code)) return UNDELIVERED.throttled;
  return `钉钉未送达：被钉钉限制发送（${code || '未说明原因'}）`;
}

/** DingTalk's open API as the sender uses it: the app token (kept until it runs out or is refused) and topapi calls. */
export class DingTalkWorkNotices {
  private token: { value: string; until: number } | null = null;

  constructor(private readonly config: DingTalkConfig) {}

  private async json(url: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (err) {
      throw new DeliveryError('无法连接钉钉服务，稍后重试', err instanceof Error ? err.message : String(err), false, true);
    }
    let body: Record<string, unknown> = {};
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const { status, body } = await this.json(`${this.config.apiBase}/v1.0/oauth2/accessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appKey: this.config.appKey, appSecret: this.config.appSecret }),
    });
    if (status !== 200 || typeof body.accessToken !== 'string' || !body.accessToken) {
      const said = typeof body.message === 'string' ? body.message : `HTTP ${status}`;
      throw new DeliveryError(`无法取得钉钉访问令牌，请检查 DINGTALK_APP_KEY 和 DINGTALK_APP_SECRET（钉钉答复：${said.slice(0, 200)}）`, `accessToken: ${said}`, false, true);
    }
    const seconds = typeof body.expireIn === 'number' ? body.expireIn : 7200;
    this.token = { value: body.accessToken, until: Date.now() + Math.max(60, seconds - 300) * 1000 };
    return this.token.value;
  }

  /** POST {oapi}{path}?access_token=…; an errcode ≠ 0 (other than those in `accept`) throws a DeliveryError. */
  async post(path: string, body: unknown, accept: readonly number[] = []): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      const { status, body: answer } = await this.json(`${this.config.oapiBase}${path}?access_token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (status !== 200) throw new DeliveryError(`钉钉服务暂时不可用（HTTP ${status}），稍后重试`, `${path}: HTTP ${status}`, false, true);
      const errcode = typeof answer.errcode === 'number' ? answer.errcode : 0;
      const errmsg = typeof answer.errmsg === 'string' ? answer.errmsg : '';
      if (errcode === 0 || accept.includes(errcode)) return answer;
      if (TOKEN_ERRORS.has(errcode) && attempt === 0) {
        this.token = null;
        continue;
      }
      throw new DeliveryError(explainDingTalkError(errcode, errmsg), `${path}: errcode ${errcode} ${errmsg}`);
    }
  }
}

export class DingTalkChannel implements DeliveryChannel {
  readonly key = 'dingtalk' as const;
  readonly lease = 'notice-dingtalk';
  readonly noAddress = NO_ADDRESS.dingtalk;
  readonly batchSize = BATCH_SIZE;
  readonly confirms = true;
  private readonly api: DingTalkWorkNotices | null;
  private readonly agentId: number;

  constructor(
    private readonly db: Kysely<Database>,
    config: DingTalkConfig | null,
    private readonly mail: MailSettingsService,
    private readonly formatTime: TimeFormatter,
  ) {
    this.api = config?.agentId ? new DingTalkWorkNotices(config) : null;
    this.agentId = Number(config?.agentId ?? 0);
  }

  /** The same notice to several people goes out in one message. */
  batchKey(row: Claimed): string {
    return JSON.stringify([row.kind, row.title, row.body, row.link, row.created_at]);
  }

  async open(): Promise<ChannelSession | { off: string }> {
    const api = this.api;
    if (!api) return { off: DINGTALK_OFF };
    const context = await this.mail.context();
    const when = (r: Claimed) => ({ ...r, createdAt: this.formatTime(r.created_at) });
    return {
      addresses: (rows, now) => this.addresses(api, rows, now),
      send: async (rows, mode, now) => {
        const out: Outcome[] = [];
        let sending = [...rows];
        if (mode === 'single') {
          const counts = await this.messagesSince(sending.map((r) => r.user_id), now - DAY_MS);
          const over = sending.filter((r) => (counts.get(r.user_id) ?? 0) >= URGENT_DAILY_CAP);
          if (over.length) out.push({ rows: over, defer: true });
          sending = sending.filter((r) => !over.includes(r));
        }
        if (!sending.length) return out;
        // what each person got lately: a message with the same content would be dropped
        const used = await this.contentSince(sending.map((r) => r.user_id), now - DAY_MS);
        const build = (some: Addressed[], variant: number) => (mode === 'digest' ? dingtalkDigest(context, some.map(when), variant) : dingtalkSingle(context, when(some[0]), variant));
        const messages = new Map<string, { msg: DingTalkMessage; rows: Addressed[] }>();
        const units = mode === 'digest' ? [sending] : sending.map((r) => [r]);
        for (const unit of units) {
          const mine = used.get(unit[0].user_id) ?? new Set<string>();
          used.set(unit[0].user_id, mine);
          for (let variant = 1; ; variant++) {
            const msg = build(unit, variant);
            const key = contentKey(msg);
            if (mine.has(key)) continue;
            mine.add(key);
            const m = messages.get(key) ?? { msg, rows: [] };
            m.rows.push(...unit);
            messages.set(key, m);
            break;
          }
        }
        for (const [key, { msg, rows: some }] of messages) {
          try {
            const r = await api.post('/topapi/message/corpconversation/asyncsend_v2', {
              agent_id: this.agentId,
              userid_list: [...new Set(some.map((x) => x.address))].join(','),
              msg,
            });
            const taskId = typeof r.task_id === 'number' || typeof r.task_id === 'string' ? String(r.task_id) : '';
            out.push({ rows: some, ok: true, receipt: taskId, contentKey: key });
          } catch (err) {
            if (!(err instanceof DeliveryError)) throw err;
            out.push({ rows: some, ok: false, error: err });
            if (err.broken) break;
          }
        }
        return out;
      },
      close() {
        /* nothing held */
      },
    };
  }

  /** The people's DingTalk userids ('' for none), union ids looked up once and kept. */
  private async addresses(api: DingTalkWorkNotices, rows: readonly Claimed[], now: number): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const [userId, p] of await dingtalkIdentities(this.db, rows.map((r) => r.user_id))) {
      let userid = dingtalkUserid(p, now);
      if (userid === null) {
        const union = (p.dingtalk_union_id ?? '').trim();
        const r = await api.post('/topapi/user/getbyunionid', { unionid: union }, [UNKNOWN_USER]);
        const result = (r.result ?? {}) as { userid?: unknown };
        userid = r.errcode === UNKNOWN_USER || typeof result.userid !== 'string' ? '' : result.userid;
        const value = { userid, resolved_at: now };
        await this.db
          .insertInto('dingtalk_userids')
          .values({ union_id: union, ...value })
          .onConflict((oc) => oc.column('union_id').doUpdateSet(value))
          .execute();
      }
      out.set(userId, userid);
    }
    return out;
  }

  /** DingTalk messages each person was sent since `since` (one per task id). */
  private async messagesSince(userIds: number[], since: number): Promise<Map<number, number>> {
    const ids = [...new Set(userIds)];
    const rows = await this.db
      .selectFrom('notice_deliveries')
      .select(['user_id', sql<number>`count(distinct task_id)`.as('n')])
      .where('channel', '=', 'dingtalk')
      .where('user_id', 'in', ids)
      .where('sent_at', '>=', since)
      .where('task_id', '!=', '')
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.user_id), Number(r.n)]));
  }

  /** The content keys of what each person was sent since `since`. */
  private async contentSince(userIds: number[], since: number): Promise<Map<number, Set<string>>> {
    const ids = [...new Set(userIds)];
    const rows = await this.db
      .selectFrom('notice_deliveries')
      .select(['user_id', 'content_key'])
      .distinct()
      .where('channel', '=', 'dingtalk')
      .where('user_id', 'in', ids)
      .where('sent_at', '>=', since)
      .where('content_key', '!=', '')
      .execute();
    const out = new Map<number, Set<string>>();
    for (const r of rows) {
      const set = out.get(Number(r.user_id)) ?? new Set<string>();
      set.add(r.content_key);
      out.set(Number(r.user_id), set);
    }
    return out;
  }

  /** Asks DingTalk what became of the messages whose time to look came. */
  async confirm(now: number, token: string): Promise<{ sent: number; failed: number }> {
    const done = { sent: 0, failed: 0 };
    const tasks = await this.db
      .selectFrom('notice_deliveries')
      .select('task_id')
      .distinct()
      .where('channel', '=', 'dingtalk')
      .where('status', '=', 'checking')
      .where('next_at', '<=', now)
      .limit(CONFIRM_BATCH)
      .execute();
    const finish = async (ids: number[], status: 'sent' | 'failed', reason = '', lastError = '') => {
      if (!ids.length) return;
      await this.db
        .updateTable('notice_deliveries')
        .set({ status, reason, last_error: lastError, updated_at: now })
        .where('id', 'in', ids)
        .where('status', '=', 'checking')
        .where('claimed_by', '=', token)
        .execute();
      done[status] += ids.length;
    };
    for (const { task_id: taskId } of tasks) {
      // taken for this look (another sender's round skips them until next_at)
      const claimed = await this.db
        .updateTable('notice_deliveries')
        .set({ claimed_by: token, claimed_at: now, next_at: now + CONFIRM_AGAIN_MS })
        .where('channel', '=', 'dingtalk')
        .where('status', '=', 'checking')
        .where('task_id', '=', taskId)
        .where('next_at', '<=', now)
        .returning(['id', 'recipient', 'sent_at'])
        .execute();
      if (!claimed.length) continue;
      const old = (r: { sent_at: number | null }) => now - Number(r.sent_at ?? 0) >= CONFIRM_HORIZON_MS;
      // nothing to ask about (DingTalk gave no task id), or DingTalk no longer configured
      if (!taskId || !this.api) {
        await finish(claimed.map((r) => Number(r.id)), 'sent');
        continue;
      }
      let result: Record<string, unknown>;
      try {
        const r = await this.api.post('/topapi/message/corpconversation/getsendresult', { agent_id: this.agentId, task_id: Number(taskId) });
        result = (r.send_result ?? {}) as Record<string, unknown>;
      } catch (err) {
        if (!(err instanceof DeliveryError)) throw err;
        // asked again later; long after sending, taken as delivered
        await finish(claimed.filter(old).map((r) => Number(r.id)), 'sent');
        if (err.broken) break;
        continue;
      }
      const list = (name: string) => (Array.isArray(result[name]) ? (result[name] as unknown[]).map(String) : []);
      const outcome = new Map<string, string>();
      for (const u of [...list('read_user_id_list'), ...list('unread_user_id_list')]) outcome.set(u, '');
      for (const u of list('failed_user_id_list')) outcome.set(u, UNDELIVERED.failed);
      for (const u of list('invalid_user_id_list')) outcome.set(u, UNDELIVERED.invalid);
      for (const u of list('forbidden_user_id_list')) outcome.set(u, UNDELIVERED.forbidden);
      for (const f of Array.isArray(result.forbidden_list) ? (result.forbidden_list as Array<Record<string, unknown>>) : []) {
        if (f && f.userid !== undefined) outcome.set(String(f.userid), forbiddenReason(String(f.code ?? '')));
      }
      const sent: number[] = [];
      const failed = new Map<string, number[]>();
      for (const r of claimed) {
        const reason = outcome.get(r.recipient);
        if (reason === '') sent.push(Number(r.id));
        else if (reason) failed.set(reason, [...(failed.get(reason) ?? []), Number(r.id)]);
        else if (old(r)) sent.push(Number(r.id));
      }
      await finish(sent, 'sent');
      for (const [reason, ids] of failed) await finish(ids, 'failed', reason, `getsendresult task ${taskId}`);
    }
    return done;
  }
}
