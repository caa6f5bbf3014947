// The plan-and-apply engine of 目录同步, fed by LDAP/AD or DingTalk: the people a directory
// answers are compared with the accounts of that source (matched by the directory's id, or a
// local account of the same user name that is bound on the way), giving adds, updates, moves,
// and disables, with the departments to create by path. Nothing is applied when the
// directory answered nobody, or when it would disable more than the configured share; people
// who left are disabled (sessions ended), never deleted; one who comes back, or whom an
// administrator disabled here, is enabled again by an administrator, not by the sync.
import type { Kysely } from 'kysely';
import type { Database, DepartmentRow, UserRow } from '../../db/types';
import { NO_LOCAL_PASSWORD } from '../auth/password';
import type { AuthService } from '../auth/service';
import { createDepartmentPaths, DepartmentPaths, type PlacedDepartment } from '../organizations/paths';
import { replaceGroupMembers } from '../organizations/repository';
import type { OrganizationsService } from '../organizations/service';
import { cleanEmail, cleanEmployeeNo, cleanNickName, cleanUserName, mobileOrEmpty, type UsersService } from '../users/service';
import { userNameKey } from '../users/repository';

export type DirectorySource = 'ldap' | 'dingtalk';

/** One person as a directory answers. */
export interface DirectoryEntry {
  /** the directory's stable id (LDAP entryUUID or objectGUID, DingTalk userid) */
  externalId: string;
  userName: string;
  nickName: string;
  email: string;
  mobile: string;
  employeeNo: string;
  /** department names from the top (the root department's own name may lead) */
  deptPath: string[];
  /** DingTalk: the unionId that DingTalk sign-in finds the account by */
  unionId?: string;
  /** LDAP: the entry's DN (groups name their members by it) */
  dn?: string;
}

/** A group as a directory answers: its members by their directory ids. */
export interface DirectoryGroup {
  externalId: string;
  name: string;
  memberIds: string[];
}

/** What one read of a directory gives. */
export interface DirectoryAnswer {
  people: DirectoryEntry[];
  groups: DirectoryGroup[];
}

export interface SyncSummary {
  /** people the directory answered */
  total: number;
  adds: number;
  updates: number;
  moves: number;
  disables: number;
  unchanged: number;
  /** people skipped: a local administrator or an account of another source holds the user name, or a bad user name */
  conflicts: { userName: string; reason: string }[];
  departmentsToCreate: string[];
  /** 用户组 kept in step with the directory's groups: made, changed (name or members), removed */
  groups: { adds: number; updates: number; removes: number };
  samples: {
    adds: string[];
    updates: { userName: string; changes: string[] }[];
    moves: { userName: string; from: string; to: string }[];
    disables: string[];
  };
  /** why nothing is applied (an empty answer, too many disables); null: it may be applied */
  refused: string | null;
}

const SAMPLES = 10;

interface Planned {
  entry: DirectoryEntry;
  user?: UserRow;
  /** the department's id, or the path of one to create */
  dept: PlacedDepartment;
  changes: string[];
  move?: { from: string; to: string };
  bind: boolean;
  clean: { nickName: string; email: string; mobile: string; employeeNo: string };
}

interface Plan {
  summary: SyncSummary;
  items: Planned[];
  disables: UserRow[];
  groups: { add: DirectoryGroup[]; update: { id: number; group: DirectoryGroup }[]; remove: number[] };
}

