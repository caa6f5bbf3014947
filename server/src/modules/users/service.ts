// 云文档 accounts: creating a user (with its personal root folder) and the user-info block
// returned at sign-in.
import type { Kysely } from 'kysely';
import type { Database, Flag, UserRow } from '../../db/types';
import { badRequest, conflict, forbidden, isUniqueViolation } from '../../lib/errors';
import type { Credentials } from '../auth/credentials';
import { hashPassword, passwordPolicyViolation } from '../auth/password';
import type { FoldersService } from '../folders/service';
import { findDepartment } from '../organizations/repository';
import type { OrganizationsService } from '../organizations/service';
import type { SettingsService } from '../settings/service';
import { departmentName, findUserById, findUserByKey, insertUser, searchKey, updateUserFields, userNameKey } from './repository';

export interface NewUserInput {
  userName: string;
  nickName?: string;
  password: string;
  deptId?: number | null;
  isAdmin?: boolean;
  isDocAdmin?: boolean;
  isFlowAdmin?: boolean;
  isTagAdmin?: boolean;
  allowBackendLogin?: boolean;
  allowRepositoryLogin?: boolean;
  /** the first sign-in must choose a new password (an administrator made the account) */
  mustChangePassword?: boolean;
  /** a password hashed earlier (an approved registration); `password` is then ignored */
  passwordHash?: string;
  mobile?: string;
  email?: string;
  employeeNo?: string;
  isAuditAdmin?: boolean;
  /** bytes; null or undefined: the department's or the default */
  quota?: number | null;
  source?: 'local' | 'ldap' | 'dingtalk';
  externalId?: string | null;
  /** signs in through the directory (LDAP) */
  isLdapUser?: boolean;
  /** the DingTalk user (unionId) the account is bound to */
  dingtalkUnionId?: string | null;
}

/** The user-info fields of spec section 3, without the token. */
export interface UserInfoFields {
  userId: string;
  userName: string;
  nickName: string;
  avatar: string;
  deptName: string;
  isTagAdmin: boolean;
  isDocAdmin: boolean;
  isLdapUser: boolean;
  allowBackendLogin: boolean;
  allowRepositoryLogin: boolean;
  isFlowAdmin: boolean;
  /** a system administrator: the shell offers 系统管理 */
  isAdmin: boolean;
  /** administers some department: the shell offers 系统管理 with 用户 and 部门 */
  isDeptAdmin: boolean;
  isAuditAdmin: boolean;
}

/** What an administrator may change on an account (undefined: unchanged). */
export interface UserChanges {
  nickName?: string;
  /** null: the root department */
  deptId?: number | null;
  isDocAdmin?: boolean;
  isFlowAdmin?: boolean;
  isTagAdmin?: boolean;
  isAdmin?: boolean;
  isAuditAdmin?: boolean;
  mobile?: string;
  email?: string;
  employeeNo?: string;
  /** bytes; null: the department's or the default */
  quota?: number | null;
}

/** A mainland mobile number ('' for none), or a 400. */
export function cleanMobile(raw: string | undefined): string {
  const mobile = (raw ?? '').trim().replace(/[\s-]/g, '').replace(/^\+?86/, '');
  if (mobile && !/^1[3-9]\d{9}$/.test(mobile)) throw badRequest('手机号格式不正确，应为 11 位中国大陆手机号');
  return mobile;
}

/** A mobile number from elsewhere (DingTalk): kept when it is a mainland one, else dropped. */
export function mobileOrEmpty(raw: string | undefined): string {
  try {
    return cleanMobile(raw);
  } catch {
    return '';
  }
}

/** An e-mail address ('' for none), or a 400. */
export function cleanEmail(raw: string | undefined): string {
  const email = (raw ?? '').trim();
  if (email && (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))) throw badRequest('邮箱格式不正确');
  return email;
}

/** An employee number ('' for none): letters, digits, - and _, at most 64. */
export function cleanEmployeeNo(raw: string | undefined): string {
  const no = (raw ?? '').trim().normalize('NFKC');
  if (no && !/^[\p{L}\p{N}_-]{1,64}$/u.test(no)) throw badRequest('工号只能包含文字、数字、- 和 _，且不超过 64 个字符');
  return no;
}

async function assertEmployeeNoFree(db: Kysely<Database>, employeeNo: string, self: number | null): Promise<void> {
  if (!employeeNo) return;
  // `<> ''` lets the partial unique index answer (users_employee_no)
  const other = await db.selectFrom('users').select('id').where('employee_no', '=', employeeNo).where('employee_no', '<>', '').executeTakeFirst();
  if (other && Number(other.id) !== self) throw conflict(`工号“${employeeNo}”已被其他用户使用`);
}

