// The senders of 云文档's notices outside the app, one per channel (mail-channel.ts,
// dingtalk-channel.ts), each on the instance holding the channel's lease: the due deliveries of
// the channel (notice_deliveries) go out, an urgent notice at once (the channel may carry the
// same content to several people in one message: DingTalk); the others in the person's digest
// (hourly, or daily at the hour of 系统管理 › 通知), one message listing them. Rows are claimed in
// the database (pending → sending) before the message goes out, so two senders never send the
// same row; a row a crashed sender left claimed is marked failed after CLAIM_TTL_MS, not sent
// again. A notice read or resolved in the app before its message goes out is left out
// (cancelled); a failure is retried after 2, 4, 8… seconds (at most 10 minutes) and given up
// after MAX_ATTEMPTS; one the channel calls permanent fails at once. A channel that cannot be
// reached ends the round: the other rows wait for the next one. A channel that confirms delivery
// later (DingTalk) leaves what it sent as 'checking' and looks at the outcome on a later round.
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/types';
import type { JobLeases } from '../../lib/job-lease';
import { effective, readPolicy, readPreferences, type Digest, type NoticePolicy, type OutsideChannel, type Preference } from './channels';

dayjs.extend(utc);
dayjs.extend(timezone);

const LEASE_MS = 60_000;
/** Deliveries looked at per round, at most. */
const BATCH = 200;

export const MAX_ATTEMPTS = 8;
/** A claim older than this belongs to a sender that stopped before it could record the outcome. */
export const CLAIM_TTL_MS = 10 * 60_000;
/** A channel that confirms (DingTalk) is first asked for the outcome this long after sending. */
export const CONFIRM_AFTER_MS = 30_000;

export const REASONS = {
  settingOff: '通知设置已关闭',
  disabled: '账号已停用',
  interrupted: '发送过程中服务中断，无法确认是否已送达；为避免重复发送，不再重试',
  read: '已在站内查看',
  resolved: '已处理，无需发送',
} as const;

/** Seconds before the n-th retry: 2, 4, 8… up to 10 minutes. */
export function retryBackoffMs(attempts: number): number {
  return Math.min(600_000, 1000 * 2 ** Math.min(Math.max(attempts, 1), 20));
}

/** When the digest holding a notice made at `oldest` goes out. */
export function digestTime(oldest: number, digest: Digest, dailyHour: number, tzName: string): number {
  const local = dayjs(oldest).tz(tzName);
  if (digest === 'hourly') return local.startOf('hour').add(1, 'hour').valueOf();
  const pad = (n: number) => String(n).padStart(2, '0');
  let at = dayjs.tz(`${local.format('YYYY-MM-DD')} ${pad(dailyHour)}:00:00`, 'YYYY-MM-DD HH:mm:ss', tzName);
  if (at.valueOf() <= oldest) at = dayjs.tz(`${local.add(1, 'day').format('YYYY-MM-DD')} ${pad(dailyHour)}:00:00`, 'YYYY-MM-DD HH:mm:ss', tzName);
  return at.valueOf();
}

/** What one round did. */
export interface DeliveryRound {
  /** messages sent (mails, DingTalk calls) */
  messages: number;
  /** deliveries sent (a digest carries several, a DingTalk message several people) */
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
  cancelled: number;
  /** digest deliveries set to wait for their time */
  parked: number;
  /** urgent deliveries moved to the digest (the person's daily limit on the channel) */
  deferred: number;
  /** sent deliveries whose outcome was looked at (DingTalk): found delivered */
  confirmed: number;
}

/** A claimed delivery with its notice and person. */
export interface Claimed {
  id: number;
  user_id: number;
  attempts: number;
  kind: string;
  title: string;
  body: string;
  link: string;
  created_at: number;
  read_at: number | null;
  resolved_at: number | null;
  /** kept out of 站内消息: a read mark on it (全部已读) does not mean it was seen */
  hidden: number;
  email: string;
  disabled: number;
}

