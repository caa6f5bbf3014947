// 批量导入 of people: a file is read and checked row by row (each bad row with its line and a
// Chinese reason), and the check's plan (adds, updates, disables, departments to create) is
// shown before anything is written. The rows are kept in the database (user_imports) so that
// the apply may reach another instance; the apply checks them again against the people of that
// moment. An empty cell leaves the person's value as it is, so an export imports to no change,
// and the same file twice changes nothing.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, DepartmentRow, UserRow } from '../../db/types';
import { AppError, badRequest } from '../../lib/errors';
import { generatePassword, hashInitialPassword } from '../auth/password';
import type { Credentials } from '../auth/credentials';
import { createDepartmentPaths, DepartmentPaths, type PlacedDepartment } from '../organizations/paths';
import type { OrganizationsService } from '../organizations/service';
import { cleanEmail, cleanEmployeeNo, cleanMobile, cleanNickName, cleanUserName, type UsersService } from '../users/service';
import { userNameKey } from '../users/repository';
import { recordAction } from './repository';
import { ROLE_LABELS, type Role } from './schemas';
import { rolesOf } from './scope';
import type { Sheet } from './sheet';
import type { AuthService } from '../auth/service';

export const COLUMNS = ['用户名', '昵称', '部门', '工号', '手机', '邮箱', '角色', '个人空间配额(GB)', '状态'] as const;
export const MAX_ROWS = 10_000;
const GB = 1024 ** 3;
const KEEP_MS = 24 * 60 * 60 * 1000;
const SAMPLES = 20;

export type ImportMode = 'upsert' | 'sync';

/** A row as read, every field optional but the user name ('' or undefined: leave as it is). */
export interface ImportRow {
  line: number;
  userName: string;
  nickName: string;
  dept: string;
  employeeNo: string;
  mobile: string;
  email: string;
  roles: string;
  quota: string;
  status: string;
}

export interface RowError {
  line: number;
  userName: string;
  column: string;
  reason: string;
}

export interface ImportPlan {
  importId: string;
  mode: ImportMode;
  total: number;
  errors: RowError[];
  adds: number;
  updates: number;
  unchanged: number;
  disables: number;
  departmentsToCreate: string[];
  samples: { adds: string[]; updates: { userName: string; changes: string[] }[]; disables: string[] };
}

const ROLE_BY_LABEL = new Map<string, Role>(Object.entries(ROLE_LABELS).map(([k, v]) => [v, k as Role]));
const STATUS = new Map<string, boolean>([
  ['正常', false],
  ['启用', false],
  ['停用', true],
  ['已停用', true],
]);

