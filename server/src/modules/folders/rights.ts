// Who may see and change what in 云文档 (docs/integration.md, "Rights: levels and how they are
// found"). Every file call asks this one place; an item the caller may not read answers 404 as
// if it did not exist. Rights are computed at each call from the database, never cached.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import type { FeaturePolicy } from '../settings/schemas';

export const SPACE_ENTERPRISE = 1;
export const SPACE_PERSONAL = 2;

/** Who owns an item made in `parent` by `userId`: a personal space's owner, else its maker. */
export function ownerOfNew(parent: { space_type: number; owner_id: number }, userId: number): number {
  return Number(parent.space_type) === SPACE_PERSONAL ? parent.owner_id : userId;
}

/** Access levels (docs/integration.md, "Rights: levels and how they are found"). */
export const LEVEL = { none: 0, preview: 1, download: 2, edit: 3, manage: 4 } as const;
export type Level = (typeof LEVEL)[keyof typeof LEVEL];

/** Subjects of an access policy entry. */
export const SUBJECT = { user: 1, department: 2, group: 3 } as const;
export type SubjectType = (typeof SUBJECT)[keyof typeof SUBJECT];

/** What the rights of an item depend on. */
export type RightsRow = Pick<ItemRow, 'id' | 'id_path' | 'space_type' | 'owner_id'>;

/** One entry of an item's own policy list. */
export interface PolicyEntry {
  subject_type: number;
  subject_id: number;
  level: number;
}

/** The caller's levels on a set of items, loaded at the time of the call. */
export interface Rights {
  level(row: RightsRow): Level;
  can(row: RightsRow, need: Level): boolean;
  /**
   * Loads what is needed to answer for more rows (rows already covered cost nothing); inside a
   * transaction pass it as `db`.
   */
  ensure(rows: readonly RightsRow[], db?: Kysely<Database>): Promise<void>;
}

/** The permission names listed on an item (Item.permissions) for a level. */
export function permissionsFor(level: Level): string[] {
  const out: string[] = [];
  if (level >= LEVEL.preview) out.push('view');
  if (level >= LEVEL.download) out.push('download', 'copy');
  if (level >= LEVEL.edit) out.push('upload', 'createFolder', 'createFile', 'rename', 'move', 'delete', 'version');
  if (level >= LEVEL.manage) out.push('manage');
  return out;
}

/** The ids on an item's id path (`<space>/<root id>/.../<id>`), from the root down to the item. */
export function pathIds(row: Pick<ItemRow, 'id' | 'id_path'>): number[] {
  const ids = row.id_path
    .split('/')
    .slice(1)
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  if (ids[ids.length - 1] !== row.id) ids.push(row.id);
  return ids;
}

/** Who the caller is for policy entries: the user, their department and its ancestors, their groups. */
export interface Caller {
  userId: number;
  departmentIds: ReadonlySet<number>;
  groupIds: ReadonlySet<number>;
}

export function entryMatches(entry: PolicyEntry, caller: Caller): boolean {
  const id = Number(entry.subject_id);
  switch (Number(entry.subject_type)) {
    case SUBJECT.user:
      return id === caller.userId;
    case SUBJECT.department:
      return caller.departmentIds.has(id);
    case SUBJECT.group:
      return caller.groupIds.has(id);
    default:
      return false;
  }
}

/** SQL: the access_policies row `p` is an entry that matches the caller. */
export function entryForCaller(caller: Caller) {
  return (eb: ExpressionBuilder<any, any>) => {
    const subjects = [eb.and([eb('p.subject_type', '=', SUBJECT.user), eb('p.subject_id', '=', caller.userId)])];
    if (caller.departmentIds.size) {
      subjects.push(eb.and([eb('p.subject_type', '=', SUBJECT.department), eb('p.subject_id', 'in', [...caller.departmentIds])]));
    }
    if (caller.groupIds.size) subjects.push(eb.and([eb('p.subject_type', '=', SUBJECT.group), eb('p.subject_id', 'in', [...caller.groupIds])]));
    return eb.or(subjects);
  };
}