/** …with where it goes on the channel. */
export interface Addressed extends Claimed {
  address: string;
}

/** What the channel says of a failure. */
export class DeliveryError extends Error {
  constructor(
    /** the Chinese reason shown to administrators */
    readonly reason: string,
    /** the error as the other side gave it */
    readonly raw: string,
    /** retrying is useless: failed at once */
    readonly permanent = false,
    /** the channel cannot be reached: the rest of the round waits */
    readonly broken = false,
  ) {
    super(reason);
  }
}

/** What became of some claimed rows. */
export type Outcome =
  /** taken by the channel: `receipt` its id of the message (DingTalk's task id), `contentKey` a hash of the content */
  | { rows: Addressed[]; ok: true; receipt?: string; contentKey?: string }
  | { rows: Addressed[]; ok: false; error: DeliveryError }
  /** not sent now: they join the person's digest */
  | { rows: Addressed[]; defer: true };

/** A round's use of the channel (a connection, a token…). */
export interface ChannelSession {
  /** Each person's address on the channel ('' for none: skipped); a DeliveryError when it cannot tell now. */
  addresses(rows: readonly Claimed[], now: number): Promise<Map<number, string>>;
  /** Sends the rows, urgent ones (`single`: each its own notice, to one or several people) or a person's digest. */
  send(rows: readonly Addressed[], mode: 'single' | 'digest', now: number): Promise<Outcome[]>;
  close(): void;
}

/** A channel outside the app, as the sender uses it. */
export interface DeliveryChannel {
  readonly key: OutsideChannel;
  /** the lease of its sender */
  readonly lease: string;
  /** why a person cannot be reached (the delivery is skipped) */
  readonly noAddress: string;
  /** urgent rows with the same key go out in one message, at most this many (1: each alone) */
  readonly batchSize: number;
  batchKey?(row: Claimed): string;
  /** sent rows wait for the channel's word (status 'checking', see confirm) */
  readonly confirms: boolean;
  /** The round's session, or why nothing can go out on the channel now (every due row is skipped with it). */
  open(now: number): Promise<ChannelSession | { off: string }>;
  /** Looks at the outcome of what was sent (rows 'checking' whose next_at came). */
  confirm?(now: number, token: string): Promise<{ sent: number; failed: number }>;
}

interface RoundContext {
  session: ChannelSession;
  policy: NoticePolicy;
  token: string;
  round: DeliveryRound;
  /** the channel could not be reached: the rest waits for the next round */
  broken: boolean;
}

export class NoticeSender {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private claims = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly leases: JobLeases,
    readonly channel: DeliveryChannel,
    private readonly tzName: string,
    /** told of a round that failed (to log it) */
    public onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Works the due deliveries of the channel once (up to BATCH); what it did. */
  async runOnce(now = Date.now()): Promise<DeliveryRound> {
    const round: DeliveryRound = { messages: 0, sent: 0, retried: 0, failed: 0, skipped: 0, cancelled: 0, parked: 0, deferred: 0, confirmed: 0 };
    const channel = this.channel.key;
    // claims a stopped sender left: never sent again (the message may have gone out)
    const stale = await this.db
      .updateTable('notice_deliveries')
      .set({ status: 'failed', reason: REASONS.interrupted, updated_at: now })
      .where('channel', '=', channel)
      .where('status', '=', 'sending')
      .where('claimed_at', '<', now - CLAIM_TTL_MS)
      .executeTakeFirst();
    round.failed += Number(stale.numUpdatedRows);

    if (this.channel.confirm) {
      const c = await this.channel.confirm(now, this.nextToken());
      round.confirmed += c.sent;
      round.failed += c.failed;
    }

    const due = await this.db
      .selectFrom('notice_deliveries')
      .select(['id', 'user_id', 'digest'])
      .where('status', '=', 'pending')
      .where('channel', '=', channel)
      .where('next_at', '<=', now)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (!due.length) return round;

    const opened = await this.channel.open(now);
    if ('off' in opened) {
      const r = await this.db
        .updateTable('notice_deliveries')
        .set({ status: 'skipped', reason: opened.off, updated_at: now })
        .where('id', 'in', due.map((d) => Number(d.id)))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      round.skipped += Number(r.numUpdatedRows);
      return round;
    }
    const rc: RoundContext = { session: opened, policy: await readPolicy(this.db), token: this.nextToken(), round, broken: false };
    try {
      const urgent = due.filter((d) => !Number(d.digest)).map((d) => Number(d.id));
      for (const batch of await this.batches(urgent)) {
        if (rc.broken) break;
        await this.sendNow(rc, batch, now);
      }
      const digestUsers = [...new Set(due.filter((d) => Number(d.digest)).map((d) => Number(d.user_id)))];
      if (digestUsers.length && !rc.broken) {
        const prefs = await readPreferences(this.db, digestUsers);
        for (const userId of digestUsers) if (!rc.broken) await this.sendDigest(rc, userId, prefs.get(userId)!, now);
      }
    } finally {
      rc.session.close();
    }
    return round;
  }

