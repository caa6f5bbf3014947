// The operation log's hash chain (the ferry's audit chain is the model: ferry/audit.ts). A request
// only appends its row; the sealer gives the rows that have none a position (seq) and chains
// them in that order under the head's row lock, so an append never waits for another instance,
// and a row committed late (a long transaction) simply takes a later position. Altering,
// removing or inserting a sealed row breaks the chain at that row; `verifyChain` says where.
import crypto from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, OperationLogsTable } from '../../db/types';
import { canonicalJson } from '../../lib/canonical-json';

type Row = Selectable<OperationLogsTable>;

/** The hash of a record: over the previous hash and every field but the row id. */
export function oplogHash(r: Omit<Row, 'id' | 'hash'>, seq: number, prev: string): string {
  const content = canonicalJson({
    seq,
    at: Number(r.at),
    userId: r.user_id === null ? null : Number(r.user_id),
    userName: r.user_name,
    deptPath: r.dept_path,
    onBehalfId: r.on_behalf_id === null ? null : Number(r.on_behalf_id),
    onBehalfName: r.on_behalf_name,
    ip: r.ip,
    userAgent: r.user_agent,
    action: r.action,
    objectType: r.object_type,
    objectId: r.object_id,
    objectName: r.object_name,
    objectPath: r.object_path,
    objectScope: r.object_scope,
    result: r.result,
    reason: r.reason,
    requestId: r.request_id,
    detail: r.detail,
  });
  return crypto.createHash('sha256').update(`${prev}\n${content}`).digest('hex');
}

/**
 * Seals up to `limit` unsealed rows, oldest id first; how many. The rows and the head are read,
 * and the hashes computed, outside any transaction; the write is one short transaction that moves
 * the head only if it is still where it was read (another sealer, on any instance, may have gone
 * first: then it reads again). So the database is held only for the writes, never while hashing.
 */
export async function sealPending(db: Kysely<Database>, limit = 2000): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const head = await db.selectFrom('operation_log_head').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    const rows = await db.selectFrom('operation_logs').selectAll().where('seq', 'is', null).orderBy('id').limit(limit).execute();
    if (!rows.length) return 0;
    let seq = Number(head.seq);
    let prev = head.hash;
    const sealed: { id: number; seq: number; prev: string; hash: string }[] = [];
    for (const r of rows) {
      seq += 1;
      const hash = oplogHash(r, seq, prev);
      sealed.push({ id: Number(r.id), seq, prev, hash });
      prev = hash;
    }
    const done = await db.transaction().execute(async (trx) => {
      // the head's row lock orders the sealers of every instance; it moves only from where it was read
      const moved = await trx
        .updateTable('operation_log_head')
        .set({ seq, hash: prev })
        .where('id', '=', 1)
        .where('seq', '=', Number(head.seq))
        .where('hash', '=', head.hash)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      // one statement per 500 rows (both databases know WITH … UPDATE … FROM)
      for (let i = 0; i < sealed.length; i += 500) {
        const values = sql.join(
          sealed.slice(i, i + 500).map((x) => sql`(cast(${x.id} as bigint), cast(${x.seq} as bigint), ${x.prev}, ${x.hash})`),
        );
        await sql`with v(id, seq, prev, hash) as (values ${values})
          update operation_logs set seq = v.seq, prev_hash = v.prev, hash = v.hash from v where operation_logs.id = v.id`.execute(trx);
      }
      return true;
    });
    if (done) return rows.length;
  }
  return 0;
}

export interface OplogChainCheck {
  ok: boolean;
  /** sealed records checked */
  checked: number;
  /** records appended and not sealed yet (sealed within seconds) */
  pending: number;
  /** the first position where the chain does not hold (null when it holds) */
  brokenAt: number | null;
  message: string;
}

/** Walks the chain from the last pruned record, in pages of seq, recomputing every hash. */
export async function verifyChain(db: Kysely<Database>, pageSize = 2000): Promise<OplogChainCheck> {
  const head = await db.selectFrom('operation_log_head').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  const pruned = Number(head.pruned_seq);
  let expected = pruned + 1;
  let prev = head.pruned_hash;
  let checked = 0;
  const pendingRow = await db
    .selectFrom('operation_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('seq', 'is', null)
    .executeTakeFirstOrThrow();
  const pending = Number(pendingRow.n);
  const broken = (at: number, what: string): OplogChainCheck => ({
    ok: false,
    checked,
    pending,
    brokenAt: at,
    message: `操作日志在第 ${at} 条处${what}，完整性校验未通过`,
  });
  for (;;) {
    const rows = await db.selectFrom('operation_logs').selectAll().where('seq', '>=', expected).orderBy('seq').limit(pageSize).execute();
    for (const r of rows) {
      if (Number(r.seq) !== expected) return broken(expected, '缺少记录（被删除）');
      if (r.prev_hash !== prev || oplogHash(r, expected, prev) !== r.hash) return broken(expected, '被修改或插入');
      prev = r.hash!;
      expected += 1;
      checked += 1;
    }
    if (rows.length < pageSize) break;
  }
  if (Number(head.seq) !== pruned + checked || head.hash !== prev) return broken(pruned + checked + 1, '之后的记录被删除');
  const tail = pending ? `，另有 ${pending} 条新记录等待封存` : '';
  return { ok: true, checked, pending, brokenAt: null, message: `操作日志完整：${checked} 条记录的哈希链校验通过${tail}` };
}

/**
 * Removes the sealed records older than `beforeMs`, keeping the last removed record's position
 * and hash in the head so the rest still verifies. Returns what was removed; the caller records
 * the pruning itself in the log.
 */
export async function pruneBefore(db: Kysely<Database>, beforeMs: number): Promise<{ removed: number; throughSeq: number; throughHash: string } | null> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('operation_log_head').set((eb) => ({ seq: eb.ref('seq') })).where('id', '=', 1).execute();
    const last = await trx
      .selectFrom('operation_logs')
      .select(['seq', 'hash'])
      .where('seq', 'is not', null)
      .where('at', '<', beforeMs)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last) return null;
    const throughSeq = Number(last.seq);
    const removed = await trx.deleteFrom('operation_logs').where('seq', '<=', throughSeq).executeTakeFirst();
    await trx.updateTable('operation_log_head').set({ pruned_seq: throughSeq, pruned_hash: last.hash! }).where('id', '=', 1).execute();
    return { removed: Number(removed.numDeletedRows), throughSeq, throughHash: last.hash! };
  });
}
