// The plan-and-apply engine of 目录同步, fed by LDAP/AD or DingTalk: the people a directory
// answers are compared with the accounts of that source (matched by the directory's id, or a
// local account of the same user name that is bound on the way), giving adds, updates, moves,
// and disables, with the departments to create by path. Nothing is applied when the
// directory answered nobody, or when it would disable more than the configured share; people
// who left are disabled (sessions ended), never deleted; one who comes back, or whom an
// administrator disabled here, is enabled again by an administrator, not by the sync.
import type { Kysely } from 'kysely';
import type { Database, DepartmentRow, UserRow } from '../../db/types';
import type { AuthService } from '../auth/service';
import { createDepartmentPaths, DepartmentPaths, type PlacedDepartment } from '../organizations/paths';
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
/** an account made by a directory has no local password: nothing verifies against this */
const NO_LOCAL_PASSWORD = '!directory';

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
}

export class DirectorySync {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    private readonly auth: AuthService,
  ) {}

  async plan(source: DirectorySource, entries: DirectoryEntry[], maxDisablePercent: number): Promise<Plan> {
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
    if (!entries.length) refused = '目录没有返回任何用户（可能是基准 DN 或筛选条件有误），本次同步未做任何修改';
    else if (enabledBefore > 0 && disables.length > 0 && (disables.length / enabledBefore) * 100 > maxDisablePercent) {
      const pct = Math.round((disables.length / enabledBefore) * 1000) / 10;
      refused = `本次同步将停用 ${disables.length} 人（占已同步用户的 ${pct}%），超过设定的 ${maxDisablePercent}%，未做任何修改；如确属人员变动，请调高“停用比例上限”后重新同步`;
    }
    const adds = items.filter((i) => !i.user);
    const updates = items.filter((i) => i.user && i.changes.length);
    const moves = items.filter((i) => i.user && i.move);
    const touched = new Set([...updates, ...moves]);
    return {
      items,
      disables,
      summary: {
        total: entries.length,
        adds: adds.length,
        updates: updates.length,
        moves: moves.length,
        disables: disables.length,
        unchanged: items.filter((i) => i.user && !touched.has(i)).length,
        conflicts,
        departmentsToCreate: toCreate,
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
    for (const p of plan.items) {
      if (!p.user) {
        const user = await this.users.createUser(
          {
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
          },
          { enforcePolicy: false },
        );
        if (source === 'ldap') await this.db.updateTable('users').set({ is_ldap_user: 1 }).where('id', '=', user.id).execute();
        if (p.entry.unionId) await this.db.updateTable('users').set({ dingtalk_union_id: p.entry.unionId }).where('id', '=', user.id).where('dingtalk_union_id', 'is', null).execute();
        continue;
      }
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
  }
}