  private nextToken(): string {
    return `${this.leases.instance}:${this.channel.key}:${++this.claims}`;
  }

  /** The urgent rows in the messages they go out in: each alone, or those of the same content together. */
  private async batches(ids: number[]): Promise<number[][]> {
    const size = Math.max(1, this.channel.batchSize);
    if (!ids.length) return [];
    if (size === 1 || !this.channel.batchKey) return ids.map((id) => [id]);
    const groups = new Map<string, number[][]>();
    for (const row of await this.rowsOf(ids)) {
      const key = this.channel.batchKey(row);
      const chunks = groups.get(key) ?? [];
      if (!chunks.length || chunks[chunks.length - 1].length >= size) chunks.push([]);
      chunks[chunks.length - 1].push(row.id);
      groups.set(key, chunks);
    }
    return [...groups.values()].flat();
  }

  /** Takes the rows that are still pending for this round; the ids it got. */
  private async claim(rc: RoundContext, ids: number[], now: number): Promise<number[]> {
    if (!ids.length) return [];
    const got = await this.db
      .updateTable('notice_deliveries')
      .set({ status: 'sending', claimed_by: rc.token, claimed_at: now, updated_at: now })
      .where('id', 'in', ids)
      .where('status', '=', 'pending')
      .returning('id')
      .execute();
    return got.map((r) => Number(r.id));
  }

  /** Claimed rows this round did not get to: pending again, as they were. */
  private async release(rc: RoundContext, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.db
      .updateTable('notice_deliveries')
      .set({ status: 'pending', claimed_by: '', claimed_at: null })
      .where('id', 'in', ids)
      .where('status', '=', 'sending')
      .where('claimed_by', '=', rc.token)
      .execute();
  }