/** A nickname: trimmed, the user name when empty, at most 64 characters without control characters. */
export function cleanNickName(raw: string | undefined, userName: string): string {
  const nickName = (raw ?? '').trim() || userName;
  // eslint-disable-next-line no-control-regex
  if ([...nickName].length > 64 || /[\u0000-\u001f\u007f]/.test(nickName)) throw badRequest('昵称不能超过 64 个字符，且不能包含控制字符');
  return nickName;
}

const USER_NAME_RE = /^[\p{L}\p{N}._@-]{1,64}$/u;

/** A user name as it is stored (trimmed, NFKC), or a 400 naming the rule. */
export function cleanUserName(raw: string): string {
  const userName = raw.trim().normalize('NFKC');
  if (!USER_NAME_RE.test(userName)) throw badRequest('用户名须为 1–64 个字符，只能包含文字、数字以及 . _ @ -');
  return userName;
}
const flag = (b: boolean | undefined): Flag => (b ? 1 : 0);

export class UsersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsService,
    private readonly organizations: OrganizationsService,
    private readonly folders: FoldersService,
    private readonly credentials: Credentials,
    /** transactions createMany may run at once: 1 on SQLite (one connection), a few on PostgreSQL's pool */
    private readonly concurrentWrites = 1,
  ) {}

  /**
   * Creates an account and its personal root folder in one transaction.
   * `enforcePolicy` is off only for the first administrator, whose password the operator chose.
   */
  async createUser(input: NewUserInput, options: { enforcePolicy?: boolean } = {}): Promise<UserRow> {
    if (options.enforcePolicy !== false && input.passwordHash === undefined) {
      const violation = passwordPolicyViolation(await this.settings.passwordPolicy(), input.password);
      if (violation) throw badRequest(violation);
    }
    const passwordHash = input.passwordHash ?? (await hashPassword(input.password));
    const env = await this.settings.environmentConfig();
    const rootId = await this.organizations.ensureRootDepartment();
    return this.db.transaction().execute((trx) => this.insertAccount(trx, { ...input, passwordHash }, env.personalFolderName, rootId));
  }

  /**
   * Many accounts (批量导入, 目录同步), each with its hashed password, `chunk` to a transaction: one
   * commit per chunk rather than per person. A refused one refuses its chunk.
   */
  async createMany(inputs: (NewUserInput & { passwordHash: string })[], chunk = 200): Promise<Pick<UserRow, 'id' | 'user_name' | 'nick_name'>[]> {
    const env = await this.settings.environmentConfig();
    const rootId = await this.organizations.ensureRootDepartment();
    // only the names are kept: thousands of whole rows would sit in memory until the end
    const out: Pick<UserRow, 'id' | 'user_name' | 'nick_name'>[] = new Array(inputs.length);
    let next = 0;
    let failed = false;
    const departments = new Set<number>();
    const writer = async () => {
      while (next < inputs.length && !failed) {
        const from = next;
        next += chunk;
        const part = inputs.slice(from, from + chunk);
        try {
          await this.db.transaction().execute(async (trx) => {
            for (const [i, input] of part.entries()) {
              const u = await this.insertAccount(trx, input, env.personalFolderName, rootId, { departments });
              out[from + i] = { id: u.id, user_name: u.user_name, nick_name: u.nick_name };
            }
          });
        } catch (err) {
          failed = true; // no further chunk starts, as when they went one after another
          throw err;
        }
      }
    };
    // on PostgreSQL the chunks go in over several connections (each person is a dozen round trips)
    const writers = Math.max(1, Math.min(this.concurrentWrites, Math.ceil(inputs.length / chunk)));
    const results = await Promise.allSettled(Array.from({ length: writers }, writer));
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (refused) throw refused.reason;
    return out;
  }

  /**
   * Checks and writes one account inside the caller's transaction. `bulk` (createMany) leaves the
   * user name and employee number to the unique indexes (the same Chinese refusal, one round trip
   * less each) and checks each department once.
   */
  private async insertAccount(
    db: Kysely<Database>,
    input: NewUserInput & { passwordHash: string },
    personalFolderName: string,
    rootId: number,
    bulk?: { departments: Set<number> },
  ): Promise<UserRow> {
    const userName = cleanUserName(input.userName);
    const nickName = cleanNickName(input.nickName, userName);
    const key = userNameKey(userName);
    if (!bulk && (await findUserByKey(db, key))) throw conflict('该用户名已被使用');
    const mobile = cleanMobile(input.mobile);
    const email = cleanEmail(input.email);
    const employeeNo = cleanEmployeeNo(input.employeeNo);
    if (!bulk) await assertEmployeeNoFree(db, employeeNo, null);
    let deptId = rootId;
    if (input.deptId !== undefined && input.deptId !== null) {
      if (!bulk?.departments.has(input.deptId)) {
        if (!(await findDepartment(db, input.deptId))) throw badRequest('所选部门不存在');
        bulk?.departments.add(input.deptId);
      }
      deptId = input.deptId;
    }
    const now = Date.now();
    try {
      const user = await insertUser(db, {
        user_name: userName,
        user_name_key: key,
        nick_name: nickName,
        nick_name_key: searchKey(nickName),
        password_hash: input.passwordHash,
        dept_id: deptId,
        avatar: '',
        is_admin: flag(input.isAdmin),
        is_doc_admin: flag(input.isDocAdmin),
        is_flow_admin: flag(input.isFlowAdmin),
        is_tag_admin: flag(input.isTagAdmin),
        is_ldap_user: flag(input.isLdapUser),
        allow_backend_login: flag(input.allowBackendLogin),
        allow_repository_login: flag(input.allowRepositoryLogin),
        disabled: 0,
        last_login_at: null,
        created_at: now,
        updated_at: now,
        password_changed_at: now,
        must_change_password: flag(input.mustChangePassword),
        mobile,
        email,
        employee_no: employeeNo,
        is_audit_admin: flag(input.isAuditAdmin),
        quota: input.quota ?? null,
        source: input.source ?? 'local',
        external_id: input.externalId ?? null,
        dingtalk_union_id: input.dingtalkUnionId ?? null,
      });
      if (bulk) await this.credentials.rememberFirst(db, user.id, input.passwordHash, now);
      else await this.credentials.remember(db, user.id, input.passwordHash, now);
      await this.folders.createPersonalRoot(db, user.id, personalFolderName);
      return user;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(/employee/i.test(String(err)) ? `工号“${employeeNo}”已被其他用户使用` : '该用户名已被使用');
      throw err;
    }
  }

  /** Changes the nickname, contact fields, department, roles and quota of an account. */
  async updateUser(user: UserRow, changes: UserChanges): Promise<UserRow> {
    const values: Parameters<typeof updateUserFields>[2] = {};
    if (changes.mobile !== undefined) values.mobile = cleanMobile(changes.mobile);
    if (changes.email !== undefined) values.email = cleanEmail(changes.email);
    if (changes.employeeNo !== undefined) {
      values.employee_no = cleanEmployeeNo(changes.employeeNo);
      await assertEmployeeNoFree(this.db, values.employee_no, user.id);
    }
    if (changes.quota !== undefined) values.quota = changes.quota;
    if (changes.isAdmin !== undefined) values.is_admin = flag(changes.isAdmin);
    if (changes.isAuditAdmin !== undefined) values.is_audit_admin = flag(changes.isAuditAdmin);
    if (changes.nickName !== undefined) {
      values.nick_name = cleanNickName(changes.nickName, user.user_name);
      values.nick_name_key = searchKey(values.nick_name);
    }
    if (changes.deptId !== undefined) {
      if (changes.deptId === null) values.dept_id = await this.organizations.ensureRootDepartment();
      else if (!(await findDepartment(this.db, changes.deptId))) throw badRequest('所选部门不存在');
      else values.dept_id = changes.deptId;
    }
    if (changes.isDocAdmin !== undefined) values.is_doc_admin = flag(changes.isDocAdmin);
    if (changes.isFlowAdmin !== undefined) values.is_flow_admin = flag(changes.isFlowAdmin);
    if (changes.isTagAdmin !== undefined) values.is_tag_admin = flag(changes.isTagAdmin);
    if (Object.keys(values).length > 0) {
      try {
        await updateUserFields(this.db, user.id, values, Date.now());
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`工号“${values.employee_no}”已被其他用户使用`);
        throw err;
      }
    }
    return (await findUserById(this.db, user.id)) ?? user;
  }

  async userInfo(user: UserRow): Promise<UserInfoFields> {
    return {
      userId: String(user.id),
      userName: user.user_name,
      nickName: user.nick_name,
      avatar: user.avatar,
      deptName: await departmentName(this.db, user.dept_id),
      isTagAdmin: user.is_tag_admin === 1,
      isDocAdmin: user.is_doc_admin === 1,
      isLdapUser: user.is_ldap_user === 1,
      allowBackendLogin: user.allow_backend_login === 1,
      allowRepositoryLogin: user.allow_repository_login === 1,
      isFlowAdmin: user.is_flow_admin === 1,
      isAdmin: isSystemAdmin(user),
      isDeptAdmin: !!(await this.db.selectFrom('department_admins').select('dept_id').where('user_id', '=', user.id).limit(1).executeTakeFirst()),
      isAuditAdmin: user.is_audit_admin === 1,
    };
  }
}

/** Only system administrators may call /api/Admin. */
export function isSystemAdmin(user: UserRow): boolean {
  return user.is_admin === 1 && user.disabled === 0;
}

/** The user, when a system administrator; else 403/40301. */
export function assertSystemAdmin(user: UserRow): UserRow {
  if (!isSystemAdmin(user)) throw forbidden('只有系统管理员可以执行此操作');
  return user;
}
