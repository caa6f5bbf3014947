// The zip tasks' claim rounds (downloads/tasks.ts, pump): a round that fails (the database gone
// under a closing server) fails for whoever awaits it, and leaves no unhandled rejection behind
// (jest fails a test on one; a server process would log it as a crash).
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { registerSqliteFunctions } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrations';
import { ZipTasks } from '../src/modules/downloads/tasks';

test('a claim round that fails rejects for its caller only; the next round still runs', async () => {
  const sqlite = new Database(':memory:');
  registerSqliteFunctions(sqlite);
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrateToLatest(db, 'sqlite');
  const tasks = new ZipTasks(db, {} as never, {} as never);
  // nothing queued: a round that finds nothing
  await expect(tasks.pump()).resolves.toBeUndefined();
  await db.destroy();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    await expect(tasks.pump()).rejects.toThrow('driver has already been destroyed');
    // a round asked for meanwhile waits for the failed one, then fails on its own
    await expect(Promise.all([tasks.pump(), tasks.pump()])).rejects.toThrow('driver has already been destroyed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
