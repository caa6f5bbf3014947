// Who an approver rule names, resolved against the organisation when an instance starts:
// named users, a department's leader, the members of a department (with its sub-departments)
// or of a group, the initiator's department leader (up the tree when a department has none or
// the initiator leads it), and people the initiator chose. Disabled accounts never approve.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { badRequest } from '../../lib/errors';
import { departmentSubtree } from '../organizations/repository';
import type { ApproverRule } from './schemas';

export type RuleType = 'user' | 'deptLeader' | 'deptMembers' | 'groupMembers' | 'initiatorLeader' | 'initiatorChoice';

export const RULE_LABELS: Record<RuleType, string> = {
  user: '指定成员',
  deptLeader: '部门负责人',
  deptMembers: '部门成员',
  groupMembers: '用户组成员',
  initiatorLeader: '发起人的部门负责人',
  initiatorChoice: '发起人自选',
};

const needsId = (type: RuleType) => type !== 'initiatorLeader' && type !== 'initiatorChoice';

/** Active (not disabled) users among `ids`, in the order given. */
export async function activeUsers(db: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('users').select('id').where('id', 'in', [...new Set(ids)]).where('disabled', '=', 0).execute();
  const ok = new Set(rows.map((r) => Number(r.id)));
  return ids.filter((id) => ok.has(id));
}

/** The leader of the initiator's department, or of the nearest department above with one (never the initiator). */
async function initiatorLeader(db: Kysely<Database>, initiator: UserRow): Promise<number[]> {
  if (initiator.dept_id === null) return [];
  const dept = await db.selectFrom('departments').select('path').where('id', '=', initiator.dept_id).executeTakeFirst();
  if (!dept) return [];
  const chain = dept.path.split('/').filter(Boolean).map(Number).reverse();
  const rows = await db.selectFrom('departments').select(['id', 'leader_id']).where('id', 'in', chain).execute();
  const leaderOf = new Map(rows.map((r) => [Number(r.id), r.leader_id === null ? null : Number(r.leader_id)]));
  for (const id of chain) {
    const leader = leaderOf.get(id);
    if (leader != null && leader !== initiator.id && (await activeUsers(db, [leader])).length) return [leader];
  }
  return [];
}

/**
 * The users one rule names for this initiator. `chosen`: the users the initiator picked for
 * the step (initiatorChoice).
 */
export async function resolveRule(db: Kysely<Database>, rule: ApproverRule, initiator: UserRow, chosen: readonly number[]): Promise<number[]> {
  const id = rule.id === undefined ? null : Number(rule.id);
  switch (rule.type as RuleType) {
    case 'user':
      return activeUsers(db, id === null ? [] : [id]);
    case 'deptLeader': {
      if (id === null) return [];
      const dept = await db.selectFrom('departments').select('leader_id').where('id', '=', id).executeTakeFirst();
      return activeUsers(db, dept?.leader_id != null ? [Number(dept.leader_id)] : []);
    }
    case 'deptMembers': {
      if (id === null) return [];
      const dept = await db.selectFrom('departments').select('path').where('id', '=', id).executeTakeFirst();
      if (!dept) return [];
      const ids = (await departmentSubtree(db, dept.path)).map((d) => Number(d.id));
      const rows = await db.selectFrom('users').select('id').where('dept_id', 'in', ids).where('disabled', '=', 0).orderBy('user_name_key').execute();
      return rows.map((r) => Number(r.id));
    }
    case 'groupMembers': {
      if (id === null) return [];
      const rows = await db
        .selectFrom('group_members')
        .innerJoin('users', 'users.id', 'group_members.user_id')
        .select('users.id')
        .where('group_members.group_id', '=', id)
        .where('users.disabled', '=', 0)
        .orderBy('users.user_name_key')
        .execute();
      return rows.map((r) => Number(r.id));
    }
    case 'initiatorLeader':
      return initiatorLeader(db, initiator);
    case 'initiatorChoice':
      return activeUsers(db, chosen);
  }
  return [];
}

/** Every user the rules name, without repeats, in rule order. */
export async function resolveRules(db: Kysely<Database>, rules: readonly ApproverRule[], initiator: UserRow, chosen: readonly number[] = []): Promise<number[]> {
  const out: number[] = [];
  for (const rule of rules) out.push(...(await resolveRule(db, rule, initiator, chosen)));
  return [...new Set(out)];
}

/** Checks that every rule names something that exists; returns the rules with their names filled in. */
export async function checkRules(db: Kysely<Database>, rules: readonly ApproverRule[], where: string): Promise<ApproverRule[]> {
  const named = await nameRules(db, rules);
  for (const r of named) {
    if (needsId(r.type as RuleType) && r.id === undefined) throw badRequest(`${where}的“${RULE_LABELS[r.type as RuleType]}”没有选择对象`);
    if (needsId(r.type as RuleType) && !r.name) throw badRequest(`${where}的“${RULE_LABELS[r.type as RuleType]}”所选的对象不存在`);
  }
  return named.map((r) => (needsId(r.type as RuleType) ? { type: r.type, id: r.id } : { type: r.type }));
}

/** The rules with `name` set: the user's nickname, the department's or group's name ('' when gone), or the rule's label. */
export async function nameRules(db: Kysely<Database>, rules: readonly ApproverRule[]): Promise<ApproverRule[]> {
  const ids = (types: RuleType[]) => [...new Set(rules.filter((r) => types.includes(r.type as RuleType) && r.id !== undefined).map((r) => Number(r.id)))];
  const userIds = ids(['user']);
  const deptIds = ids(['deptLeader', 'deptMembers']);
  const groupIds = ids(['groupMembers']);
  const users = userIds.length ? await db.selectFrom('users').select(['id', 'nick_name']).where('id', 'in', userIds).execute() : [];
  const depts = deptIds.length ? await db.selectFrom('departments').select(['id', 'name']).where('id', 'in', deptIds).execute() : [];
  const groups = groupIds.length ? await db.selectFrom('groups').select(['id', 'name']).where('id', 'in', groupIds).execute() : [];
  const userName = new Map(users.map((u) => [Number(u.id), u.nick_name]));
  const deptName = new Map(depts.map((d) => [Number(d.id), d.name]));
  const groupName = new Map(groups.map((g) => [Number(g.id), g.name]));
  return rules.map((r) => {
    const id = r.id === undefined ? undefined : Number(r.id);
    const type = r.type as RuleType;
    let name: string;
    if (type === 'user') name = userName.get(id ?? -1) ?? '';
    else if (type === 'deptLeader' || type === 'deptMembers') name = deptName.get(id ?? -1) ?? '';
    else if (type === 'groupMembers') name = groupName.get(id ?? -1) ?? '';
    else name = RULE_LABELS[type];
    return { type: r.type, ...(r.id !== undefined ? { id: r.id } : {}), name };
  });
}

/** Enabled flow admins: who takes a step that has nobody to approve it. */
export async function flowAdmins(db: Kysely<Database>): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id').where('is_flow_admin', '=', 1).where('disabled', '=', 0).orderBy('id').execute();
  return rows.map((r) => Number(r.id));
}

/** Nicknames of the given users ('' for unknown ids). */
export async function userNames(db: Kysely<Database>, ids: Iterable<number>): Promise<Map<number, string>> {
  const list = [...new Set(ids)];
  if (!list.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'nick_name']).where('id', 'in', list).execute();
  return new Map(rows.map((r) => [Number(r.id), r.nick_name]));
}
