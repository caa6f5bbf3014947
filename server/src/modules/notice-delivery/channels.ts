// 通知设置 of 云文档 (issue 28): for each notice kind and channel, whether a person gets it, as
// an administrator fixed it (强制开启 / 强制关闭) or else as the person chose (on by default);
// and how often non-urgent mails and DingTalk messages go out (the digest). Works for any notice
// kind: the kinds are strings, nothing here lists them but the urgent ones.
import type { Kysely } from 'kysely';
import type { DingTalkConfig } from '../../config';
import type { Database } from '../../db/types';
import { URGENT_KINDS as URGENT } from '../notices/schemas';
import { readSetting } from '../settings/repository';

/** Every channel there may be, in the order 通知设置 shows them (which ones a server offers: offeredChannels). */
export const CHANNELS = ['inApp', 'mail', 'dingtalk'] as const;
export type Channel = (typeof CHANNELS)[number];
/** The channels outside the app: each notice gets a delivery row per such channel. */
export type OutsideChannel = Exclude<Channel, 'inApp'>;
export const OUTSIDE_CHANNELS: readonly OutsideChannel[] = ['mail', 'dingtalk'];
export const CHANNEL_NAMES: Record<Channel, string> = { inApp: '站内消息', mail: '邮件', dingtalk: '钉钉' };

/** The channels of this server: 站内消息 and 邮件 always, 钉钉 when DingTalk is configured with the AgentId of its 工作通知. */
export function offeredChannels(dingtalk: Pick<DingTalkConfig, 'agentId'> | null): Channel[] {
  return dingtalk?.agentId ? ['inApp', 'mail', 'dingtalk'] : ['inApp', 'mail'];
}

/** Kinds that ask the person to act soon (notices/schemas.ts): mailed (and sent to DingTalk) at once; every other kind waits for the digest. */
export const URGENT_KINDS: readonly string[] = URGENT;
export const isUrgent = (kind: string) => URGENT_KINDS.includes(kind);

/** An administrator's rule for one kind and channel. */
export type PolicyMode = 'user' | 'on' | 'off';
export const POLICY_MODES: readonly PolicyMode[] = ['user', 'on', 'off'];

export type Digest = 'hourly' | 'daily';
export const DIGESTS: readonly Digest[] = ['hourly', 'daily'];

/** Stored as the setting `noticePolicy`. */
export interface NoticePolicy {
  /** { [kind]: { [channel]: mode } }; what is missing is 'user' */
  rules: Record<string, Partial<Record<Channel, PolicyMode>>>;
  /** the hour (0–23, the server's time zone TZ_NAME) at which daily digests go out */
  dailyHour: number;
}
export const DEFAULT_POLICY: NoticePolicy = { rules: {}, dailyHour: 8 };

export interface Preference {
  /** { [kind]: { [channel]: on } }; what is missing is on */
  channels: Record<string, Partial<Record<Channel, boolean>>>;
  digest: Digest;
}
export const DEFAULT_PREFERENCE: Preference = { channels: {}, digest: 'hourly' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function readPolicy(db: Kysely<Database>): Promise<NoticePolicy> {
  const raw = await readSetting(db, 'noticePolicy');
  const out: NoticePolicy = { rules: {}, dailyHour: DEFAULT_POLICY.dailyHour };
  if (!isObject(raw)) return out;
  if (Number.isInteger(raw.dailyHour) && (raw.dailyHour as number) >= 0 && (raw.dailyHour as number) <= 23) out.dailyHour = raw.dailyHour as number;
  if (isObject(raw.rules)) {
    for (const [kind, byChannel] of Object.entries(raw.rules)) {
      if (!isObject(byChannel)) continue;
      const clean: Partial<Record<Channel, PolicyMode>> = {};
      for (const c of CHANNELS) if (POLICY_MODES.includes(byChannel[c] as PolicyMode) && byChannel[c] !== 'user') clean[c] = byChannel[c] as PolicyMode;
      if (Object.keys(clean).length) out.rules[kind] = clean;
    }
  }
  return out;
}

export function parsePreference(row: { channels: string; digest: string } | undefined): Preference {
  if (!row) return { channels: {}, digest: DEFAULT_PREFERENCE.digest };
  let channels: Preference['channels'] = {};
  try {
    const parsed = JSON.parse(row.channels) as unknown;
    if (isObject(parsed)) {
      for (const [kind, byChannel] of Object.entries(parsed)) {
        if (!isObject(byChannel)) continue;
        const clean: Partial<Record<Channel, boolean>> = {};
        for (const c of CHANNELS) if (typeof byChannel[c] === 'boolean') clean[c] = byChannel[c] as boolean;
        channels[kind] = clean;
      }
    }
  } catch {
    channels = {};
  }
  return { channels, digest: DIGESTS.includes(row.digest as Digest) ? (row.digest as Digest) : DEFAULT_PREFERENCE.digest };
}

/** The people's preferences (the default for those who never saved any). */
export async function readPreferences(db: Kysely<Database>, userIds: readonly number[]): Promise<Map<number, Preference>> {
  const out = new Map<number, Preference>();
  const ids = [...new Set(userIds.map(Number))];
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db.selectFrom('notice_preferences').select(['user_id', 'channels', 'digest']).where('user_id', 'in', ids.slice(i, i + 1000)).execute();
    for (const r of rows) out.set(Number(r.user_id), parsePreference(r));
  }
  for (const id of ids) if (!out.has(id)) out.set(id, parsePreference(undefined));
  return out;
}

/** Whether the person gets notices of the kind on the channel, and whether an administrator fixed it. */
export function effective(policy: NoticePolicy, pref: Preference, kind: string, channel: Channel): { enabled: boolean; fixed: boolean } {
  const mode = policy.rules[kind]?.[channel] ?? 'user';
  if (mode === 'on') return { enabled: true, fixed: true };
  if (mode === 'off') return { enabled: false, fixed: true };
  return { enabled: pref.channels[kind]?.[channel] ?? true, fixed: false };
}

/** Whether mail is switched on in 系统管理 › 通知 (the SMTP settings). */
export async function mailEnabled(db: Kysely<Database>): Promise<boolean> {
  const raw = await readSetting(db, 'mailSettings');
  return isObject(raw) && raw.enabled === true && typeof raw.host === 'string' && raw.host.trim() !== '';
}
