// 通知设置 (个人设置) and 系统管理 › 通知: a person's choice per notice kind and channel (the
// channels this server offers: 钉钉 only with DINGTALK_AGENT_ID) and the digest frequency; the
// rows an administrator fixes for everyone (用户自选 / 强制开启 / 强制关闭) and the hour of daily
// digests; the deliveries that could not be made.
import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { badRequest } from '../../lib/errors';
import type { TimeFormatter } from '../../lib/time';
import { NOTICE_KINDS } from '../notices/schemas';
import { recordAction } from '../people/repository';
import { writeSetting } from '../settings/repository';
import { assertSystemAdmin } from '../users/service';
import {
  CHANNEL_NAMES,
  effective,
  mailEnabled,
  readPolicy,
  readPreferences,
  URGENT_KINDS,
  type Channel,
  type Digest,
  type PolicyMode,
} from './channels';
import { reachable } from './recipients';

export interface NoticeSettingsBody {
  /** { [kind]: { [channel]: on } }; what is left out stays */
  settings?: Record<string, Record<string, boolean>>;
  digest?: Digest;
}

export interface NoticePolicyBody {
  /** { [kind]: { [channel]: 'user' | 'on' | 'off' } }; what is left out stays */
  rules?: Record<string, Record<string, PolicyMode>>;
  dailyHour?: number;
}

export interface DeliveriesQuery {
  status: 'failed' | 'skipped';
  page: number;
  pageSize: number;
}

const MODE_NAMES: Record<PolicyMode, string> = { user: '用户自选', on: '强制开启', off: '强制关闭' };

/** Every notice kind the server makes, in the order of 消息中心. */
const kinds = (): string[] => [...NOTICE_KINDS];

