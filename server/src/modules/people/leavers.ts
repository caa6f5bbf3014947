// 离职交接: hands a leaver's work to a successor in one audited step. The account is disabled
// first (sessions and client tokens end, so the leaver changes nothing meanwhile); then one
// transaction claims the account (users.left_at), moves the personal space into a folder of the
// successor's, hands over approval tasks, the flows the leaver started, their shares and their
// unfinished ferry tasks, passes on the posts (部门负责人, 部门管理员: the successor takes each one
// over, the leaver keeps none), and records it all in admin_actions. Nothing is deleted: the account
// stays, disabled and marked as left, so every record still names the person.
import { sql, type Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { formatBytes } from '../../lib/bytes';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import type { AuthService } from '../auth/service';
import type { FerryService } from '../ferry/service';
import { addChildCount, belowPath, findRoot, insertFolder, itemNameKey, liveNameTaken, rewriteSubtree, touchItem } from '../folders/repository';
import { SPACE_PERSONAL } from '../folders/rights';
import { NAME_MAX_LENGTH, validItemName, type FoldersService } from '../folders/service';
import { DepartmentPaths } from '../organizations/paths';
import { findDepartment } from '../organizations/repository';
import type { SettingsService } from '../settings/service';
import type { SharesService } from '../shares/service';
import { findUserById } from '../users/repository';
import type { WorkflowService } from '../workflow/service';
import { recordAction } from './repository';
import { covers, OUTSIDE, type Scope } from './scope';
import type { PeopleService } from './service';

/** The services a handover works through (some are made after this one: read when called). */
export interface LeaverDeps {
  people: PeopleService;
  auth: AuthService;
  settings: SettingsService;
  folders: FoldersService;
  workflow: WorkflowService;
  shares: SharesService;
  ferry: FerryService;
  formatTime: TimeFormatter;
}

export type SharesChoice = 'keep' | 'cancel';

export interface HandoverBody {
  successorId: string;
  shares: SharesChoice;
}

/** A department the person holds a post in, named by its full path (`总部/研发中心`). */
export interface DepartmentPost {
  id: string;
  name: string;
}

/** A department a post is held in, with what the scope check needs. */
interface HeldPost {
  id: number;
  /** the ids from the root down (departments.path) */
  path: string;
  /** the full path of names */
  name: string;
}

/** What a person holds (GET …/Handover). */
export interface HandoverPreview {
  userId: string;
  userName: string;
  nickName: string;
  disabled: boolean;
  /** when the handover was done; null before */
  leftAt: number | null;
  /** live files and folders of the personal space, and the bytes of the files */
  files: { count: number; bytes: number };
  /** approval tasks waiting for the person */
  pendingTasks: number;
  /** flows the person started that are still running */
  runningFlows: number;
  /** shares that work now */
  shares: { count: number };
  /** ferry tasks not finished (checking, in approval, approved, being sent) */
  ferryTasks: { count: number };
  /** the departments the person leads (部门负责人) */
  leaderOf: DepartmentPost[];
  /** the departments the person administers (部门管理员) */
  adminOf: DepartmentPost[];
}

/** What a handover did (POST …/Handover). */
export interface HandoverResult {
  userId: string;
  successorId: string;
  leftAt: number;
  /** the folder of the successor's personal space that holds the leaver's files (null: nothing to move) */
  folder: { id: string; name: string } | null;
  files: { count: number; bytes: number };
  pendingTasks: number;
  runningFlows: number;
  shares: { mode: SharesChoice; count: number };
  ferryTasks: { count: number };
  /** the departments the successor now leads in the leaver's place */
  leaderOf: DepartmentPost[];
  /** the departments the successor now administers in the leaver's place */
  adminOf: DepartmentPost[];
}

const displayName = (u: Pick<UserRow, 'nick_name' | 'user_name'>) => u.nick_name || u.user_name;

const byName = (a: HeldPost, b: HeldPost) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id);
const toPost = (p: HeldPost): DepartmentPost => ({ id: String(p.id), name: p.name });
const listed = (posts: HeldPost[]) => posts.map((p) => p.name).join('、');

