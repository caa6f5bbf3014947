// The ferry's audit log (issue 13; GB/T 22239-2019 asks that audit records be protected against
// change and deletion): append-only and hash-chained. Each record carries its position in the
// chain (`seq`), the hash of the record before it and its own hash over both and its content,
// so altering, removing or inserting a row breaks the chain at that row, and `verify` says where.
// Appends take the chain head's row lock, so two API instances never fork the chain.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, FerryAuditRow } from '../../db/types';
import { canonicalJson as canonical } from '../../lib/canonical-json';
import { appendEntries } from '../oplog/repository';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEvent {
  /** e.g. task.created, check.blocked, approval.approved, package.sent, package.received, package.rejected, file.downloaded, settings.changed */
  event: string;
  actorId: number | null;
  /** the actor's name at the time (users may be renamed later) */
  actorName: string;
  taskId: string;
  /** what happened: file names, sizes and hashes, zones, decisions, reasons */
  detail: Record<string, unknown>;
  /** epoch ms; now when absent */
  at?: number;
}

export function recordHash(r: Pick<FerryAuditRow, 'seq' | 'at' | 'actor_id' | 'actor_name' | 'event' | 'task_id' | 'detail' | 'prev_hash'>): string {
  const content = canonical({
    seq: Number(r.seq),
    at: Number(r.at),
    actorId: r.actor_id === null ? null : Number(r.actor_id),
    actorName: r.actor_name,
    event: r.event,
    taskId: r.task_id,
    detail: JSON.parse(r.detail),
  });
  return crypto.createHash('sha256').update(`${r.prev_hash}\n${content}`).digest('hex');
}

/** Appends one record to the chain, inside the caller's transaction when given one. */
export async function appendAudit(db: Kysely<Database>, e: AuditEvent): Promise<FerryAuditRow> {
  const write = async (trx: Kysely<Database>) => {
    // the head's row lock orders every append (a no-op update both databases lock)
    await trx.updateTable('ferry_audit_head').set((eb) => ({ seq: eb.ref('seq') })).where('id', '=', 1).execute();
    const head = await trx.selectFrom('ferry_audit_head').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    const row = {
      seq: Number(head.seq) + 1,
      at: e.at ?? Date.now(),
      actor_id: e.actorId,
      actor_name: e.actorName,
      event: e.event,
      task_id: e.taskId,
      detail: JSON.stringify(e.detail),
      prev_hash: head.hash,
    };
    const hash = recordHash(row);
    const inserted = await trx.insertInto('ferry_audit').values({ ...row, hash }).returningAll().executeTakeFirstOrThrow();
    await trx.updateTable('ferry_audit_head').set({ seq: row.seq, hash }).where('id', '=', 1).execute();
    // linked into the operation log, which names the ferry record's position
    await appendEntries(trx, [
      {
        at: row.at,
        userId: e.actorId,
        userName: e.actorName,
        action: 'ferry.event',
        object: { type: 'ferry', id: e.taskId, name: e.taskId ? `摆渡任务 ${e.taskId}` : '' },
        detail: { event: e.event, auditSeq: row.seq },
      },
    ]);
    return inserted;
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

export interface ChainCheck {
  ok: boolean;
  /** records checked */
  checked: number;
  /** the first position where the chain does not hold (null when it holds) */
  brokenAt: number | null;
  /** in Chinese, for the audit page */
  message: string;
}

/** Walks the whole chain from the first record, in pages, recomputing every hash. */
export async function verifyAudit(db: Kysely<Database>, pageSize = 1000): Promise<ChainCheck> {
  const start = await db.selectFrom('ferry_audit_head').select(['pruned_seq', 'pruned_hash']).where('id', '=', 1).executeTakeFirst();
  // records older than the retention were removed on purpose: the chain verifies from the last one removed
  const pruned = Number(start?.pruned_seq ?? 0);
  let expectedSeq = pruned + 1;
  let prev = start?.pruned_hash ?? GENESIS_HASH;
  let checked = 0;
  for (;;) {
    const rows = await db.selectFrom('ferry_audit').selectAll().where('seq', '>=', expectedSeq).orderBy('seq').limit(pageSize).execute();
    for (const r of rows) {
      const broken = Number(r.seq) !== expectedSeq || r.prev_hash !== prev || recordHash(r) !== r.hash;
      if (broken) {
        return { ok: false, checked, brokenAt: expectedSeq, message: `审计记录在第 ${expectedSeq} 条处被修改、删除或插入，校验未通过` };
      }
      prev = r.hash;
      expectedSeq += 1;
      checked += 1;
    }
    if (rows.length < pageSize) break;
  }
  const head = await db.selectFrom('ferry_audit_head').selectAll().where('id', '=', 1).executeTakeFirst();
  if (head && (Number(head.seq) !== pruned + checked || head.hash !== prev)) {
    return { ok: false, checked, brokenAt: pruned + checked + 1, message: `审计记录在第 ${pruned + checked + 1} 条之后被删除，校验未通过` };
  }
  return { ok: true, checked, brokenAt: null, message: `审计记录完整，共 ${checked} 条` };
}

/**
 * Removes the records older than `beforeMs` (audit retention), keeping the last removed record's
 * position and hash in the head so the rest still verifies. The removal is itself recorded.
 */
export async function pruneAudit(db: Kysely<Database>, beforeMs: number, retentionDays: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('ferry_audit_head').set((eb) => ({ seq: eb.ref('seq') })).where('id', '=', 1).execute();
    const last = await trx.selectFrom('ferry_audit').select(['seq', 'hash']).where('at', '<', beforeMs).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    if (!last) return 0;
    const removed = await trx.deleteFrom('ferry_audit').where('seq', '<=', Number(last.seq)).executeTakeFirst();
    await trx.updateTable('ferry_audit_head').set({ pruned_seq: Number(last.seq), pruned_hash: last.hash }).where('id', '=', 1).execute();
    const n = Number(removed.numDeletedRows);
    await appendAudit(trx, { event: 'audit.pruned', actorId: null, actorName: '系统', taskId: '', detail: { removed: n, throughSeq: Number(last.seq), retentionDays } });
    return n;
  });
}
