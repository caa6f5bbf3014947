// Serialising short write transactions of 云文档 on a key, across every instance on one
// database: PostgreSQL takes a transaction-scoped advisory lock on the key; SQLite has one
// writer at a time, so the transaction only takes its write lock at once (what BEGIN IMMEDIATE
// does), and what it reads before writing cannot change under it.
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from './types';

export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Inside a transaction: waits until no other transaction holds `key`, then holds it until commit or rollback. */
export async function lockKey(trx: Kysely<Database>, key: string): Promise<void> {
  if (isPostgres(trx)) {
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
    return;
  }
  // a write that changes nothing still takes SQLite's write lock for the transaction
  await sql`update users set id = id where 0`.execute(trx);
}
