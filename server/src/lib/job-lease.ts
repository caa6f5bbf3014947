// Work that one instance of several does at a time, coordinated through the database
// (job_leases): a lease is a named row with its holder and the time it runs out. Taking one
// succeeds when it has run out or is already this instance's.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';

export class JobLeases {
  /** this process, as a lease holder */
  readonly instance = crypto.randomBytes(8).toString('hex');

  constructor(private readonly db: Kysely<Database>) {}

  /** Takes the lease `name` until now + ttlMs; false while another instance holds it. */
  async take(name: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    await this.db.insertInto('job_leases').values({ name, holder: '', until: 0 }).onConflict((oc) => oc.column('name').doNothing()).execute();
    const r = await this.db
      .updateTable('job_leases')
      .set({ holder: this.instance, until: now + ttlMs })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('until', '<', now), eb('holder', '=', this.instance)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Gives the lease back at once (when this instance holds it). */
  async release(name: string): Promise<void> {
    await this.db.updateTable('job_leases').set({ until: 0 }).where('name', '=', name).where('holder', '=', this.instance).execute();
  }
}