/** The sheet's rows by column name; a header that lacks 用户名 refuses the whole file. */
export function rowsOf({ rows: sheet, total }: Sheet): { rows: ImportRow[]; formulaErrors: RowError[] } {
  if (!sheet.length) throw badRequest('文件中没有内容，请使用下载的模板');
  const header = sheet[0].cells.map((c) => c.replace(/\s|\*/g, ''));
  const at = (name: string) => header.findIndex((h) => h === name.replace(/\s/g, '') || h.startsWith(name.replace(/\(.*$/, '')));
  const index = Object.fromEntries(COLUMNS.map((c) => [c, at(c)])) as Record<(typeof COLUMNS)[number], number>;
  if (index['用户名'] < 0) throw badRequest(`第 1 行须为表头，且含“用户名”列（模板的列为：${COLUMNS.join('、')}）`);
  if (total - 1 > MAX_ROWS) throw badRequest(`一次最多导入 ${MAX_ROWS.toLocaleString('en-US')} 行，本文件有 ${(total - 1).toLocaleString('en-US')} 行，请分批导入`);
  const data = sheet.slice(1);
  const formulaErrors: RowError[] = [];
  const rows = data.map((r) => {
    const get = (c: (typeof COLUMNS)[number]) => (index[c] >= 0 ? (r.cells[index[c]] ?? '') : '');
    COLUMNS.forEach((c) => {
      if (index[c] >= 0 && r.formula[index[c]]) formulaErrors.push({ line: r.line, userName: get('用户名'), column: c, reason: '单元格是公式，请改为文字' });
    });
    return {
      line: r.line,
      userName: get('用户名'),
      nickName: get('昵称'),
      dept: get('部门'),
      employeeNo: get('工号'),
      mobile: get('手机'),
      email: get('邮箱'),
      roles: get('角色'),
      quota: get('个人空间配额(GB)'),
      status: get('状态'),
    };
  });
  return { rows, formulaErrors };
}

/** What a row asks for, cleaned; undefined: leave as it is. */
interface Wanted {
  line: number;
  userName: string;
  key: string;
  nickName?: string;
  deptPath?: string[];
  employeeNo?: string;
  mobile?: string;
  email?: string;
  roles?: Role[];
  quota?: number | null;
  disabled?: boolean;
}

interface Resolved {
  wanted: Wanted;
  existing?: UserRow;
  /** the department's id, or the path of one to create */
  dept?: PlacedDepartment;
  changes: string[];
}

function rowErrors(r: ImportRow, push: (column: string, reason: string) => void): Wanted | null {
  let ok = true;
  const fail = (column: string, reason: string) => {
    ok = false;
    push(column, reason);
  };
  const tryClean = <T>(column: string, fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (err) {
      fail(column, err instanceof AppError ? err.message : String(err));
      return undefined;
    }
  };
  if (!r.userName) fail('用户名', '用户名不能为空');
  const userName = r.userName ? (tryClean('用户名', () => cleanUserName(r.userName)) ?? '') : '';
  const w: Wanted = { line: r.line, userName, key: userNameKey(userName) };
  if (r.nickName) w.nickName = tryClean('昵称', () => cleanNickName(r.nickName, userName));
  if (r.dept) {
    const segments = r.dept.split('/').map((s) => s.trim());
    if (segments.some((s) => !s)) fail('部门', `部门路径“${r.dept}”中有空的部门名称`);
    else if (segments.some((s) => [...s].length > 64)) fail('部门', '部门名称不能超过 64 个字符');
    else w.deptPath = segments;
  }
  if (r.employeeNo) w.employeeNo = tryClean('工号', () => cleanEmployeeNo(r.employeeNo));
  if (r.mobile) w.mobile = tryClean('手机', () => cleanMobile(r.mobile));
  if (r.email) w.email = tryClean('邮箱', () => cleanEmail(r.email));
  if (r.roles) {
    const names = r.roles.split(/[、,，;；\s]+/).filter(Boolean);
    const unknown = names.filter((n) => !ROLE_BY_LABEL.has(n) && n !== '无');
    if (unknown.length) fail('角色', `未知的角色“${unknown.join('、')}”（可用：${[...ROLE_BY_LABEL.keys()].join('、')}）`);
    else w.roles = [...new Set(names.filter((n) => n !== '无').map((n) => ROLE_BY_LABEL.get(n)!))];
  }
  if (r.quota) {
    const gb = Number(r.quota);
    if (r.quota === '沿用') w.quota = null;
    else if (!Number.isFinite(gb) || gb < 0 || gb > 1024 * 1024) fail('个人空间配额(GB)', `配额“${r.quota}”不是 0–1048576 之间的数（单位 GB，0 为不限，“沿用”为按部门或默认）`);
    else w.quota = Math.round(gb * GB);
  }
  if (r.status) {
    if (!STATUS.has(r.status)) fail('状态', `状态“${r.status}”应为“正常”或“停用”`);
    else w.disabled = STATUS.get(r.status);
  }
  return ok ? w : null;
}

const sameRoles = (a: readonly Role[], b: readonly Role[]) => a.length === b.length && a.every((r) => b.includes(r));
const describe = (roles: readonly Role[]) => (roles.length ? roles.map((r) => ROLE_LABELS[r]).join('、') : '无');

export class PeopleImport {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    private readonly credentials: Credentials,
    private readonly auth: AuthService,
  ) {}

  /** Checks the rows against the people and departments of now: the plan, with every refused row. */
  private async plan(caller: UserRow, rows: ImportRow[], formulaErrors: RowError[], mode: ImportMode) {
    const errors: RowError[] = [...formulaErrors];
    const badLines = new Set(formulaErrors.map((e) => e.line));
    const wanted: Wanted[] = [];
    for (const r of rows) {
      const w = rowErrors(r, (column, reason) => errors.push({ line: r.line, userName: r.userName, column, reason }));
      if (w && !badLines.has(r.line)) wanted.push(w);
    }
    // the same person twice in the file
    const seenName = new Map<string, number>();
    const seenNo = new Map<string, number>();
    for (const w of wanted) {
      const first = seenName.get(w.key);
      if (first !== undefined) errors.push({ line: w.line, userName: w.userName, column: '用户名', reason: `与第 ${first} 行的用户名重复` });
      else seenName.set(w.key, w.line);
      if (w.employeeNo) {
        const other = seenNo.get(w.employeeNo);
        if (other !== undefined) errors.push({ line: w.line, userName: w.userName, column: '工号', reason: `与第 ${other} 行的工号重复` });
        else seenNo.set(w.employeeNo, w.line);
      }
    }

    const keys = wanted.map((w) => w.key);
    const nos = wanted.map((w) => w.employeeNo).filter((n): n is string => !!n);
    const byKey = new Map<string, UserRow>();
    const byNo = new Map<string, UserRow>();
    for (let i = 0; i < keys.length; i += 500) {
      for (const u of await this.db.selectFrom('users').selectAll().where('user_name_key', 'in', keys.slice(i, i + 500)).execute()) byKey.set(u.user_name_key, u);
    }
    for (let i = 0; i < nos.length; i += 500) {
      for (const u of await this.db.selectFrom('users').selectAll().where('employee_no', 'in', nos.slice(i, i + 500)).execute()) byNo.set(u.employee_no, u);
    }
    const depts = await DepartmentPaths.load(this.db);
    const toCreate: string[] = [];
    const resolved: Resolved[] = [];
    const erroredLines = new Set(errors.map((e) => e.line));
    for (const w of wanted) {
      if (erroredLines.has(w.line)) continue;
      let existing = byKey.get(w.key);
      if (!existing && w.employeeNo) {
        const owner = byNo.get(w.employeeNo);
        if (owner) {
          errors.push({ line: w.line, userName: w.userName, column: '工号', reason: `工号“${w.employeeNo}”属于用户“${owner.user_name}”，与本行的用户名不一致` });
          continue;
        }
      }
      if (existing && w.employeeNo) {
        const owner = byNo.get(w.employeeNo);
        if (owner && owner.id !== existing.id) {
          errors.push({ line: w.line, userName: w.userName, column: '工号', reason: `工号“${w.employeeNo}”已被用户“${owner.user_name}”使用` });
          continue;
        }
      }
      if (existing && existing.id === caller.id && w.disabled) {
        errors.push({ line: w.line, userName: w.userName, column: '状态', reason: '不能停用自己的账号' });
        continue;
      }
      if (existing && existing.id === caller.id && w.roles && !w.roles.includes('admin')) {
        errors.push({ line: w.line, userName: w.userName, column: '角色', reason: '不能取消自己的系统管理员角色' });
        continue;
      }
      const dept: Resolved['dept'] = w.deptPath ? depts.place(w.deptPath, toCreate) : undefined;
      const changes: string[] = [];
      if (existing) {
        existing = existing as UserRow;
        if (w.nickName !== undefined && w.nickName !== existing.nick_name) changes.push(`昵称：${existing.nick_name} → ${w.nickName}`);
        if (dept && ('create' in dept || dept.id !== Number(existing.dept_id))) {
          changes.push(`部门：${depts.namesOf(existing.dept_id === null ? null : Number(existing.dept_id)) || '无'} → ${'create' in dept ? dept.create : depts.namesOf(dept.id)}`);
        }
        if (w.employeeNo !== undefined && w.employeeNo !== existing.employee_no) changes.push(`工号：${existing.employee_no || '空'} → ${w.employeeNo}`);
        if (w.mobile !== undefined && w.mobile !== existing.mobile) changes.push(`手机：${existing.mobile || '空'} → ${w.mobile}`);
        if (w.email !== undefined && w.email !== existing.email) changes.push(`邮箱：${existing.email || '空'} → ${w.email}`);
        if (w.roles !== undefined && !sameRoles(w.roles, rolesOf(existing))) changes.push(`角色：${describe(rolesOf(existing))} → ${describe(w.roles)}`);
        const own = existing.quota === null ? null : Number(existing.quota);
        if (w.quota !== undefined && w.quota !== own) changes.push(`配额：${own === null ? '沿用' : `${own / GB} GB`} → ${w.quota === null ? '沿用' : `${w.quota / GB} GB`}`);
        if (w.disabled !== undefined && w.disabled !== (existing.disabled === 1)) changes.push(w.disabled ? '停用' : '启用');
      }
      resolved.push({ wanted: w, existing, dept, changes });
    }

    let disables: { id: number; user_name: string }[] = [];
    if (mode === 'sync' && !errors.length) {
      const present = new Set(resolved.map((r) => r.existing?.id).filter((x): x is number => x !== undefined));
      // people absent from the file; never the caller, nor a system administrator
      const enabled = await this.db.selectFrom('users').select(['id', 'user_name', 'is_admin']).where('disabled', '=', 0).orderBy('user_name_key').execute();
      disables = enabled.filter((u) => !present.has(Number(u.id)) && Number(u.id) !== caller.id && u.is_admin !== 1).map((u) => ({ id: Number(u.id), user_name: u.user_name }));
    }
    errors.sort((a, b) => a.line - b.line);
    return { errors, resolved, toCreate, disables };
  }

  private summary(importId: string, mode: ImportMode, total: number, p: Awaited<ReturnType<PeopleImport['plan']>>): ImportPlan {
    const adds = p.resolved.filter((r) => !r.existing);
    const updates = p.resolved.filter((r) => r.existing && r.changes.length);
    return {
      importId,
      mode,
      total,
      errors: p.errors,
      adds: p.errors.length ? 0 : adds.length,
      updates: p.errors.length ? 0 : updates.length,
      unchanged: p.errors.length ? 0 : p.resolved.length - adds.length - updates.length,
      disables: p.disables.length,
      departmentsToCreate: p.errors.length ? [] : p.toCreate,
      samples: {
        adds: adds.slice(0, SAMPLES).map((r) => r.wanted.userName),
        updates: updates.slice(0, SAMPLES).map((r) => ({ userName: r.existing!.user_name, changes: r.changes })),
        disables: p.disables.slice(0, SAMPLES).map((u) => u.user_name),
      },
    };
  }

  /** POST /api/Admin/Users/Import: reads and checks; keeps the rows for the apply; writes no person. */
  async check(caller: UserRow, sheet: Sheet, mode: ImportMode, fileName: string): Promise<ImportPlan> {
    const { rows, formulaErrors } = rowsOf(sheet);
    const p = await this.plan(caller, rows, formulaErrors, mode);
    const importId = crypto.randomBytes(12).toString('hex');
    const now = Date.now();
    await this.db.deleteFrom('user_imports').where('created_at', '<', now - KEEP_MS).execute();
    await this.db
      .insertInto('user_imports')
      .values({ id: importId, created_by: caller.id, created_at: now, mode, file_name: fileName.slice(0, 200), rows: JSON.stringify(rows), applied_at: null })
      .execute();
    return this.summary(importId, mode, rows.length, p);
  }

  /** Applies a checked file: checked again first; in sync mode the count of people to disable must be the one confirmed. */
  async apply(caller: UserRow, importId: string, confirmDisable: number) {
    const job = await this.db.selectFrom('user_imports').selectAll().where('id', '=', importId).where('created_by', '=', caller.id).executeTakeFirst();
    if (!job) throw new AppError(404, 404, '该导入不存在或已过期，请重新上传文件');
    if (job.applied_at !== null) throw new AppError(409, 40903, '该导入已经应用过了');
    const rows = JSON.parse(job.rows) as ImportRow[];
    const mode = job.mode as ImportMode;
    const p = await this.plan(caller, rows, [], mode);
    if (p.errors.length) throw new AppError(409, 40903, '检查之后人员或部门有了变化，文件中有的行已不能导入，请重新检查');
    if (mode === 'sync' && confirmDisable !== p.disables.length) throw new AppError(409, 40903, `将停用的人数已变为 ${p.disables.length} 人，请重新检查并确认`);
    // claimed once: a second apply (here or on another instance) finds it applied
    const claimed = await this.db.updateTable('user_imports').set({ applied_at: Date.now() }).where('id', '=', importId).where('applied_at', 'is', null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(409, 40903, '该导入已经应用过了');

    // departments, the upper levels first
    const deptIds = await createDepartmentPaths(this.db, this.organizations, p.toCreate);
    const made = deptIds.size;
    const deptOf = (r: Resolved): number | undefined => (r.dept ? ('id' in r.dept ? r.dept.id : deptIds.get(r.dept.create)) : undefined);

    const policy = await this.credentials.policy();
    const passwords: { userName: string; nickName: string; initialPassword: string }[] = [];
    let added = 0;
    let updated = 0;
    // new people: passwords made and hashed first (on the thread pool, in parallel), then written
    // a chunk to a transaction
    const fresh = p.resolved.filter((r) => !r.existing);
    const initial = fresh.map(() => generatePassword(policy));
    const hashes: string[] = [];
    for (let i = 0; i < initial.length; i += 64) hashes.push(...(await Promise.all(initial.slice(i, i + 64).map((pw) => hashInitialPassword(pw)))));
    const created = await this.users.createMany(
      fresh.map((r, i) => {
        const w = r.wanted;
        return {
          userName: w.userName,
          nickName: w.nickName,
          password: '',
          passwordHash: hashes[i],
          deptId: deptOf(r) ?? null,
          mobile: w.mobile,
          email: w.email,
          employeeNo: w.employeeNo,
          quota: w.quota ?? null,
          isAdmin: w.roles?.includes('admin'),
          isDocAdmin: w.roles?.includes('docAdmin'),
          isFlowAdmin: w.roles?.includes('flowAdmin'),
          isTagAdmin: w.roles?.includes('tagAdmin'),
          isAuditAdmin: w.roles?.includes('auditAdmin'),
          mustChangePassword: true,
        };
      }),
    );
    for (const [i, user] of created.entries()) {
      if (fresh[i].wanted.disabled) await this.auth.setDisabled(user.id, true);
      passwords.push({ userName: user.user_name, nickName: user.nick_name, initialPassword: initial[i] });
      added++;
    }
    for (const r of p.resolved) {
      const w = r.wanted;
      if (!r.existing) continue;
      if (!r.changes.length) continue;
      const u = r.existing;
      const deptId = deptOf(r);
      await this.users.updateUser(u, {
        nickName: w.nickName,
        deptId: deptId === undefined || deptId === Number(u.dept_id) ? undefined : deptId,
        employeeNo: w.employeeNo,
        mobile: w.mobile,
        email: w.email,
        quota: w.quota,
        ...(w.roles
          ? {
              isAdmin: w.roles.includes('admin'),
              isDocAdmin: w.roles.includes('docAdmin'),
              isFlowAdmin: w.roles.includes('flowAdmin'),
              isTagAdmin: w.roles.includes('tagAdmin'),
              isAuditAdmin: w.roles.includes('auditAdmin'),
            }
          : {}),
      });
      if (w.disabled !== undefined && w.disabled !== (u.disabled === 1)) await this.auth.setDisabled(u.id, w.disabled);
      updated++;
    }
    for (const d of p.disables) await this.auth.setDisabled(d.id, true);
    await recordAction(this.db, {
      actorId: caller.id,
      actorName: caller.user_name,
      action: mode === 'sync' ? '批量导入（全量同步）' : '批量导入',
      targetType: 'import',
      targetId: importId,
      targetName: job.file_name,
      detail: `新增 ${added}，更新 ${updated}，停用 ${p.disables.length}，新建部门 ${made}`,
    });
    return { added, updated, disabled: p.disables.length, departmentsCreated: made, passwords };
  }

  /** The people of a filter as sheet rows, in the columns of the template. */
  async *exportRows(ids: AsyncIterable<UserRow[]>): AsyncIterable<string[]> {
    const depts = await DepartmentPaths.load(this.db);
    for await (const page of ids) {
      for (const u of page) {
        yield [
          u.user_name,
          u.nick_name,
          depts.namesOf(u.dept_id === null ? null : Number(u.dept_id)),
          u.employee_no,
          u.mobile,
          u.email,
          describe(rolesOf(u)),
          u.quota === null ? '' : String(Number(u.quota) / GB),
          u.disabled ? '停用' : '正常',
        ];
      }
    }
  }
}
