// How many items a filter's range holds, for choosing the index that drives a name search
// (SQLite, RangeSample): estimated from a random sample of the items (within 15 %: five times the
// spread of a sample of 4,096), kept for ten minutes unless the items grow by a tenth; counted
// exactly in a small database.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { registerSqliteFunctions } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrations';
import { NAME_SAMPLE_MIN_HITS, RangeSample, SAMPLE_FROM_ITEMS } from '../src/modules/search/range-sample';

const DAY = 86_400_000;
const ITEMS = 3000;

describe('the size of a filter’s range (SQLite)', () => {
  let db: Kysely<any>;
  let clock = 0;
  let root: { id: number; id_path: string };
  let quarter: { id: number; id_path: string };

  /** `n` files dated day 0, 1, 2, …: the first quarter below `quarter`, the rest below the root */
  const addFiles = async (n: number, dayOffset = 0) => {
    const now = Date.now();
    const rows = Array.from({ length: n }, (_, i) => ({ i, day: dayOffset + i }));
    for (let at = 0; at < rows.length; at += 500) {
      await db
        .insertInto('items')
        .values(
          rows.slice(at, at + 500).map(({ i, day }) => ({
            parent_id: i < n / 4 ? quarter.id : root.id,
            space_type: 2,
            owner_id: 1,
            name: `文件${dayOffset}-${i}.txt`,
            name_key: `文件${dayOffset}-${i}.txt`,
            type: 'file',
            type_order: 1,
            id_path: '',
            created_at: now,
            updated_at: day * DAY,
          })),
        )
        .execute();
    }
    await sql`update items set id_path = (select p.id_path from items p where p.id = items.parent_id) || '/' || id where id_path = ''`.execute(db);
  };
  const subtree = (row: { id_path: string }) => ({ from: `${row.id_path}/`, to: `${row.id_path}0` });

  beforeAll(async () => {
    const sqlite = new Database(':memory:');
    registerSqliteFunctions(sqlite);
    db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrateToLatest(db, 'sqlite');
    const now = Date.now();
    await db.insertInto('users').values({ id: 1, user_name: 'u', user_name_key: 'u', nick_name: '用户', password_hash: 'x', created_at: now, updated_at: now }).execute();
    const r = await db
      .insertInto('items')
      .values({ space_type: 2, owner_id: 1, name: '根', name_key: '根', type: 'folder', type_order: 0, id_path: '', created_at: now, updated_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    root = { id: Number(r.id), id_path: `/${r.id}` };
    await db.updateTable('items').set({ id_path: root.id_path }).where('id', '=', root.id).execute();
    const q = await db
      .insertInto('items')
      .values({ parent_id: root.id, space_type: 2, owner_id: 1, name: '四分之一', name_key: '四分之一', type: 'folder', type_order: 0, id_path: '', created_at: now, updated_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    quarter = { id: Number(q.id), id_path: `${root.id_path}/${q.id}` };
    await db.updateTable('items').set({ id_path: quarter.id_path }).where('id', '=', quarter.id).execute();
    await addFiles(ITEMS);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const maxId = async () => Number((await sql<{ n: number }>`select max(id) as n from items`.execute(db)).rows[0].n);
  const within = (got: number | undefined, expected: number) => {
    expect(got).toBeDefined();
    expect({ got, near: Math.abs(got! - expected) <= Math.max(60, expected * 0.15) }).toEqual({ got, near: true });
  };

  test('estimated from a sample: a span of days, a subtree, an open-ended span and an empty one', async () => {
    const sample = new RangeSample(db, { now: () => clock, sampleFrom: 0 });
    const top = await maxId();
    // the range's own count, far above: the estimate is not cut off at limit + 1
    const half = await sample.sizes({ updated: { from: 0, to: (ITEMS / 2) * DAY }, idPath: subtree(quarter) }, top, 10);
    within(half.updated, ITEMS / 2);
    within(half.idPath, ITEMS / 4);
    within((await sample.sizes({ updated: { from: (ITEMS / 3) * DAY, to: null } }, top, 10)).updated, (ITEMS * 2) / 3 + 2);
    expect((await sample.sizes({ updated: { from: (ITEMS + 10) * DAY, to: null } }, top, 10)).updated).toBe(0);
    expect(await sample.sizes({}, top, 10)).toEqual({});
  });

  test('the sample is kept for ten minutes, and taken again when the items grow by a tenth', async () => {
    const sample = new RangeSample(db, { now: () => clock, sampleFrom: 0 });
    const span = { updated: { from: (ITEMS + 1000) * DAY, to: (ITEMS + 2000) * DAY } };
    expect((await sample.sizes(span, await maxId(), 10)).updated).toBe(0);
    // 5 % more items, all in the span: the sample of a minute ago still answers
    await addFiles(ITEMS / 20, ITEMS + 1000);
    clock += 60_000;
    expect((await sample.sizes(span, await maxId(), 10)).updated).toBe(0);
    // ten minutes on, a new sample sees them
    clock += 10 * 60_000;
    within((await sample.sizes(span, await maxId(), 10)).updated, ITEMS / 20);
    // a fifth more at once: a new sample at once
    await addFiles(ITEMS / 5, ITEMS + 1200);
    within((await sample.sizes(span, await maxId(), 10)).updated, ITEMS / 20 + ITEMS / 5);
  });

  test('items purged since are in no range', async () => {
    const sample = new RangeSample(db, { now: () => clock, sampleFrom: 0 });
    await sql`delete from items where parent_id = ${quarter.id}`.execute(db);
    clock += 11 * 60_000;
    expect((await sample.sizes({ idPath: subtree(quarter) }, await maxId(), 10)).idPath).toBe(0);
    within((await sample.sizes({ idPath: subtree(root) }, await maxId(), 10)).idPath, (await sql<{ n: number }>`select count(*) as n from items where id_path like ${`${root.id_path}/%`}`.execute(db)).rows[0].n);
  });

  test('how many names hold a keyword: estimated where the sample holds it often enough, else left to be counted', async () => {
    const sample = new RangeSample(db, { now: () => clock, sampleFrom: 0 });
    clock += 11 * 60_000; // a sample of the items as they are now
    const top = await maxId();
    const holding = async (key: string) =>
      Number((await sql<{ n: number }>`select count(*) as n from items where name_key like ${`%${key}%`}`.execute(db)).rows[0].n);
    // every file holds 文件; a file in ten holds "7." (its number ends in 7)
    within((await sample.namesHolding('文件', top)) ?? undefined, await holding('文件'));
    within((await sample.namesHolding('7.', top)) ?? undefined, await holding('7.'));
    // the name of one file, and a keyword no name holds: the sample cannot tell, they are counted
    expect(await holding('文件0-1234.txt')).toBe(1);
    expect(await sample.namesHolding('文件0-1234.txt', top)).toBeNull();
    expect(await sample.namesHolding('合同', top)).toBeNull();
    expect(NAME_SAMPLE_MIN_HITS).toBe(32);
    // below the sampling threshold every keyword is counted
    expect(await new RangeSample(db).namesHolding('文件', top)).toBeNull();
  });

  test('below the sampling threshold a range is counted exactly, up to the limit and one more', async () => {
    const sample = new RangeSample(db);
    const top = await maxId();
    expect(top).toBeLessThan(SAMPLE_FROM_ITEMS);
    const all = Number((await sql<{ n: number }>`select count(*) as n from items where updated_at >= ${1000 * DAY} and updated_at < ${1300 * DAY}`.execute(db)).rows[0].n);
    expect(all).toBe(300);
    expect((await sample.sizes({ updated: { from: 1000 * DAY, to: 1300 * DAY } }, top, 10_000)).updated).toBe(all);
    expect((await sample.sizes({ updated: { from: 1000 * DAY, to: 1300 * DAY } }, top, 100)).updated).toBe(101);
  });
});