export class DirectorySync {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    private readonly auth: AuthService,
  ) {}

  async plan(source: DirectorySource, answer: DirectoryAnswer, maxDisablePercent: number): Promise<Plan> {
    const entries = answer.people;
    const conflicts: SyncSummary['conflicts'] = [];
    const tree = await DepartmentPaths.load(this.db);
    const mine = await this.db.selectFrom('users').selectAll().where('source', '=', source).execute();
    const byExternal = new Map(mine.filter((u) => u.external_id).map((u) => [u.external_id as string, u]));
    const seen = new Set<string>();
    const keys: string[] = [];
    const valid: { entry: DirectoryEntry; userName: string; key: string }[] = [];
    for (const e of entries) {
      let userName: string;
      try {
        userName = cleanUserName(e.userName);
      } catch {
        conflicts.push({ userName: e.userName, reason: '用户名不符合规则（1–64 个文字、数字或 . _ @ -）' });
        continue;
      }
      const key = userNameKey(userName);
      if (seen.has(key)) {
        conflicts.push({ userName, reason: '目录中有两个同名用户，只同步第一个' });
        continue;
      }
      seen.add(key);
      keys.push(key);
      valid.push({ entry: { ...e, userName }, userName, key });
    }
    const byKey = new Map<string, UserRow>();
    for (let i = 0; i < keys.length; i += 500) {
      for (const u of await this.db.selectFrom('users').selectAll().where('user_name_key', 'in', keys.slice(i, i + 500)).execute()) byKey.set(u.user_name_key, u);
    }
    // DingTalk: an account that signed in with DingTalk before is this person
    const unionIds = valid.map((v) => v.entry.unionId).filter((x): x is string => !!x);
    const byUnion = new Map<string, UserRow>();
    for (let i = 0; i < unionIds.length; i += 500) {
      for (const u of await this.db.selectFrom('users').selectAll().where('dingtalk_union_id', 'in', unionIds.slice(i, i + 500)).execute()) byUnion.set(u.dingtalk_union_id!, u);
    }
    const employeeOwners = new Map<string, number>();
    for (const u of await this.db.selectFrom('users').select(['id', 'employee_no']).where('employee_no', '<>', '').execute()) employeeOwners.set(u.employee_no, Number(u.id));

    const toCreate: string[] = [];
    const items: Planned[] = [];
    const present = new Set<number>();
    for (const { entry, userName, key } of valid) {
      let user = byExternal.get(entry.externalId);
      let bind = false;
      const signedInBefore = entry.unionId ? byUnion.get(entry.unionId) : undefined;
      if (!user && signedInBefore && signedInBefore.is_admin !== 1 && (signedInBefore.source === 'local' || signedInBefore.source === source) && !signedInBefore.external_id) {
        user = signedInBefore;
        bind = true;
      } else if (!user) {
        const same = byKey.get(key);
        if (same) {
          if (same.source !== source && same.source !== 'local') {
            conflicts.push({ userName, reason: `该用户名已被来自${same.source === 'ldap' ? 'LDAP' : '钉钉'}的账号使用` });
            continue;
          }
          if (same.source === 'local' && same.is_admin === 1) {
            conflicts.push({ userName, reason: '该用户名是本地系统管理员账号，不与目录关联' });
            continue;
          }
          if (same.source === source && same.external_id && same.external_id !== entry.externalId) {
            conflicts.push({ userName, reason: '目录中该用户名对应的条目已变化' });
            continue;
          }
          user = same;
          bind = same.source === 'local' || !same.external_id;
        }
      } else if (user.user_name_key !== key) {
        // renamed in the directory: the account keeps its user name (history names it)
      }
      const dept = tree.place(entry.deptPath, toCreate);
      let employeeNo = '';
      try {
        employeeNo = cleanEmployeeNo(entry.employeeNo);
      } catch {
        employeeNo = '';
      }
      const owner = employeeNo ? employeeOwners.get(employeeNo) : undefined;
      if (owner !== undefined && owner !== user?.id) employeeNo = user?.employee_no ?? '';
      let email = '';
      try {
        email = cleanEmail(entry.email);
      } catch {
        email = '';
      }
      let nickName = userName;
      try {
        nickName = cleanNickName(entry.nickName, userName);
      } catch {
        nickName = userName;
      }
      const clean = { nickName, email, mobile: mobileOrEmpty(entry.mobile), employeeNo };
      const changes: string[] = [];
      let move: Planned['move'];
      if (user) {
        present.add(user.id);
        if (bind) changes.push('关联到目录');
        if (clean.nickName !== user.nick_name) changes.push(`昵称：${user.nick_name} → ${clean.nickName}`);
        if (clean.email !== user.email) changes.push(`邮箱：${user.email || '空'} → ${clean.email || '空'}`);
        if (clean.mobile !== user.mobile) changes.push(`手机：${user.mobile || '空'} → ${clean.mobile || '空'}`);
        if (clean.employeeNo !== user.employee_no) changes.push(`工号：${user.employee_no || '空'} → ${clean.employeeNo || '空'}`);
        const to = 'create' in dept ? dept.create : tree.namesOf(dept.id);
        if ('create' in dept || dept.id !== Number(user.dept_id)) move = { from: tree.namesOf(user.dept_id === null ? null : Number(user.dept_id)), to };
      }
      items.push({ entry, user, dept, changes, move, bind, clean });
    }

    const disables = mine.filter((u) => u.disabled === 0 && !present.has(u.id));
    const enabledBefore = mine.filter((u) => u.disabled === 0).length;
    let refused: string | null = null;
    if (!entries.length) {
      refused =
        source === 'ldap'
          ? '目录没有返回任何用户（可能是基准 DN 或筛选条件有误），本次同步未做任何修改'
          : '钉钉通讯录没有返回任何用户（可能是根部门设置有误，或应用没有通讯录权限），本次同步未做任何修改';
    }
    else if (enabledBefore > 0 && disables.length > 0 && (disables.length / enabledBefore) * 100 > maxDisablePercent) {
      const pct = Math.round((disables.length / enabledBefore) * 1000) / 10;
      refused = `本次同步将停用 ${disables.length} 人（占已同步用户的 ${pct}%），超过设定的 ${maxDisablePercent}%，未做任何修改；如确属人员变动，请调高“停用比例上限”后重新同步`;
    }
    const groups = await this.planGroups(source, answer.groups);
    const adds = items.filter((i) => !i.user);
    const updates = items.filter((i) => i.user && i.changes.length);
    const moves = items.filter((i) => i.user && i.move);
    const touched = new Set([...updates, ...moves]);
    return {
      items,
      disables,
      groups,
      summary: {
        total: entries.length,
        adds: adds.length,
        updates: updates.length,
        moves: moves.length,
        disables: disables.length,
        unchanged: items.filter((i) => i.user && !touched.has(i)).length,
        conflicts,
        departmentsToCreate: toCreate,
        groups: { adds: groups.add.length, updates: groups.update.length, removes: groups.remove.length },
        samples: {
          adds: adds.slice(0, SAMPLES).map((i) => i.entry.userName),
          updates: updates.slice(0, SAMPLES).map((i) => ({ userName: i.user!.user_name, changes: i.changes })),
          moves: moves.slice(0, SAMPLES).map((i) => ({ userName: i.user!.user_name, ...i.move! })),
          disables: disables.slice(0, SAMPLES).map((u) => u.user_name),
        },
        refused,
      },
    };
  }

  /** Applies a plan that is not refused: departments first, then people, then the disables. */
  async apply(source: DirectorySource, plan: Plan): Promise<void> {
    if (plan.summary.refused) throw new Error(plan.summary.refused);
    const made = await createDepartmentPaths(this.db, this.organizations, plan.summary.departmentsToCreate, async (id) => {
      await this.db.updateTable('departments').set({ source }).where('id', '=', id).execute();
    });
    const deptId = (p: Planned) => ('id' in p.dept ? p.dept.id : made.get(p.dept.create)!);
    // new people, a chunk to a transaction
    const fresh = plan.items.filter((p) => !p.user);
    await this.users.createMany(
      fresh.map((p) => ({
        userName: p.entry.userName,
        nickName: p.clean.nickName,
        password: '',
        passwordHash: NO_LOCAL_PASSWORD,
        deptId: deptId(p),
        mobile: p.clean.mobile,
        email: p.clean.email,
        employeeNo: p.clean.employeeNo,
        source,
        externalId: p.entry.externalId,
        isLdapUser: source === 'ldap',
        dingtalkUnionId: p.entry.unionId ?? null,
      })),
    );
    for (const p of plan.items) {
      if (!p.user) continue;
      if (p.changes.length || p.move) {
        await this.users.updateUser(p.user, {
          nickName: p.clean.nickName,
          email: p.clean.email,
          mobile: p.clean.mobile,
          employeeNo: p.clean.employeeNo,
          deptId: p.move ? deptId(p) : undefined,
        });
      }
      if (p.bind) {
        await this.db
          .updateTable('users')
          .set({ source, external_id: p.entry.externalId, is_ldap_user: source === 'ldap' ? 1 : 0, ...(source === 'ldap' ? { password_hash: NO_LOCAL_PASSWORD } : {}) })
          .where('id', '=', p.user.id)
          .execute();
      }
    }
    for (const u of plan.disables) await this.auth.setDisabled(u.id, true);
    await this.applyGroups(source, plan.groups);
  }

  /** The directory's groups against the 用户组 of that source: by id, then by name and members. */
  private async planGroups(source: DirectorySource, groups: DirectoryGroup[]): Promise<Plan['groups']> {
    const mine = await this.db.selectFrom('groups').selectAll().where('source', '=', source).execute();
    const byExternal = new Map(mine.map((g) => [g.external_id ?? '', g]));
    const members = new Map<number, Set<string>>();
    if (mine.length) {
      const rows = await this.db
        .selectFrom('group_members')
        .innerJoin('users', 'users.id', 'group_members.user_id')
        .select(['group_members.group_id', 'users.external_id'])
        .where('group_members.group_id', 'in', mine.map((g) => g.id))
        .execute();
      for (const r of rows) {
        const set = members.get(Number(r.group_id)) ?? new Set<string>();
        set.add(r.external_id ?? '');
        members.set(Number(r.group_id), set);
      }
    }
    const plan: Plan['groups'] = { add: [], update: [], remove: [] };
    const seen = new Set<number>();
    for (const g of groups) {
      const existing = byExternal.get(g.externalId);
      if (!existing) {
        plan.add.push(g);
        continue;
      }
      seen.add(Number(existing.id));
      const now = members.get(Number(existing.id)) ?? new Set<string>();
      const same = now.size === g.memberIds.length && g.memberIds.every((m) => now.has(m));
      if (!same || !existing.name.startsWith(g.name)) plan.update.push({ id: Number(existing.id), group: g });
    }
    for (const g of mine) if (!seen.has(Number(g.id))) plan.remove.push(Number(g.id));
    return plan;
  }

  private async applyGroups(source: DirectorySource, groups: Plan['groups']): Promise<void> {
    if (!groups.add.length && !groups.update.length && !groups.remove.length) return;
    const ids = new Map<string, number>();
    for (const u of await this.db.selectFrom('users').select(['id', 'external_id']).where('source', '=', source).execute()) ids.set(u.external_id ?? '', Number(u.id));
    const memberIds = (g: DirectoryGroup) => g.memberIds.map((m) => ids.get(m)).filter((x): x is number => x !== undefined);
    // a local group of the same name keeps its name: the directory's gets a suffix
    const nameFor = async (trx: Kysely<Database>, name: string, self: number | null) => {
      const taken = await trx.selectFrom('groups').select(['id', 'source']).where('name', '=', name).executeTakeFirst();
      return taken && Number(taken.id) !== self ? `${name}（${source === 'ldap' ? 'LDAP' : '钉钉'}）` : name;
    };
    await this.db.transaction().execute(async (trx) => {
      for (const g of groups.add) {
        const row = await trx
          .insertInto('groups')
          .values({ name: await nameFor(trx, g.name, null), created_at: Date.now(), source, external_id: g.externalId })
          .returning('id')
          .executeTakeFirstOrThrow();
        await replaceGroupMembers(trx, Number(row.id), memberIds(g));
      }
      for (const { id, group } of groups.update) {
        await trx.updateTable('groups').set({ name: await nameFor(trx, group.name, id) }).where('id', '=', id).execute();
        await replaceGroupMembers(trx, id, memberIds(group));
      }
      if (groups.remove.length) await trx.deleteFrom('groups').where('id', 'in', groups.remove).execute();
    });
  }
}
