// The recycle bin's queries read the deleted items alone, however many live items there are
// (SQLite, migration 0059): its list and count, the hourly purge of expired items, and the
// restore and purge of what went with a deleted folder. With a full index on deleted_with,
// SQLite answered `deleted_with is null` by reading every live item through it (0.2–0.3 s a
// query at 1,000,000 items, with nothing deleted).
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type CompiledQuery } from 'kysely';
import { registerSqliteFunctions } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrations';
import { markDeleted, markRestored, purgeDeleted } from '../src/modules/folders/repository';
import { expiredTops, listDeleted } from '../src/modules/recycle/repository';

const LIVE = 2000;
const DAY = 86_400_000;

describe('the recycle bin reads deleted items only (SQLite)', () => {
  let sqlite: Database.Database;
  let db: Kysely<any>;
  const statements: CompiledQuery[] = [];
  let root: { id: number; id_path: string };

  const insertItem = async (values: Record<string, unknown>) => {
    const now = Date.now();
    const row = await db
      .insertInto('items')
      .values({ space_type: 2, owner_id: 1, type: 'file', type_order: 1, id_path: '', created_at: now, updated_at: now, ...values })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    const parentPath = values.parent_id ? (await db.selectFrom('items').select('id_path').where('id', '=', values.parent_id).executeTakeFirstOrThrow()).id_path : '';
    await db.updateTable('items').set({ id_path: `${parentPath}/${id}` }).where('id', '=', id).execute();
    return { id, id_path: `${parentPath}/${id}` };
  };

  /** The plans of the statements `run` makes, each as one line per step. */
  const plansOf = async (run: () => Promise<unknown>): Promise<{ sql: string; plan: string[] }[]> => {
    statements.length = 0;
    await run();
    return statements.map((q) => ({
      sql: q.sql,
      plan: sqlite
        .prepare(`explain query plan ${q.sql}`)
        .all(...(q.parameters as unknown[]))
        .map((r) => String((r as { detail: string }).detail)),
    }));
  };
  /** Every step that reads items goes through the index of deleted items (or an item's id). */
  const readsThroughDeletedAt = (plans: { sql: string; plan: string[] }[]) => {
    expect(plans.length).toBeGreaterThan(0);
    for (const { sql: text, plan } of plans) {
      const other = plan.filter((step) => /\bitems\b/.test(step) && !/items USING (COVERING )?INDEX items_deleted_at\b|items USING INTEGER PRIMARY KEY/.test(step));
      expect({ sql: text, other }).toEqual({ sql: text, other: [] });
    }
  };
  /**
   * No step reads the items table whole, nor walks its index of deleted_with for a statement
   * that only asks for `deleted_with is null` (a lookup by deleted_with = or in may use it).
   */
  const readsDeletedOnly = (plans: { sql: string; plan: string[] }[]) => {
    expect(plans.length).toBeGreaterThan(0);
    for (const { sql: text, plan } of plans) {
      const onlyIsNull = / is null/.test(text) && !/"deleted_with" (=|in)/.test(text);
      const whole = plan.filter((step) => {
        if (/^SCAN items\b/.test(step)) return true;
        return onlyIsNull && /items_deleted_with \(deleted_with=\?\)/.test(step);
      });
      expect({ sql: text, whole }).toEqual({ sql: text, whole: [] });
    }
  };

  beforeAll(async () => {
    sqlite = new Database(':memory:');
    registerSqliteFunctions(sqlite);
    db = new Kysely<any>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        if (event.level === 'query') statements.push(event.query);
      },
    });
    await migrateToLatest(db, 'sqlite');
    const now = Date.now();
    await db.insertInto('users').values({ id: 1, user_name: 'u', user_name_key: 'u', nick_name: '用户', password_hash: 'x', created_at: now, updated_at: now }).execute();
    root = await insertItem({ name: '根', name_key: '根', type: 'folder', type_order: 0 });
    for (let at = 0; at < LIVE; at += 500) {
      await db
        .insertInto('items')
        .values(Array.from({ length: 500 }, (_, i) => ({ parent_id: root.id, space_type: 2, owner_id: 1, name: `文件${at + i}.txt`, name_key: `文件${at + i}.txt`, type: 'file', type_order: 1, id_path: '', created_at: now, updated_at: now })))
        .execute();
    }
    await sql`update items set id_path = ${root.id_path} || '/' || id where id_path = ''`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  test('deleting a folder, listing and counting the bin, the expired purge, restoring and purging', async () => {
    // a user who sees the enterprise space too (an OR), and one who sees only their own items
    // (an equality the owner's index would serve, reading all of the owner's live items)
    const scope = { personalOwnerId: 1, enterprise: true };
    const own = { personalOwnerId: 1, enterprise: false };
    const folder = await insertItem({ parent_id: root.id, name: '旧资料', name_key: '旧资料', type: 'folder', type_order: 0 });
    const inside = await insertItem({ parent_id: folder.id, name: '合同.docx', name_key: '合同.docx' });
    const old = await insertItem({ parent_id: root.id, name: '过期.txt', name_key: '过期.txt' });
    const now = Date.now();
    await markDeleted(db, { ...old, parent_id: root.id, type_order: 1 }, 1, now - 40 * DAY);
    await markDeleted(db, { ...folder, parent_id: root.id, type_order: 0 }, 1, now);

    // the bin shows the two deleted tops, not what went with the folder
    let listed: Awaited<ReturnType<typeof listDeleted>> | null = null;
    readsThroughDeletedAt(await plansOf(async () => (listed = await listDeleted(db, scope, 0, 50))));
    expect(listed!.total).toBe(2);
    expect(listed!.rows.map((r) => r.name)).toEqual(['旧资料', '过期.txt']);
    readsThroughDeletedAt(await plansOf(async () => (listed = await listDeleted(db, own, 0, 1))));
    expect({ total: listed!.total, names: listed!.rows.map((r) => r.name) }).toEqual({ total: 2, names: ['旧资料'] });

    // the hourly purge finds the expired one
    let expired: number[] = [];
    readsThroughDeletedAt(await plansOf(async () => (expired = await expiredTops(db, now - 30 * DAY, 200))));
    expect(expired).toEqual([old.id]);

    // the folder comes back with what went with it
    readsDeletedOnly(await plansOf(() => markRestored(db, { id: folder.id, type_order: 0 }, root.id)));
    const back = await db.selectFrom('items').select(['id', 'deleted_at', 'deleted_with']).where('id', 'in', [folder.id, inside.id]).orderBy('id').execute();
    expect(back).toEqual([
      { id: folder.id, deleted_at: null, deleted_with: null },
      { id: inside.id, deleted_at: null, deleted_with: null },
    ]);

    // deleted again and purged: gone with what went with it
    await markDeleted(db, { ...folder, parent_id: root.id, type_order: 0 }, 1, now);
    readsDeletedOnly(await plansOf(() => purgeDeleted(db, [folder.id, old.id])));
    expect(await db.selectFrom('items').select('id').where('id', 'in', [folder.id, inside.id, old.id]).execute()).toEqual([]);
    expect((await listDeleted(db, scope, 0, 50)).total).toBe(0);
    // the live items are all still there
    expect(Number((await db.selectFrom('items').select((eb) => eb.fn.countAll().as('n')).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).n)).toBe(LIVE + 1);
  });
});
