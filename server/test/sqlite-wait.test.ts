// SQLite's lock waits happen on the event loop: while another connection of the same process
// holds the write lock across an await (a file being written), a second connection's write
// waits without stopping the process, so the holder finishes and the waiting write then goes in.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { openDatabase } from '../src/db/connection';
import { WaitingSqliteDialect } from '../src/db/sqlite-wait';

type Db = Kysely<any>;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SQLite lock waits', () => {
  let dir: string;
  const open: Db[] = [];
  const connect = (): Db => {
    const { db } = openDatabase({ databaseUrl: null, dataDir: dir });
    open.push(db);
    return db;
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-sqlite-wait-'));
    await sql`create table t (id integer primary key, who text not null)`.execute(connect());
  });
  afterEach(async () => {
    for (const db of open.splice(0)) await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a write waiting for another connection lets the holder finish, timers run, and then goes in', async () => {
    const a = connect();
    const b = connect();
    const started = Date.now();
    let timerLate = -1;
    const timer = pause(50).then(() => (timerLate = Date.now() - started - 50));
    let bDoneAt = 0;
    let aCommittedAt = 0;
    const holder = a.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ who: 'a' }).execute();
      // the lock is held across real waiting (a file written, say); b's write arrives meanwhile
      const waiting = b
        .insertInto('t')
        .values({ who: 'b' })
        .execute()
        .then(() => (bDoneAt = Date.now()));
      await pause(300);
      aCommittedAt = Date.now();
      return { waiting }; // not awaited inside: b can only go in once this commits
    });
    await (await holder).waiting;
    await timer;
    expect(timerLate).toBeLessThan(150);
    expect(bDoneAt).toBeGreaterThanOrEqual(aCommittedAt);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await b.selectFrom('t').select('who').orderBy('id').execute()).map((r) => r.who)).toEqual(['a', 'b']);
  });

  test('a lock held longer than the wait fails the waiting write with SQLITE_BUSY after the wait, and the holder commits', async () => {
    const a = connect();
    const raw = new Database(path.join(dir, 'app.db'));
    raw.pragma('busy_timeout = 0');
    const b = new Kysely<any>({ dialect: new WaitingSqliteDialect({ database: raw }, 200) });
    open.push(b);
    let failure: { code?: string; after: number } | null = null;
    await a.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ who: 'a' }).execute();
      const t = Date.now();
      await b
        .insertInto('t')
        .values({ who: 'b' })
        .execute()
        .catch((err: { code?: string }) => (failure = { code: err.code, after: Date.now() - t }));
    });
    expect(failure).toEqual({ code: 'SQLITE_BUSY', after: expect.any(Number) });
    expect(failure!.after).toBeGreaterThanOrEqual(200);
    expect(failure!.after).toBeLessThan(1000);
    expect((await a.selectFrom('t').select('who').execute()).map((r) => r.who)).toEqual(['a']);
  });

  test('a transaction whose reads went stale fails at once (waiting cannot help it)', async () => {
    const a = connect();
    const b = connect();
    await a.insertInto('t').values({ who: 'first' }).execute();
    const t = Date.now();
    const outcome = await b
      .transaction()
      .execute(async (trx) => {
        await trx.selectFrom('t').selectAll().execute(); // b's snapshot
        await a.insertInto('t').values({ who: 'a' }).execute(); // committed after it
        await trx.insertInto('t').values({ who: 'b' }).execute();
        return 'written';
      })
      .catch((err: { code?: string }) => err.code);
    expect(outcome).toBe('SQLITE_BUSY_SNAPSHOT');
    expect(Date.now() - t).toBeLessThan(1000);
    expect((await a.selectFrom('t').select('who').orderBy('id').execute()).map((r) => r.who)).toEqual(['first', 'a']);
  });
});