export class NoticePreferencesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly formatTime: TimeFormatter,
    /** the channels this server offers (channels.ts offeredChannels) */
    private readonly offered: readonly Channel[] = ['inApp', 'mail'],
  ) {}

  private checkKeys(value: Record<string, Record<string, unknown>>): void {
    const known = new Set(kinds());
    for (const [kind, byChannel] of Object.entries(value)) {
      if (!known.has(kind)) throw badRequest(`未知的通知类型：${kind}`);
      for (const c of Object.keys(byChannel)) if (!this.offered.includes(c as Channel)) throw badRequest(`未知的通知渠道：${c}`);
    }
  }

  private async channels(user: UserRow) {
    const out = [];
    for (const key of this.offered) {
      if (key === 'mail') {
        const mailOn = await mailEnabled(this.db);
        const email = (user.email ?? '').trim();
        const note = !mailOn ? '管理员尚未启用邮件通知' : !email ? '你没有邮箱地址，收不到邮件；请联系管理员填写邮箱' : '';
        out.push({ key, name: CHANNEL_NAMES[key], available: mailOn && !!email, note });
      } else if (key === 'dingtalk') {
        const bound = (await reachable(this.db, 'dingtalk', [user.id])).has(Number(user.id));
        const note = bound ? '' : '你的账号没有绑定钉钉，收不到钉钉消息；用钉钉登录一次，或由管理员同步钉钉通讯录后即可收到';
        out.push({ key, name: CHANNEL_NAMES[key], available: bound, note });
      } else {
        out.push({ key, name: CHANNEL_NAMES[key], available: true, note: '' });
      }
    }
    return out;
  }

  /** GET /api/Account/NoticeSettings */
  async settingsOf(user: UserRow) {
    const [policy, prefs, channels] = [await readPolicy(this.db), await readPreferences(this.db, [user.id]), await this.channels(user)];
    const pref = prefs.get(Number(user.id))!;
    return {
      kinds: kinds(),
      channels,
      rows: kinds().map((kind) => ({
        kind,
        urgent: URGENT_KINDS.includes(kind),
        channels: Object.fromEntries(this.offered.map((c) => [c, effective(policy, pref, kind, c)])) as Record<Channel, { enabled: boolean; fixed: boolean }>,
      })),
      digest: pref.digest,
      dailyHour: policy.dailyHour,
      email: (user.email ?? '').trim(),
    };
  }

  /** PUT /api/Account/NoticeSettings: a fixed row may be saved; the administrator's rule wins while it stands. */
  async setSettings(user: UserRow, body: NoticeSettingsBody) {
    if (body.settings) this.checkKeys(body.settings);
    const pref = (await readPreferences(this.db, [user.id])).get(Number(user.id))!;
    const channels = { ...pref.channels };
    for (const [kind, byChannel] of Object.entries(body.settings ?? {})) {
      channels[kind] = { ...channels[kind] };
      for (const [c, on] of Object.entries(byChannel)) channels[kind][c as Channel] = on;
    }
    const digest = body.digest ?? pref.digest;
    const now = Date.now();
    const value = { channels: JSON.stringify(channels), digest, updated_at: now };
    await this.db
      .insertInto('notice_preferences')
      .values({ user_id: user.id, ...value })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(value))
      .execute();
    // a new frequency applies to what already waits: the sender sets its time again
    if (digest !== pref.digest) {
      await this.db.updateTable('notice_deliveries').set({ next_at: 0 }).where('user_id', '=', user.id).where('status', '=', 'pending').where('digest', '=', 1).execute();
    }
    return this.settingsOf(user);
  }

  /** GET /api/Admin/NoticePolicy */
  async policy(caller: UserRow) {
    assertSystemAdmin(caller);
    const policy = await readPolicy(this.db);
    return {
      kinds: kinds(),
      channels: this.offered.map((key) => ({ key, name: CHANNEL_NAMES[key] })),
      rules: Object.fromEntries(kinds().map((kind) => [kind, Object.fromEntries(this.offered.map((c) => [c, policy.rules[kind]?.[c] ?? 'user']))])) as Record<
        string,
        Record<Channel, PolicyMode>
      >,
      dailyHour: policy.dailyHour,
      urgentKinds: kinds().filter((k) => URGENT_KINDS.includes(k)),
    };
  }

  /** PUT /api/Admin/NoticePolicy */
  async setPolicy(caller: UserRow, body: NoticePolicyBody) {
    assertSystemAdmin(caller);
    if (body.rules) this.checkKeys(body.rules);
    if (body.dailyHour !== undefined && !(Number.isInteger(body.dailyHour) && body.dailyHour >= 0 && body.dailyHour <= 23)) throw badRequest('每日汇总的发送时间应为 0–23 点');
    const current = await readPolicy(this.db);
    const rules = { ...current.rules };
    for (const [kind, byChannel] of Object.entries(body.rules ?? {})) {
      const next = { ...rules[kind] };
      for (const [c, mode] of Object.entries(byChannel)) {
        if (mode === 'user') delete next[c as Channel];
        else next[c as Channel] = mode;
      }
      if (Object.keys(next).length) rules[kind] = next;
      else delete rules[kind];
    }
    const next = { rules, dailyHour: body.dailyHour ?? current.dailyHour };
    await writeSetting(this.db, 'noticePolicy', next, Date.now());
    const fixed = Object.entries(rules).flatMap(([kind, byChannel]) => Object.entries(byChannel).map(([c, mode]) => `${kind}/${CHANNEL_NAMES[c as Channel] ?? c}：${MODE_NAMES[mode as PolicyMode]}`));
    await recordAction(this.db, {
      actorId: caller.id,
      actorName: caller.user_name,
      action: '修改通知策略',
      targetType: 'setting',
      targetId: 'noticePolicy',
      targetName: '通知',
      detail: `${fixed.length ? fixed.join('；') : '全部由用户自选'}；每日汇总 ${next.dailyHour}:00`.slice(0, 1000),
    });
    return this.policy(caller);
  }

  /** GET /api/Admin/NoticeDeliveries: what could not be delivered, newest first. */
  async deliveries(caller: UserRow, q: DeliveriesQuery) {
    assertSystemAdmin(caller);
    const base = this.db
      .selectFrom('notice_deliveries as d')
      .innerJoin('notices as n', 'n.id', 'd.notice_id')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .where('d.status', '=', q.status);
    const [rows, count] = [
      await base
        .select(['d.id', 'd.user_id', 'u.user_name', 'u.nick_name', 'u.email', 'n.kind', 'n.title', 'd.channel', 'd.recipient', 'd.status', 'd.reason', 'd.attempts', 'd.created_at', 'd.updated_at'])
        .orderBy('d.updated_at', 'desc')
        .orderBy('d.id', 'desc')
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize)
        .execute(),
      await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ];
    return {
      data: rows.map((r) => ({
        id: String(r.id),
        userId: String(r.user_id),
        userName: r.user_name,
        nickName: r.nick_name,
        email: r.email ?? '',
        kind: r.kind,
        title: r.title,
        channel: r.channel,
        channelName: CHANNEL_NAMES[r.channel as Channel] ?? r.channel,
        recipient: r.recipient,
        status: r.status,
        reason: r.reason,
        attempts: Number(r.attempts),
        createdAt: this.formatTime(Number(r.created_at)),
        updatedAt: this.formatTime(Number(r.updated_at)),
      })),
      total: Number(count.n),
    };
  }
}
