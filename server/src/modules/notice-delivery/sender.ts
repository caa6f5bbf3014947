// The mail sender of 云文档's notices: on the instance holding the lease `notice-mail`, it sends
// the due deliveries (notice_deliveries, channel 'mail'): an urgent notice at once, one mail
// each; the others in the person's digest (hourly, or daily at the hour of 系统管理 › 通知), one
// mail listing up to DIGEST_LIMIT notices and counting the rest. Rows are claimed in the
// database (pending → sending) before the mail goes out, so two senders never send the same
// row; a row a crashed sender left claimed is marked failed after CLAIM_TTL_MS, not sent again.
// A notice read or resolved in the app before its mail goes out is left out (cancelled); a
// failure is retried after 2, 4, 8… seconds (at most 10 minutes) and given up after
// MAX_ATTEMPTS; a reply the server would give again (5yz) fails at once. A server that cannot be
// reached ends the round: the other rows wait for the next one.
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/types';
import type { JobLeases } from '../../lib/job-lease';
import type { TimeFormatter } from '../../lib/time';
import { effective, readPolicy, readPreferences, type Digest, type NoticePolicy, type Preference } from './channels';
import type { MailSettingsService } from './mail-settings';
import { NO_ADDRESS } from './plan';
import { explainSmtpError, isPermanent, smtpTransport, type MailSettings, type MailTransport, type OutgoingMail } from './smtp';
import { digestMail, singleMail, type MailContext } from './templates';

dayjs.extend(utc);
dayjs.extend(timezone);

const LEASE = 'notice-mail';
const LEASE_MS = 60_000;
/** Deliveries looked at per round, at most. */
const BATCH = 200;

export const MAX_ATTEMPTS = 8;
/** A claim older than this belongs to a sender that stopped before it could record the outcome. */
export const CLAIM_TTL_MS = 10 * 60_000;

export const REASONS = {
  noAddress: NO_ADDRESS,
  settingOff: '通知设置已关闭',
  mailOff: '邮件通知已停用',
  disabled: '账号已停用',
  interrupted: '发送过程中服务中断，无法确认是否已送达；为避免重复发送，不再重试',
  read: '已在站内查看',
  resolved: '已处理，无需发送',
} as const;