/** The departments a person leads and those they administer, by full path. */
async function postsOf(db: Kysely<Database>, userId: number): Promise<{ leaderOf: HeldPost[]; adminOf: HeldPost[] }> {
  // one after the other: `db` may be a transaction's single connection
  const led = await db.selectFrom('departments').select(['id', 'path']).where('leader_id', '=', userId).execute();
  const administered = await db
    .selectFrom('department_admins')
    .innerJoin('departments', 'departments.id', 'department_admins.dept_id')
    .select(['departments.id', 'departments.path'])
    .where('department_admins.user_id', '=', userId)
    .execute();
  if (!led.length && !administered.length) return { leaderOf: [], adminOf: [] };
  const paths = await DepartmentPaths.load(db);
  const held = (rows: { id: number; path: string }[]) =>
    rows.map((r) => ({ id: Number(r.id), path: r.path, name: paths.namesOf(Number(r.id)) })).sort(byName);
  return { leaderOf: held(led), adminOf: held(administered) };
}

/**
 * A department administrator may hand over only posts they could give themselves: the leader of
 * a department in their subtrees (as 修改部门 allows); never a department administrator's post
 * (only system administrators appoint those).
 */
function assertPostsInScope(scope: Scope, posts: { leaderOf: HeldPost[]; adminOf: HeldPost[] }): void {
  if (scope.system) return;
  if (posts.adminOf.length) throw forbidden(`离职者担任部门管理员（${listed(posts.adminOf)}），只有系统管理员可以为其办理离职交接`);
  const outside = posts.leaderOf.filter((p) => !covers(scope, p.path));
  if (outside.length) throw forbidden(`离职者担任负责人的部门（${listed(outside)}）不在您管理的范围内，请联系系统管理员办理`);
}

