// The operation log's hash chain (the ferry's audit chain is the model: ferry/audit.ts). Records
// written on their own are chained as they are inserted (appendSealed: the next positions after
// the head, moved under its row lock). Records written inside a caller's transaction are appended
// without a position; the sealer gives them one (seq) within a second, so such an append never
// waits for another instance, and a row committed late (a long transaction) simply takes a later
// position. Altering, removing or inserting a sealed row breaks the chain at that row;
// `verifyChain` says where.
import crypto from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, OperationLogHeadTable, OperationLogsTable } from '../../db/types';
import { appendEntries, recordRows, type OplogEntry } from './repository';

type Row = Selectable<OperationLogsTable>;
/** What a record's hash covers: every column but the row id and the chain's own three. */
type Hashed = Omit<Row, 'id' | 'seq' | 'prev_hash' | 'hash'>;

/**
 * The text a record's hash covers: canonicalJson (lib/canonical-json.ts) of its fields, written
 * out in that function's key order. The fields are numbers, strings or null, so this is the same
 * text, byte for byte, at a fraction of the cost (records are hashed as they are written).
 */
function oplogContent(r: Hashed, seq: number): string {
  const fields: [string, unknown][] = [
    ['action', r.action],
    ['at', Number(r.at)],
    ['deptPath', r.dept_path],
    ['detail', r.detail],
    ['ip', r.ip],
    ['objectId', r.object_id],
    ['objectName', r.object_name],
    ['objectPath', r.object_path],
    ['objectScope', r.object_scope],
    ['objectType', r.object_type],
    ['onBehalfId', r.on_behalf_id === null ? null : Number(r.on_behalf_id)],
    ['onBehalfName', r.on_behalf_name],
    ['reason', r.reason],
    ['requestId', r.request_id],
    ['result', r.result],
    ['seq', seq],
    ['userAgent', r.user_agent],
    ['userId', r.user_id === null ? null : Number(r.user_id)],
    ['userName', r.user_name],
  ];
  let out = '';
  for (const [key, value] of fields) if (value !== undefined) out += `${out ? ',' : '{'}"${key}":${JSON.stringify(value)}`;
  return `${out}}`;
}

/** The hash of a record: over the previous hash and every field but the row id. */
export function oplogHash(r: Hashed, seq: number, prev: string): string {
  return crypto.createHash('sha256').update(`${prev}\n${oplogContent(r, seq)}`).digest('hex');
}

type Head = Selectable<OperationLogHeadTable>;

const readHead = (db: Kysely<Database>) => db.selectFrom('operation_log_head').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();

/**
 * Moves the head from where it was read to (seq, hash) and writes the rows chained in between, in
 * one short transaction; false when another writer (on any instance) moved it first. The head's
 * row lock orders the writers; the hashes were computed before, so the database is held only for
 * the writes, never while hashing.
 */
async function advanceHead(db: Kysely<Database>, from: Head, seq: number, hash: string, write: (trx: Kysely<Database>) => Promise<void>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('operation_log_head')
      .set({ seq, hash })
      .where('id', '=', 1)
      .where('seq', '=', Number(from.seq))
      .where('hash', '=', from.hash)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    await write(trx);
    return true;
  });
}

/**
 * Appends records already chained: each takes the next position after the head, with its hash,
 * so no later rewrite of the row is needed (a sealed append costs one insert, as an unsealed one
 * does). When the head keeps moving under it (other instances appending at the same moment) the
 * records are appended unsealed and the sealer chains them within a second.
 */
export async function appendSealed(db: Kysely<Database>, entries: readonly OplogEntry[], now = Date.now()): Promise<void> {
  if (!entries.length) return;
  const rows = await recordRows(db, entries, now);
  for (let attempt = 0; attempt < 3; attempt++) {
    const head = await readHead(db);
    let seq = Number(head.seq);
    let prev = head.hash;
    const chained = rows.map((r) => {
      seq += 1;
      const hash = oplogHash(r, seq, prev);
      const row = Object.assign(r, { seq, prev_hash: prev, hash });
      prev = hash;
      return row;
    });
    if (await advanceHead(db, head, seq, prev, async (trx) => void (await trx.insertInto('operation_logs').values(chained).execute()))) return;
  }
  await appendEntries(db, entries, now);
}

/**
 * Seals up to `limit` unsealed rows (those appended inside a caller's transaction, or when the
 * head was busy), oldest id first; how many. The rows and the head are read, and the hashes
 * computed, outside any transaction; the write moves the head only if it is still where it was
 * read (else it reads again).
 */
export async function sealPending(db: Kysely<Database>, limit = 2000): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const head = await readHead(db);
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
    const done = await advanceHead(db, head, seq, prev, async (trx) => {
      // one statement per 500 rows (both databases know WITH … UPDATE … FROM)
      for (let i = 0; i < sealed.length; i += 500) {
        const values = sql.join(
          sealed.slice(i, i + 500).map((x) => sql`(cast(${x.id} as bigint), cast(${x.seq} as bigint), ${x.prev}, ${x.hash})`),
        );
        await sql`with v(id, seq, prev, hash) as (values ${values})
          update operation_logs set seq = v.seq, prev_hash = v.prev, hash = v.hash from v where operation_logs.id = v.id`.execute(trx);
      }
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
  const head = await readHead(db);
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