/** Seconds before the n-th retry: 2, 4, 8… up to 10 minutes. */
export function mailBackoffMs(attempts: number): number {
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
export interface MailRound {
  /** mails sent */
  mails: number;
  /** deliveries sent (a digest mail carries several) */
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
  cancelled: number;
  /** digest deliveries set to wait for their time */
  parked: number;
}

interface Claimed {
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

interface RoundContext {
  settings: MailSettings;
  password: string;
  context: MailContext;
  policy: NoticePolicy;
  token: string;
  transport: MailTransport | null;
  round: MailRound;
  /** the server could not be reached or dropped the connection: the rest waits for the next round */
  broken: boolean;
}

export class NoticeMailer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private claims = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly leases: JobLeases,
    private readonly mail: MailSettingsService,
    private readonly formatTime: TimeFormatter,
    private readonly tzName: string,
    /** told of a round that failed (to log it) */
    public onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Works the due deliveries once (up to BATCH); what it did. */
  async runOnce(now = Date.now()): Promise<MailRound> {
    const round: MailRound = { mails: 0, sent: 0, retried: 0, failed: 0, skipped: 0, cancelled: 0, parked: 0 };
    // claims a stopped sender left: never sent again (the mail may have gone out)
    const stale = await this.db
      .updateTable('notice_deliveries')
      .set({ status: 'failed', reason: REASONS.interrupted, updated_at: now })
      .where('status', '=', 'sending')
      .where('claimed_at', '<', now - CLAIM_TTL_MS)
      .executeTakeFirst();
    round.failed += Number(stale.numUpdatedRows);

    const due = await this.db
      .selectFrom('notice_deliveries')
      .select(['id', 'user_id', 'digest'])
      .where('status', '=', 'pending')
      .where('channel', '=', 'mail')
      .where('next_at', '<=', now)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (!due.length) return round;

    const { settings, password, context } = await this.mail.current();
    if (!settings.enabled || !settings.host || !settings.from) {
      const r = await this.db
        .updateTable('notice_deliveries')
        .set({ status: 'skipped', reason: REASONS.mailOff, updated_at: now })
        .where('id', 'in', due.map((d) => Number(d.id)))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      round.skipped += Number(r.numUpdatedRows);
      return round;
    }
    const rc: RoundContext = { settings, password, context, policy: await readPolicy(this.db), token: `${this.leases.instance}:${++this.claims}`, transport: null, round, broken: false };
    try {
      for (const d of due) if (!Number(d.digest) && !rc.broken) await this.sendNow(rc, Number(d.id), now);
      const digestUsers = [...new Set(due.filter((d) => Number(d.digest)).map((d) => Number(d.user_id)))];
      if (digestUsers.length) {
        const prefs = await readPreferences(this.db, digestUsers);
        for (const userId of digestUsers) if (!rc.broken) await this.sendDigest(rc, userId, prefs.get(userId)!, now);
      }
    } finally {
      rc.transport?.close();
    }
    return round;
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

  private async claimedRows(ids: number[]): Promise<Claimed[]> {
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

  /** Ends claimed rows without a mail: cancelled or skipped, with the reason. */
  private async close(rc: RoundContext, ids: number[], status: 'cancelled' | 'skipped', reason: string, now: number): Promise<void> {
    if (!ids.length) return;
    await this.db.updateTable('notice_deliveries').set({ status, reason, updated_at: now }).where('id', 'in', ids).where('claimed_by', '=', rc.token).execute();
    rc.round[status] += ids.length;
  }

  /** Sorts claimed rows into those to send and those ended here (read, resolved, no address, turned off). */
  private async sift(rc: RoundContext, rows: Claimed[], pref: Preference | undefined, now: number): Promise<Claimed[]> {
    const prefs = pref ? new Map(rows.map((r) => [r.user_id, pref])) : await readPreferences(this.db, rows.map((r) => r.user_id));
    const groups = { read: [] as number[], resolved: [] as number[], disabled: [] as number[], noAddress: [] as number[], settingOff: [] as number[] };
    const keep: Claimed[] = [];
    for (const r of rows) {
      if (r.resolved_at !== null) groups.resolved.push(r.id);
      else if (r.read_at !== null && !r.hidden) groups.read.push(r.id);
      else if (r.disabled) groups.disabled.push(r.id);
      else if (!r.email) groups.noAddress.push(r.id);
      else if (!effective(rc.policy, prefs.get(r.user_id)!, r.kind, 'mail').enabled) groups.settingOff.push(r.id);
      else keep.push(r);
    }
    await this.close(rc, groups.resolved, 'cancelled', REASONS.resolved, now);
    await this.close(rc, groups.read, 'cancelled', REASONS.read, now);
    await this.close(rc, groups.disabled, 'skipped', REASONS.disabled, now);
    await this.close(rc, groups.noAddress, 'skipped', REASONS.noAddress, now);
    await this.close(rc, groups.settingOff, 'skipped', REASONS.settingOff, now);
    return keep;
  }

  private async sendNow(rc: RoundContext, id: number, now: number): Promise<void> {
    const claimed = await this.claim(rc, [id], now);
    if (!claimed.length) return;
    const [row] = await this.sift(rc, await this.claimedRows(claimed), undefined, now);
    if (!row) return;
    await this.deliver(rc, [row], singleMail(rc.context, row.email, { ...row, createdAt: this.formatTime(row.created_at) }), now);
  }

  private async sendDigest(rc: RoundContext, userId: number, pref: Preference, now: number): Promise<void> {
    const waiting = await this.db
      .selectFrom('notice_deliveries')
      .select(['id', 'created_at'])
      .where('user_id', '=', userId)
      .where('channel', '=', 'mail')
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
    const rows = await this.sift(rc, await this.claimedRows(claimed), pref, now);
    if (!rows.length) return;
    const mail = digestMail(
      rc.context,
      rows[0].email,
      rows.map((r) => ({ ...r, createdAt: this.formatTime(r.created_at) })),
    );
    await this.deliver(rc, rows, mail, now);
  }

  /** Sends the mail of the claimed rows and records the outcome on each. */
  private async deliver(rc: RoundContext, rows: Claimed[], mail: OutgoingMail, now: number): Promise<void> {
    const ids = rows.map((r) => r.id);
    try {
      rc.transport ??= smtpTransport(rc.settings, rc.password, rc.context.product);
      await rc.transport.send(mail);
    } catch (err) {
      const explained = explainSmtpError(err, rc.settings).slice(0, 500);
      const raw = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      const permanent = isPermanent(err);
      for (const r of rows) {
        const attempts = r.attempts + 1;
        const give = permanent || attempts >= MAX_ATTEMPTS;
        await this.db
          .updateTable('notice_deliveries')
          .set(
            give
              ? { status: 'failed', attempts, reason: permanent ? explained : `${explained}（已尝试 ${attempts} 次）`, last_error: raw, updated_at: now }
              : { status: 'pending', attempts, next_at: now + mailBackoffMs(attempts), reason: explained, last_error: raw, updated_at: now },
          )
          .where('id', '=', r.id)
          .where('claimed_by', '=', rc.token)
          .execute();
        if (give) rc.round.failed++;
        else rc.round.retried++;
      }
      // a broken connection is not used again; a server that cannot be reached is not tried
      // again for every row of the round (each would wait for its own timeout)
      rc.transport?.close();
      rc.transport = null;
      if (!permanent) rc.broken = true;
      return;
    }
    await this.db
      .updateTable('notice_deliveries')
      .set({ status: 'sent', sent_at: now, attempts: sql<number>`attempts + 1`, reason: '', last_error: '', updated_at: now })
      .where('id', 'in', ids)
      .where('claimed_by', '=', rc.token)
      .execute();
    rc.round.mails++;
    rc.round.sent += ids.length;
  }

  /** One round on the lease holder: everything due, a batch at a time. */
  private async round(): Promise<void> {
    const now = Date.now();
    // a read first: an idle round writes nothing (no lease taken), on any instance
    const due = await this.db
      .selectFrom('notice_deliveries')
      .select('id')
      .where((eb) => eb.or([eb.and([eb('status', '=', 'pending'), eb('next_at', '<=', now)]), eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', now - CLAIM_TTL_MS)])]))
      .limit(1)
      .executeTakeFirst();
    if (!due) return;
    for (;;) {
      if (!(await this.leases.take(LEASE, LEASE_MS))) return;
      const r = await this.runOnce();
      const worked = r.sent + r.failed + r.skipped + r.cancelled + r.parked + r.retried;
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