/** Characters a file name may not hold (lib/names.ts), replaced in the folder's name. */
const NOT_IN_NAMES = /[\\/:*?"<>|\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `离职交接-<nickname>-<YYYYMMDD>`, the nickname cut so that a ` (n)` still fits. */
export function handoverFolderName(nickName: string, day: string): string {
  const clean = nickName.normalize('NFC').replace(NOT_IN_NAMES, '_').trim() || '_';
  const room = NAME_MAX_LENGTH - [...`离职交接--${day} (999)`].length;
  return `离职交接-${[...clean].slice(0, room).join('')}-${day}`;
}

export class LeaverHandover {
  constructor(
    readonly db: Kysely<Database>,
    private readonly deps: () => LeaverDeps,
  ) {}

  private async deptPath(deptId: number | null): Promise<string | null> {
    if (deptId === null) return null;
    return (await findDepartment(this.db, Number(deptId)))?.path ?? null;
  }

  /** The leaver, when the caller may manage them: 404 for no one, 403 outside the scope or for a system administrator managed by a department administrator. */
  private async leaverFor(caller: UserRow, userIdText: string): Promise<{ user: UserRow; scope: Scope }> {
    const scope = await this.deps().people.scope(caller);
    const id = parseId(userIdText);
    const user = id === null ? undefined : await findUserById(this.db, id);
    if (!user) throw notFound('用户不存在');
    if (!scope.system) {
      if (!covers(scope, await this.deptPath(user.dept_id))) throw forbidden(OUTSIDE);
      if (user.is_admin === 1) throw forbidden('部门管理员不能管理系统管理员');
    }
    return { user, scope };
  }

  /** Live files and folders below a personal root, and the bytes of the files. */
  private async liveContent(db: Kysely<Database>, root: Pick<ItemRow, 'id_path'> | undefined): Promise<{ count: number; bytes: number }> {
    if (!root) return { count: 0, bytes: 0 };
    const row = await db
      .selectFrom('items')
      .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(case when type = 'file' then size else 0 end), 0)`.as('bytes')])
      .where('id_path', 'like', belowPath(root.id_path))
      .where('deleted_at', 'is', null)
      .where('type', 'in', ['file', 'folder'])
      .executeTakeFirst();
    return { count: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /** GET /api/Admin/Users/{userId}/Handover */
  async preview(caller: UserRow, userIdText: string): Promise<HandoverPreview> {
    const { user } = await this.leaverFor(caller, userIdText);
    const { workflow, shares, ferry } = this.deps();
    const [files, held, shareCount, ferryCount, posts] = await Promise.all([
      findRoot(this.db, SPACE_PERSONAL, user.id).then((root) => this.liveContent(this.db, root)),
      workflow.heldBy(user.id),
      shares.validCount(user.id),
      ferry.openTaskCount(user.id),
      postsOf(this.db, user.id),
    ]);
    return {
      userId: String(user.id),
      userName: user.user_name,
      nickName: user.nick_name,
      disabled: user.disabled === 1,
      leftAt: user.left_at === null ? null : Number(user.left_at),
      files,
      pendingTasks: held.pendingTasks,
      runningFlows: held.runningFlows,
      shares: { count: shareCount },
      ferryTasks: { count: ferryCount },
      leaderOf: posts.leaderOf.map(toPost),
      adminOf: posts.adminOf.map(toPost),
    };
  }

  /** POST /api/Admin/Users/{userId}/Handover */
  async handOver(caller: UserRow, userIdText: string, body: HandoverBody): Promise<HandoverResult> {
    const { user: leaver, scope } = await this.leaverFor(caller, userIdText);
    if (leaver.id === caller.id) throw badRequest('不能为自己办理离职交接');
    if (leaver.left_at !== null) throw conflict('该用户已办理离职交接，不能重复办理');
    const successorId = parseId(body.successorId);
    const successor = successorId === null ? undefined : await findUserById(this.db, successorId);
    if (!successor) throw badRequest('接任者不存在');
    if (successor.id === leaver.id) throw badRequest('接任者不能是离职者本人');
    if (successor.left_at !== null) throw badRequest('接任者已离职，请选择其他人');
    if (successor.disabled) throw badRequest('接任者的账号已停用，请选择其他人');
    if (!scope.system && !covers(scope, await this.deptPath(successor.dept_id))) throw forbidden('接任者不在您管理的部门中');
    // refused before the account is disabled: a refusal changes nothing
    assertPostsInScope(scope, await postsOf(this.db, leaver.id));

    const { auth, settings, workflow, shares, ferry, formatTime } = this.deps();
    const env = await settings.environmentConfig();
    // the leaver can change nothing from here on (sessions, client tokens and grants end); a
    // handover that fails after this leaves the account disabled and may simply be run again
    await auth.setDisabled(leaver.id, true);

    const now = Date.now();
    const folderName = handoverFolderName(displayName(leaver), formatTime(now).slice(0, 10).replace(/-/g, ''));
    const result = await this.db.transaction().execute(async (trx) => {
      // the two accounts' rows, always in id order (two handovers naming each other cannot deadlock)
      const claim = async () => {
        const r = await trx.updateTable('users').set({ left_at: now, disabled: 1, updated_at: now }).where('id', '=', leaver.id).where('left_at', 'is', null).executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw conflict('该用户已办理离职交接，不能重复办理');
      };
      const holdSuccessor = async () => {
        const r = await trx
          .updateTable('users')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', successor.id)
          .where('disabled', '=', 0)
          .where('left_at', 'is', null)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw badRequest('接任者的账号已停用或已离职，请选择其他人');
      };
      if (leaver.id < successor.id) {
        await claim();
        await holdSuccessor();
      } else {
        await holdSuccessor();
        await claim();
      }

      const moved = await this.moveSpace(trx, leaver, successor, folderName, env.personalFolderName, now);
      const flows = await workflow.handOver(trx, {
        from: leaver.id,
        to: successor.id,
        fromName: displayName(leaver),
        toName: displayName(successor),
        actorId: caller.id,
        now,
      });
      const shareCount = await shares.handOver(trx, leaver.id, successor.id, body.shares, now);
      const ferryCount = await ferry.handOver(trx, leaver, successor, caller, now);
      const posts = await this.passPosts(trx, scope, leaver, successor);

      const detail = [
        `接任者：${successor.user_name}（${displayName(successor)}）`,
        moved.folder ? `个人文件 ${moved.count} 个（${formatBytes(moved.bytes)}）移入接任者个人空间的“${moved.folder.name}”` : '个人文件：无',
        `待审批 ${flows.pendingTasks} 项已转交`,
        `进行中的流程 ${flows.runningFlows} 个改由接任者跟进`,
        body.shares === 'keep' ? `分享 ${shareCount} 个转给接任者` : `分享 ${shareCount} 个已取消`,
        `摆渡任务 ${ferryCount} 个转给接任者`,
        posts.leaderOf.length ? `部门负责人：${listed(posts.leaderOf)} 改由接任者担任` : '部门负责人：无',
        posts.adminOf.length ? `部门管理员：${listed(posts.adminOf)} 改由接任者担任` : '部门管理员：无',
        '账号已停用并标记为离职',
      ].join('；');
      await recordAction(
        trx,
        { actorId: caller.id, actorName: caller.user_name, action: '离职交接', targetType: 'user', targetId: String(leaver.id), targetName: leaver.user_name, detail },
        now,
      );
      return {
        userId: String(leaver.id),
        successorId: String(successor.id),
        leftAt: now,
        folder: moved.folder ? { id: String(moved.folder.id), name: moved.folder.name } : null,
        files: { count: moved.count, bytes: moved.bytes },
        pendingTasks: flows.pendingTasks,
        runningFlows: flows.runningFlows,
        shares: { mode: body.shares, count: shareCount },
        ferryTasks: { count: ferryCount },
        leaderOf: posts.leaderOf.map(toPost),
        adminOf: posts.adminOf.map(toPost),
      };
    });
    return result;
  }

  /**
   * The leaver's posts go to the successor: the leader of every department the leaver leads, an
   * administrator of every department the leaver administers (once: a post the successor already
   * holds stays one row); the leaver keeps none. Read again inside the transaction, so what moves
   * is what is there now (and checked again against the scope).
   */
  private async passPosts(
    trx: Kysely<Database>,
    scope: Scope,
    leaver: UserRow,
    successor: UserRow,
  ): Promise<{ leaderOf: HeldPost[]; adminOf: HeldPost[] }> {
    const posts = await postsOf(trx, leaver.id);
    assertPostsInScope(scope, posts);
    if (posts.leaderOf.length) {
      await trx.updateTable('departments').set({ leader_id: successor.id }).where('leader_id', '=', leaver.id).execute();
    }
    if (posts.adminOf.length) {
      await trx
        .insertInto('department_admins')
        .values(posts.adminOf.map((p) => ({ dept_id: p.id, user_id: successor.id })))
        .onConflict((oc) => oc.columns(['dept_id', 'user_id']).doNothing())
        .execute();
      await trx.deleteFrom('department_admins').where('user_id', '=', leaver.id).execute();
    }
    return posts;
  }

  /**
   * Everything below the leaver's personal root (live items and those in the recycle bin) goes
   * into a new folder of the successor's personal root, names and order kept, ownership to the
   * successor. The quota is not checked (an administrative move); the bytes count against the
   * successor from then on. Personal items carry no access policies (none can be set there), so
   * none are left behind; what others reached through the leaver's shares follows the shares.
   */
  private async moveSpace(
    trx: Kysely<Database>,
    leaver: UserRow,
    successor: UserRow,
    baseName: string,
    rootName: string,
    now: number,
  ): Promise<{ folder: ItemRow | null; count: number; bytes: number }> {
    const from = await findRoot(trx, SPACE_PERSONAL, leaver.id);
    const children = from ? await trx.selectFrom('items').selectAll().where('parent_id', '=', from.id).execute() : [];
    if (!from || !children.length) return { folder: null, count: 0, bytes: 0 };
    const { count, bytes } = await this.liveContent(trx, from);

    let to = await findRoot(trx, SPACE_PERSONAL, successor.id);
    if (!to) {
      await this.deps().folders.createPersonalRoot(trx, successor.id, rootName);
      to = await findRoot(trx, SPACE_PERSONAL, successor.id);
      if (!to) throw notFound('接任者的个人空间不存在');
    }
    let name = validItemName(baseName);
    for (let n = 2; await liveNameTaken(trx, to.id, itemNameKey(name)); n++) name = `${baseName} (${n})`;
    const folder = await insertFolder(trx, to, name, successor.id, now);

    await trx.updateTable('items').set({ parent_id: folder.id }).where('parent_id', '=', from.id).execute();
    // every row below the leaver's root, the root itself not (no item has id 0): new paths, new owner
    await rewriteSubtree(trx, { id: 0, id_path: from.id_path, name_path: '' }, { idPath: folder.id_path, namePath: `${folder.name_path}/`, ownerId: successor.id });
    // anything of the space left elsewhere (an item of the recycle bin whose folder was purged)
    await trx.updateTable('items').set({ owner_id: successor.id }).where('space_type', '=', SPACE_PERSONAL).where('owner_id', '=', leaver.id).where('id', '<>', from.id).execute();
    // the live child counts go with the children
    const live = children.filter((c) => c.deleted_at === null);
    for (const order of [0, 1]) {
      const n = live.filter((c) => (Number(c.type_order) === 0) === (order === 0)).length;
      await addChildCount(trx, folder.id, order, n);
      await addChildCount(trx, from.id, order, -n);
    }
    await touchItem(trx, from.id, now);
    return { folder, count, bytes };
  }
}
