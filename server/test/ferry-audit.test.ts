// The ferry's hash-chained audit log on SQLite and PostgreSQL: concurrent appends make one
// unbroken chain; altering a record, deleting one (in the middle or at the end), or rewriting
// one with its own hash recomputed breaks it visibly at the right place.
import { sql } from 'kysely';
import { appendAudit, recordHash, verifyAudit } from '../src/modules/ferry/audit';
import { databaseKinds, startServer, type TestServer } from './support/harness';

describe.each(databaseKinds())('ferry audit chain (%s)', (kind) => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer(kind);
  });
  afterEach(async () => server.close());

  const db = () => server.app.db;
  const event = (i: number) => ({
    event: 'package.sent',
    actorId: 1,
    actorName: '张三',
    taskId: `T${i}`,
    detail: { files: [{ name: `文件${i}.pdf`, size: 1000 + i, sha256: 'ab'.repeat(32) }], from: '内网', to: '外网' },
  });

  test('an empty chain holds; 40 appends at once make one chain 1..40 that verifies', async () => {
    expect(await verifyAudit(db())).toMatchObject({ ok: true, checked: 0 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => appendAudit(db(), event(i))));
    const rows = await db().selectFrom('ferry_audit').select(['seq', 'prev_hash', 'hash']).orderBy('seq').execute();
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    const check = await verifyAudit(db(), 7);
    expect(check).toEqual({ ok: true, checked: 40, brokenAt: null, message: '审计记录完整，共 40 条' });
  });

  test('an altered record breaks the chain where it happened', async () => {
    for (let i = 0; i < 10; i++) await appendAudit(db(), event(i));

    await sql`update ferry_audit set detail = ${JSON.stringify({ files: [], from: '内网', to: '外网' })} where seq = 4`.execute(db());
    expect(await verifyAudit(db())).toMatchObject({ ok: false, brokenAt: 4, checked: 3 });
    expect((await verifyAudit(db())).message).toMatch(/第 4 条/);
  });

  test('a deleted record in the middle, or at the end, is found', async () => {
    for (let i = 0; i < 6; i++) await appendAudit(db(), event(i));
    await db().deleteFrom('ferry_audit').where('seq', '=', 6).execute();
    expect(await verifyAudit(db())).toMatchObject({ ok: false, brokenAt: 6 });
    await db().deleteFrom('ferry_audit').where('seq', '=', 3).execute();
    expect(await verifyAudit(db())).toMatchObject({ ok: false, brokenAt: 3 });
  });

  test('a record rewritten with its hash recomputed still breaks the chain at the next record', async () => {
    for (let i = 0; i < 5; i++) await appendAudit(db(), event(i));
    const row = await db().selectFrom('ferry_audit').selectAll().where('seq', '=', 2).executeTakeFirstOrThrow();
    const forged = { ...row, actor_name: '李四' };
    await db().updateTable('ferry_audit').set({ actor_name: '李四', hash: recordHash(forged) }).where('seq', '=', 2).execute();
    expect(await verifyAudit(db())).toMatchObject({ ok: false, brokenAt: 3 });
  });
});