/** The highest level of the entries of a list that match the caller (0 when none does). */
export function listLevel(entries: readonly PolicyEntry[], caller: Caller): Level {
  let best = 0;
  for (const e of entries) if (entryMatches(e, caller) && Number(e.level) > best) best = Number(e.level);
  return Math.min(best, LEVEL.manage) as Level;
}

/**
 * The level on an enterprise item from the policy lists on its path (`lists` holds the own
 * list of every id on the path that has one): the nearest list decides; level 4 from any list
 * on the path still holds; with no list anywhere, 2.
 */
export function levelFromLists(ids: readonly number[], lists: ReadonlyMap<number, readonly PolicyEntry[]>, caller: Caller): Level {
  let decided: Level | null = null;
  for (let i = ids.length - 1; i >= 0; i--) {
    const list = lists.get(ids[i]);
    if (!list) continue;
    const level = listLevel(list, caller);
    if (level === LEVEL.manage) return LEVEL.manage;
    if (decided === null) decided = level;
  }
  return decided ?? LEVEL.download;
}

/** Reads the caller's department ancestry and groups in one query. */
export async function loadCaller(db: Kysely<Database>, userId: number): Promise<Caller> {
  const rows = await db
    .selectFrom('users')
    .innerJoin('departments', 'departments.id', 'users.dept_id')
    .select([sql<string>`'d'`.as('kind'), 'departments.path as value'])
    .where('users.id', '=', userId)
    .unionAll(
      db
        .selectFrom('group_members')
        .select([sql<string>`'g'`.as('kind'), sql<string>`cast(group_members.group_id as text)`.as('value')])
        .where('group_members.user_id', '=', userId),
    )
    .execute();
  const departmentIds = new Set<number>();
  const groupIds = new Set<number>();
  for (const r of rows) {
    if (r.kind === 'd') {
      for (const part of String(r.value).split('/')) if (part) departmentIds.add(Number(part));
    } else {
      groupIds.add(Number(r.value));
    }
  }
  return { userId, departmentIds, groupIds };
}

/** The own policy lists of the given items (items without a list are absent). */
export async function loadLists(db: Kysely<Database>, itemIds: readonly number[]): Promise<Map<number, PolicyEntry[]>> {
  const lists = new Map<number, PolicyEntry[]>();
  const ids = [...new Set(itemIds)];
  // one query for any page of a listing; very long id lists are read in slices
  for (let at = 0; at < ids.length; at += 5000) {
    const rows = await db
      .selectFrom('access_policies')
      .select(['item_id', 'subject_type', 'subject_id', 'level'])
      .where('item_id', 'in', ids.slice(at, at + 5000))
      .execute();
    for (const r of rows) {
      const itemId = Number(r.item_id);
      const list = lists.get(itemId);
      const entry = { subject_type: Number(r.subject_type), subject_id: Number(r.subject_id), level: Number(r.level) };
      if (list) list.push(entry);
      else lists.set(itemId, [entry]);
    }
  }
  return lists;
}

