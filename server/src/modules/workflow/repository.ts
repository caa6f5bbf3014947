// Storage of 云文档 approvals: definitions, instances (state written with a version check),
// participants (the boxes), the append-only action log and the attached file versions.
import { sql, type Kysely } from 'kysely';
import type { Database, WorkflowActionRow, WorkflowDefinitionRow, WorkflowFileRow, WorkflowInstanceRow } from '../../db/types';
import type { InstanceState, LogEntry } from './engine';

export type Role = 'todo' | 'done' | 'cc' | 'route';
export type Box = 'todo' | 'done' | 'mine' | 'cc';

// ---- definitions ---------------------------------------------------------------------------

export function listDefinitions(db: Kysely<Database>, onlyEnabled: boolean): Promise<WorkflowDefinitionRow[]> {
  let q = db.selectFrom('workflow_definitions').selectAll().where('deleted', '=', 0);
  if (onlyEnabled) q = q.where('enabled', '=', 1);
  return q.orderBy('category').orderBy('name').orderBy('id').execute();
}

export function findDefinition(db: Kysely<Database>, id: number): Promise<WorkflowDefinitionRow | undefined> {
  return db.selectFrom('workflow_definitions').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
}

export function insertDefinition(
  db: Kysely<Database>,
  values: Pick<WorkflowDefinitionRow, 'name' | 'category' | 'description' | 'enabled' | 'body' | 'created_by' | 'created_at'> &
    Partial<Pick<WorkflowDefinitionRow, 'auto_remind_hours'>>,
): Promise<WorkflowDefinitionRow> {
  return db
    .insertInto('workflow_definitions')
    .values({ ...values, version: 1, deleted: 0, updated_at: values.created_at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateDefinition(
  db: Kysely<Database>,
  id: number,
  values: Pick<WorkflowDefinitionRow, 'name' | 'category' | 'description' | 'enabled' | 'body' | 'updated_at'> &
    Partial<Pick<WorkflowDefinitionRow, 'auto_remind_hours'>>,
): Promise<WorkflowDefinitionRow | undefined> {
  return db
    .updateTable('workflow_definitions')
    .set({ ...values, version: sql<number>`version + 1` })
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteDefinition(db: Kysely<Database>, id: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('workflow_definitions')
    .set({ deleted: 1, enabled: 0, updated_at: now })
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

// ---- instances -----------------------------------------------------------------------------

export function insertInstance(
  db: Kysely<Database>,
  values: Omit<WorkflowInstanceRow, 'id' | 'end_handled_at' | 'finished_at' | 'updated_at'>,
): Promise<WorkflowInstanceRow> {
  return db
    .insertInto('workflow_instances')
    .values({ ...values, updated_at: values.created_at, finished_at: null, end_handled_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findInstance(db: Kysely<Database>, id: number): Promise<WorkflowInstanceRow | undefined> {
  return db.selectFrom('workflow_instances').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Takes the instance's row lock for the rest of the transaction (a no-op update, which both
 * databases lock): concurrent actions on one instance then decide one after the other.
 */
export async function lockInstance(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('workflow_instances').set((eb) => ({ version: eb.ref('version') })).where('id', '=', id).execute();
}

/**
 * Writes a transition's state if the stored version is still the one it was computed from;
 * false when another transition got there first (nothing written).
 */
export async function saveState(db: Kysely<Database>, id: number, readVersion: number, state: InstanceState, now: number): Promise<boolean> {
  const ended = state.status !== 1;
  const r = await db
    .updateTable('workflow_instances')
    .set({ state: JSON.stringify(state), status: state.status, version: state.version, updated_at: now, ...(ended ? { finished_at: now } : {}) })
    .where('id', '=', id)
    .where('version', '=', readVersion)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function appendActions(db: Kysely<Database>, instanceId: number, entries: readonly LogEntry[], now: number): Promise<void> {
  if (!entries.length) return;
  await db
    .insertInto('workflow_actions')
    .values(
      entries.map((e) => ({
        instance_id: instanceId,
        kind: e.kind,
        user_id: e.userId || null,
        step: e.step,
        comment: e.comment,
        target_id: e.kind === 'transfer' || e.kind === 'addApprover' ? (e.target ?? null) : null,
        to_step: e.kind === 'return' ? (e.target ?? null) : null,
        status: e.status ?? null,
        created_at: now,
      })),
    )
    .execute();
}

export function actionsOf(db: Kysely<Database>, instanceId: number): Promise<WorkflowActionRow[]> {
  return db.selectFrom('workflow_actions').selectAll().where('instance_id', '=', instanceId).orderBy('id').execute();
}

/** The log as the engine reads it. */
export function toLog(rows: readonly WorkflowActionRow[]): LogEntry[] {
  return rows.map((r) => ({
    kind: r.kind as LogEntry['kind'],
    userId: Number(r.user_id ?? 0),
    step: r.step,
    comment: r.comment,
    ...(r.target_id !== null ? { target: Number(r.target_id) } : r.to_step !== null ? { target: r.to_step } : {}),
    ...(r.status !== null ? { status: r.status as LogEntry['status'] } : {}),
  }));
}

/**
 * Replaces who takes part in the instance in which role. A person still asked keeps the time
 * the task became theirs (todo_since, what 自动催办 measures from); one newly asked, or asked
 * afresh (`afresh`: a step returned to), waits from `now`.
 */
export async function setParticipants(
  db: Kysely<Database>,
  instanceId: number,
  roles: ReadonlyMap<Role, readonly number[]>,
  now: number,
  afresh: readonly number[] = [],
): Promise<void> {
  const before = await db.selectFrom('workflow_participants').select(['user_id', 'todo_since']).where('instance_id', '=', instanceId).where('role', '=', 'todo').execute();
  const since = new Map(before.filter((r) => !afresh.includes(Number(r.user_id))).map((r) => [Number(r.user_id), Number(r.todo_since)]));
  await db.deleteFrom('workflow_participants').where('instance_id', '=', instanceId).execute();
  const rows = [...roles].flatMap(([role, ids]) =>
    [...new Set(ids)].map((user_id) => ({ instance_id: instanceId, user_id, role, todo_since: role === 'todo' ? (since.get(user_id) ?? now) : 0 })),
  );
  if (rows.length) await db.insertInto('workflow_participants').values(rows).execute();
}

/**
 * 自动催办: the approvers of running instances whose flow reminds after N hours (N > 0) that
 * have waited N hours since the task became theirs and since their last reminder, oldest
 * first; only those of `instanceId` when given.
 */
export function dueAutoReminders(db: Kysely<Database>, now: number, o: { instanceId?: number; limit?: number } = {}) {
  const hoursMs = sql<number>`d.auto_remind_hours * 3600000`;
  let q = db
    .selectFrom('workflow_definitions as d')
    .innerJoin('workflow_instances as i', 'i.definition_id', 'd.id')
    .innerJoin('workflow_participants as p', (j) => j.onRef('p.instance_id', '=', 'i.id').on('p.role', '=', 'todo'))
    .leftJoin('workflow_reminders as r', (j) => j.onRef('r.instance_id', '=', 'p.instance_id').onRef('r.user_id', '=', 'p.user_id'))
    .select(['p.instance_id', 'p.user_id', 'd.auto_remind_hours as hours'])
    .where('d.auto_remind_hours', '>', 0)
    .where('i.status', '=', 1)
    .where(sql<boolean>`p.todo_since + ${hoursMs} <= cast(${now} as bigint)`)
    .where((eb) => eb.or([eb('r.reminded_at', 'is', null), sql<boolean>`r.reminded_at + ${hoursMs} <= cast(${now} as bigint)`]));
  if (o.instanceId !== undefined) q = q.where('i.id', '=', o.instanceId);
  return q.orderBy('p.todo_since').orderBy('p.instance_id').limit(o.limit ?? 10_000).execute();
}

export async function isParticipant(db: Kysely<Database>, instanceId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('workflow_participants')
    .select('role')
    .where('instance_id', '=', instanceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !!row;
}

export function insertFiles(db: Kysely<Database>, rows: readonly WorkflowFileRow[]) {
  return rows.length ? db.insertInto('workflow_files').values([...rows]).execute() : Promise.resolve([]);
}

export function filesOf(db: Kysely<Database>, instanceId: number): Promise<WorkflowFileRow[]> {
  return db.selectFrom('workflow_files').selectAll().where('instance_id', '=', instanceId).orderBy('position').execute();
}

export interface InstanceFilter {
  box: Box;
  userId: number;
  status?: number;
  definitionId?: number;
  fromMs?: number;
  toMs?: number;
  /** matched against the title; an instance number matches its id */
  keyword?: string;
  numberId?: number;
}

function filtered(db: Kysely<Database>, f: InstanceFilter) {
  let q = db.selectFrom('workflow_instances as i');
  if (f.box === 'mine') {
    q = q.where('i.initiator_id', '=', f.userId);
  } else {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('workflow_participants as p')
          .select('p.instance_id')
          .whereRef('p.instance_id', '=', 'i.id')
          .where('p.user_id', '=', f.userId)
          .where('p.role', '=', f.box as Role),
      ),
    );
  }
  if (f.status !== undefined) q = q.where('i.status', '=', f.status);
  if (f.definitionId !== undefined) q = q.where('i.definition_id', '=', f.definitionId);
  if (f.fromMs !== undefined) q = q.where('i.created_at', '>=', f.fromMs);
  if (f.toMs !== undefined) q = q.where('i.created_at', '<', f.toMs);
  if (f.keyword) {
    const like = `%${f.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => {
      const byTitle = eb(sql`lower(i.title)`, 'like', sql`lower(${like}) escape '\\'`);
      return f.numberId !== undefined ? eb.or([byTitle, eb('i.id', '=', f.numberId)]) : byTitle;
    });
  }
  return q;
}

export async function pageInstances(db: Kysely<Database>, f: InstanceFilter, page: number, pageSize: number) {
  const base = filtered(db, f);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('i')
    .orderBy(f.box === 'todo' ? 'i.updated_at' : 'i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows, total: Number(total.n) };
}

export async function countBoxes(db: Kysely<Database>, userId: number): Promise<Record<Box, number>> {
  const roles = await db
    .selectFrom('workflow_participants')
    .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .where('role', 'in', ['todo', 'done', 'cc'])
    .groupBy('role')
    .execute();
  const mine = await db
    .selectFrom('workflow_instances')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('initiator_id', '=', userId)
    .executeTakeFirstOrThrow();
  const of = (role: string) => Number(roles.find((r) => r.role === role)?.n ?? 0);
  return { todo: of('todo'), done: of('done'), cc: of('cc'), mine: Number(mine.n) };
}

/** Ended instances of these source modules whose end the module has not yet taken (oldest first). */
export function unhandledEnds(db: Kysely<Database>, sources: readonly string[], limit: number): Promise<WorkflowInstanceRow[]> {
  return db
    .selectFrom('workflow_instances')
    .selectAll()
    .where('source', 'in', [...sources])
    .where('end_handled_at', 'is', null)
    .where('status', '!=', 1)
    .orderBy('finished_at')
    .limit(limit)
    .execute();
}

export async function markEndHandled(db: Kysely<Database>, id: number, now: number): Promise<void> {
  await db.updateTable('workflow_instances').set({ end_handled_at: now }).where('id', '=', id).where('end_handled_at', 'is', null).execute();
}
