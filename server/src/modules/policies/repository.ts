// Access policies of 云文档 enterprise items.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { SUBJECT } from '../folders/rights';

export interface PolicyRowWithName {
  id: number;
  item_id: number;
  subject_type: number;
  subject_id: number;
  level: number;
  created_at: number;
  subject_name: string | null;
}

/** An item's own policy list, by subject type and name, with the subjects' names (null when the subject is gone). */
export async function ownPolicies(db: Kysely<Database>, itemId: number): Promise<PolicyRowWithName[]> {
  const rows = await db
    .selectFrom('access_policies as p')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'p.subject_id').on('p.subject_type', '=', SUBJECT.user))
    .leftJoin('departments as d', (j) => j.onRef('d.id', '=', 'p.subject_id').on('p.subject_type', '=', SUBJECT.department))
    .leftJoin('groups as g', (j) => j.onRef('g.id', '=', 'p.subject_id').on('p.subject_type', '=', SUBJECT.group))
    .select(['p.id', 'p.item_id', 'p.subject_type', 'p.subject_id', 'p.level', 'p.created_at', 'u.nick_name', 'd.name as dept_name', 'g.name as group_name'])
    .where('p.item_id', '=', itemId)
    .orderBy('p.subject_type')
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    item_id: Number(r.item_id),
    subject_type: Number(r.subject_type),
    subject_id: Number(r.subject_id),
    level: Number(r.level),
    created_at: Number(r.created_at),
    subject_name: r.nick_name ?? r.dept_name ?? r.group_name ?? null,
  }));
}

/** The ids among `ids` that exist as subjects of a type. */
export async function existingSubjects(db: Kysely<Database>, type: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const table = type === SUBJECT.user ? 'users' : type === SUBJECT.department ? 'departments' : 'groups';
  const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/** Replaces an item's own policy list. */
export async function replacePolicies(
  db: Kysely<Database>,
  itemId: number,
  entries: { subject_type: number; subject_id: number; level: number; created_at: number }[],
  createdBy: number,
): Promise<void> {
  await db.deleteFrom('access_policies').where('item_id', '=', itemId).execute();
  if (!entries.length) return;
  await db
    .insertInto('access_policies')
    .values(entries.map((e) => ({ item_id: itemId, ...e, created_by: createdBy })))
    .execute();
}