/** Rights of one caller, with the policy lists of every id on the paths loaded so far. */
export class LoadedRights implements Rights {
  /** ids whose own list (or its absence) is known */
  private readonly known = new Set<number>();
  readonly lists = new Map<number, PolicyEntry[]>();
  private callerInfo: Caller | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    readonly user: UserRow,
    readonly policy: FeaturePolicy,
  ) {}

  /** True when an enterprise row's level depends on policy lists. */
  private usesLists(row: Pick<RightsRow, 'space_type'>): boolean {
    return row.space_type === SPACE_ENTERPRISE && !this.user.disabled && this.policy.publicSpace && this.user.is_doc_admin !== 1;
  }

  async ensure(rows: readonly RightsRow[], db: Kysely<Database> = this.db): Promise<void> {
    const missing = new Set<number>();
    for (const row of rows) {
      if (!this.usesLists(row)) continue;
      for (const id of pathIds(row)) if (!this.known.has(id)) missing.add(id);
    }
    if (!missing.size) return;
    const lists = await loadLists(db, [...missing]);
    const caller = this.callerInfo ?? (await loadCaller(db, this.user.id));
    this.callerInfo = caller;
    for (const id of missing) this.known.add(id);
    for (const [id, list] of lists) this.lists.set(id, list);
  }

  /** The caller's departments and groups (after a load that needed them). */
  caller(): Caller {
    if (!this.callerInfo) throw new Error('rights: caller not loaded');
    return this.callerInfo;
  }

  /** Loads the caller's departments and groups if no row has needed them yet. */
  async loadCaller(): Promise<Caller> {
    if (!this.callerInfo) this.callerInfo = await loadCaller(this.db, this.user.id);
    return this.callerInfo;
  }

  level(row: RightsRow): Level {
    if (this.user.disabled) return LEVEL.none;
    if (row.space_type === SPACE_PERSONAL) {
      // a personal space belongs to its owner alone
      return row.owner_id === this.user.id && this.policy.personalSpace ? LEVEL.manage : LEVEL.none;
    }
    if (row.space_type !== SPACE_ENTERPRISE || !this.policy.publicSpace) return LEVEL.none;
    if (this.user.is_doc_admin === 1) return LEVEL.manage;
    const ids = pathIds(row);
    for (const id of ids) {
      // a programming error: the row was not passed to load() or ensure()
      if (!this.known.has(id)) throw new Error(`rights: item ${row.id} was not loaded`);
    }
    return levelFromLists(ids, this.lists, this.caller());
  }

  can(row: RightsRow, need: Level): boolean {
    return this.level(row) >= need;
  }
}

/** True when `row` is `root` or lies below it. */
export function withinItem(root: Pick<ItemRow, 'id' | 'id_path'>, row: Pick<ItemRow, 'id' | 'id_path'>): boolean {
  return row.id === root.id || row.id_path.startsWith(`${root.id_path}/`);
}

/**
 * Rights through a share: on the shared items and below them, the share's level but never
 * more than the share's owner holds now; nothing anywhere else. `user` is the owner.
 */
export class ShareRights extends LoadedRights {
  constructor(
    db: Kysely<Database>,
    owner: UserRow,
    policy: FeaturePolicy,
    readonly roots: readonly Pick<ItemRow, 'id' | 'id_path'>[],
    readonly cap: Level,
  ) {
    super(db, owner, policy);
  }

  /** The shared item `row` lies in (itself or below), if any. */
  rootOf(row: Pick<ItemRow, 'id' | 'id_path'>): Pick<ItemRow, 'id' | 'id_path'> | undefined {
    return this.roots.find((root) => withinItem(root, row));
  }

  override level(row: RightsRow): Level {
    if (!this.rootOf(row)) return LEVEL.none;
    return Math.min(this.cap, super.level(row)) as Level;
  }
}

export class RightsService {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Loads what is needed to answer for `rows` (and anything on their paths): the policies on
   * every id of their paths in one query, and the caller's departments and groups in one.
   * Other rows can be added later with `ensure`.
   */
  async load(user: UserRow, policy: FeaturePolicy, rows: readonly RightsRow[]): Promise<LoadedRights> {
    const rights = new LoadedRights(this.db, user, policy);
    await rights.ensure(rows);
    return rights;
  }

  /** The rights a share gives: `owner` is its creator, `roots` the shared items, `level` its level. */
  async loadForShare(owner: UserRow, policy: FeaturePolicy, roots: readonly RightsRow[], level: Level): Promise<ShareRights> {
    const rights = new ShareRights(this.db, owner, policy, roots, level);
    await rights.ensure(roots);
    return rights;
  }
}
