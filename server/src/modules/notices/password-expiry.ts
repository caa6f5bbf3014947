// password.expiring (issue 28): a person whose password expires within 7 days (the password
// policy's expiryDays) is told once per expiry. A leased job, not a check at sign-in: it tells
// people who do not sign in meanwhile too, and with several API instances only the holder of
// the lease `password-expiry-notices` looks (every hour; the lease runs out a little sooner, so
// another instance takes over when the holder is gone). What was told is kept in the database
// (notice_marks: the expiry told of), so a second look, on any instance, tells nobody twice; a
// new password makes a new expiry, told again when it comes near.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { JobLeases } from '../../lib/job-lease';
import type { TimeFormatter } from '../../lib/time';
import type { PasswordPolicy } from '../settings/schemas';
import { recordEvent } from './events';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Told this long before the password expires. */
export const PASSWORD_NOTICE_DAYS = 7;
const LEASE = 'password-expiry-notices';
const EVERY_MS = 60 * 60 * 1000;
const KIND = 'password.expiring';

export class PasswordExpiryNotices {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly leases: JobLeases,
    private readonly passwordPolicy: () => Promise<PasswordPolicy>,
    private readonly formatTime: TimeFormatter,
    /** told of a failed look (to log it) */
    public onError: (err: unknown) => void = () => undefined,
  ) {}

  /** One look: records password.expiring for everyone newly within the window; how many. */
  async runOnce(now: number = Date.now()): Promise<number> {
    const { expiryDays } = await this.passwordPolicy();
    if (!expiryDays || expiryDays <= 0) return 0;
    const life = expiryDays * DAY_MS;
    // as credentials.ts resetReason counts: from the last change, else from the account's creation
    const since = sql<number>`(case when password_changed_at > 0 then password_changed_at else created_at end)`;
    const rows = await this.db
      .selectFrom('users')
      .select(['id', since.as('since')])
      .where('disabled', '=', 0)
      // directory accounts keep their passwords in the directory; a forced change comes anyway
      .where('source', '<>', 'ldap')
      .where('must_change_password', '=', 0)
      .where((eb) => eb.and([eb(since, '>', now - life), eb(since, '<=', now - life + PASSWORD_NOTICE_DAYS * DAY_MS)]))
      .orderBy('id')
      .execute();
    let told = 0;
    for (const r of rows) {
      const userId = Number(r.id);
      const expiresAt = Number(r.since) + life;
      const mark = String(expiresAt);
      const fresh = await this.db.transaction().execute(async (trx) => {
        const res = await trx
          .insertInto('notice_marks')
          .values({ user_id: userId, kind: KIND, mark, at: now })
          .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ mark, at: now }).where('notice_marks.mark', '<>', mark))
          .returning('user_id')
          .execute();
        if (!res.length) return false;
        await recordEvent(trx, 'password.expiring', { userId, expiresAt, expiresText: this.formatTime(expiresAt).slice(0, 16), since: Number(r.since) }, now);
        return true;
      });
      if (fresh) told++;
    }
    return told;
  }

  private async round(): Promise<void> {
    if (!(await this.leases.take(LEASE, EVERY_MS - 60_000))) return;
    await this.runOnce();
  }

  /** A look now (after start-up), then every hour, until stop(). */
  start(intervalMs = EVERY_MS): void {
    if (this.timer) return;
    const tick = () => {
      if (this.running) return;
      this.running = this.round()
        .catch((err: unknown) => this.onError(err))
        .finally(() => (this.running = null));
    };
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
    tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