  private async rowsOf(ids: number[]): Promise<Claimed[]> {
    const rows = await this.db
      .selectFrom('notice_deliveries as d')
      .innerJoin('notices as n', 'n.id', 'd.notice_id')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.id', 'd.user_id', 'd.attempts', 'n.kind', 'n.title', 'n.body', 'n.link', 'n.created_at', 'n.read_at', 'n.resolved_at', 'n.hidden', 'u.email', 'u.disabled'])
      .where('d.id', 'in', ids)
      .orderBy('n.created_at')
      .orderBy('d.id')
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      user_id: Number(r.user_id),
      attempts: Number(r.attempts),
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      created_at: Number(r.created_at),
      read_at: r.read_at === null ? null : Number(r.read_at),
      resolved_at: r.resolved_at === null ? null : Number(r.resolved_at),
      hidden: Number(r.hidden),
      email: (r.email ?? '').trim(),
      disabled: Number(r.disabled),
    }));
  }

  /** Ends claimed rows without a message: cancelled or skipped, with the reason. */
  private async close(rc: RoundContext, ids: number[], status: 'cancelled' | 'skipped', reason: string, now: number): Promise<void> {
    if (!ids.length) return;
    await this.db.updateTable('notice_deliveries').set({ status, reason, updated_at: now }).where('id', 'in', ids).where('claimed_by', '=', rc.token).execute();
    rc.round[status] += ids.length;
  }

  /** Sorts claimed rows into those to send, with their address, and those ended here (read, resolved, no address, turned off). */
  private async sift(rc: RoundContext, rows: Claimed[], pref: Preference | undefined, now: number): Promise<Addressed[]> {
    const prefs = pref ? new Map(rows.map((r) => [r.user_id, pref])) : await readPreferences(this.db, rows.map((r) => r.user_id));
    const groups = { read: [] as number[], resolved: [] as number[], disabled: [] as number[], noAddress: [] as number[], settingOff: [] as number[] };
    const candidates: Claimed[] = [];
    for (const r of rows) {
      if (r.resolved_at !== null) groups.resolved.push(r.id);
      else if (r.read_at !== null && !r.hidden) groups.read.push(r.id);
      else if (r.disabled) groups.disabled.push(r.id);
      else if (!effective(rc.policy, prefs.get(r.user_id)!, r.kind, this.channel.key).enabled) groups.settingOff.push(r.id);
      else candidates.push(r);
    }
    await this.close(rc, groups.resolved, 'cancelled', REASONS.resolved, now);
    await this.close(rc, groups.read, 'cancelled', REASONS.read, now);
    await this.close(rc, groups.disabled, 'skipped', REASONS.disabled, now);
    await this.close(rc, groups.settingOff, 'skipped', REASONS.settingOff, now);
    if (!candidates.length) return [];
    let addresses: Map<number, string>;
    try {
      addresses = await rc.session.addresses(candidates, now);
    } catch (err) {
      if (!(err instanceof DeliveryError)) throw err;
      await this.record(rc, [{ rows: candidates.map((r) => ({ ...r, address: '' })), ok: false, error: err }], now);
      return [];
    }
    const keep: Addressed[] = [];
    for (const r of candidates) {
      const address = addresses.get(r.user_id) ?? '';
      if (address) keep.push({ ...r, address });
      else groups.noAddress.push(r.id);
    }
    await this.close(rc, groups.noAddress, 'skipped', this.channel.noAddress, now);
    return keep;
  }

  private async sendNow(rc: RoundContext, ids: number[], now: number): Promise<void> {
    const claimed = await this.claim(rc, ids, now);
    if (!claimed.length) return;
    const rows = await this.sift(rc, await this.rowsOf(claimed), undefined, now);
    if (rows.length) await this.record(rc, await rc.session.send(rows, 'single', now), now);
    await this.release(rc, claimed);
  }

  private async sendDigest(rc: RoundContext, userId: number, pref: Preference, now: number): Promise<void> {
    const waiting = await this.db
      .selectFrom('notice_deliveries')
      .select(['id', 'created_at'])
      .where('user_id', '=', userId)
      .where('channel', '=', this.channel.key)
      .where('status', '=', 'pending')
      .where('digest', '=', 1)
      .where('next_at', '<=', now)
      .execute();
    if (!waiting.length) return;
    const oldest = Math.min(...waiting.map((w) => Number(w.created_at)));
    const at = digestTime(oldest, pref.digest, rc.policy.dailyHour, this.tzName);
    if (at > now) {
      const r = await this.db
        .updateTable('notice_deliveries')
        .set({ next_at: at })
        .where('id', 'in', waiting.map((w) => Number(w.id)))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      rc.round.parked += Number(r.numUpdatedRows);
      return;
    }
    const claimed = await this.claim(rc, waiting.map((w) => Number(w.id)), now);
    if (!claimed.length) return;
    const rows = await this.sift(rc, await this.rowsOf(claimed), pref, now);
    if (rows.length) await this.record(rc, await rc.session.send(rows, 'digest', now), now);
    await this.release(rc, claimed);
  }

  /** Records the outcome on each claimed row. */
  private async record(rc: RoundContext, outcomes: Outcome[], now: number): Promise<void> {
    for (const o of outcomes) {
      const ids = o.rows.map((r) => r.id);
      if (!ids.length) continue;
      if ('defer' in o) {
        await this.db
          .updateTable('notice_deliveries')
          .set({ status: 'pending', digest: 1, next_at: 0, claimed_by: '', claimed_at: null, updated_at: now })
          .where('id', 'in', ids)
          .where('claimed_by', '=', rc.token)
          .execute();
        rc.round.deferred += ids.length;
        continue;
      }
      if (!o.ok) {
        const { error } = o;
        const reason = error.reason.slice(0, 500);
        const raw = error.raw.slice(0, 500);
        for (const r of o.rows) {
          const attempts = r.attempts + 1;
          const give = error.permanent || attempts >= MAX_ATTEMPTS;
          await this.db
            .updateTable('notice_deliveries')
            .set(
              give
                ? { status: 'failed', attempts, reason: error.permanent ? reason : `${reason}（已尝试 ${attempts} 次）`, last_error: raw, updated_at: now }
                : { status: 'pending', attempts, next_at: now + retryBackoffMs(attempts), reason, last_error: raw, updated_at: now },
            )
            .where('id', '=', r.id)
            .where('claimed_by', '=', rc.token)
            .execute();
          if (give) rc.round.failed++;
          else rc.round.retried++;
        }
        if (error.broken) rc.broken = true;
        continue;
      }
      // one update per address (a DingTalk message goes to several people)
      const byAddress = new Map<string, number[]>();
      for (const r of o.rows) byAddress.set(r.address, [...(byAddress.get(r.address) ?? []), r.id]);
      for (const [address, some] of byAddress) {
        await this.db
          .updateTable('notice_deliveries')
          .set({
            status: this.channel.confirms ? 'checking' : 'sent',
            sent_at: now,
            attempts: sql<number>`attempts + 1`,
            reason: '',
            last_error: '',
            recipient: address.slice(0, 320),
            task_id: o.receipt ?? '',
            content_key: o.contentKey ?? '',
            ...(this.channel.confirms ? { next_at: now + CONFIRM_AFTER_MS } : {}),
            updated_at: now,
          })
          .where('id', 'in', some)
          .where('claimed_by', '=', rc.token)
          .execute();
      }
      rc.round.messages++;
      rc.round.sent += ids.length;
    }
  }

  /** One round on the lease holder: everything due, a batch at a time. */
  private async round(): Promise<void> {
    const now = Date.now();
    const channel = this.channel.key;
    // a read first: an idle round writes nothing (no lease taken), on any instance
    const due = await this.db
      .selectFrom('notice_deliveries')
      .select('id')
      .where('channel', '=', channel)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', 'in', this.channel.confirms ? ['pending', 'checking'] : ['pending']), eb('next_at', '<=', now)]),
          eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', now - CLAIM_TTL_MS)]),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    if (!due) return;
    for (;;) {
      if (!(await this.leases.take(this.channel.lease, LEASE_MS))) return;
      const r = await this.runOnce();
      const worked = r.sent + r.failed + r.skipped + r.cancelled + r.parked + r.retried + r.deferred + r.confirmed;
      if (worked === 0 || !this.timer) return;
    }
  }

  /** Runs a round now, unless one is running. */
  nudge(): void {
    if (!this.timer || this.running) return;
    this.running = this.round()
      .catch((err: unknown) => this.onError(err))
      .finally(() => (this.running = null));
  }

  /** Rounds every `intervalMs` until stop(). */
  start(intervalMs = 2000): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.nudge(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
