// What a caller may read, as one SQL condition on items (docs/integration.md, "Favourites,
// tags and search"): lists that span folders (search results, favourites, a tag's items) are
// filtered and paged by the database instead of item by item. It gives the same answers as
// RightsService: the caller's own personal space; in the enterprise space everything unless
// the nearest policy list on an item's path gives the caller nothing (level 0).
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types';
import type { UserRow } from '../../db/types';
import { LEVEL, SPACE_ENTERPRISE, SPACE_PERSONAL, type LoadedRights } from '../folders/rights';
import type { FoldersService } from '../folders/service';

interface PathRow {
  id: number;
  id_path: string;
}

/** The caller's readable items: their personal space, and the enterprise space but for hidden subtrees. */
export interface ReadScope {
  personalOwnerId: number | null;
  /** false: no enterprise item; true: every one; else every one but the hidden subtrees */
  enterprise: boolean | { hidden: { root: PathRow; shown: PathRow[] }[] };
}

/** Terms of an OR are grouped by this many, so that SQLite's expression depth stays small. */
const OR_GROUP = 100;

export async function readableScope(db: Kysely<Database>, rights: LoadedRights): Promise<ReadScope> {
  const user = rights.user;
  const personal = rights.can({ id: 0, id_path: '', space_type: SPACE_PERSONAL, owner_id: user.id }, LEVEL.preview);
  const scope: ReadScope = { personalOwnerId: personal ? user.id : null, enterprise: false };
  if (user.disabled || !rights.policy.publicSpace) return scope;
  if (user.is_doc_admin === 1) return { ...scope, enterprise: true };
  // every live enterprise item with its own policy list, and the caller's level there
  // driven by the (small) policy table: joined the other way round, SQLite would walk every item
  const listed = await db
    .selectFrom('items as i')
    .select(['i.id', 'i.id_path', 'i.space_type', 'i.owner_id'])
    .where('i.id', 'in', db.selectFrom('access_policies').select('item_id'))
    .where('i.space_type', '=', SPACE_ENTERPRISE)
    .where('i.deleted_at', 'is', null)
    .execute();
  const rows = listed.map((r) => ({ ...r, id: Number(r.id), owner_id: Number(r.owner_id), space_type: Number(r.space_type) }));
  await rights.ensure(rows);
  const zero = rows.filter((r) => rights.level(r) === LEVEL.none);
  if (!zero.length) return { ...scope, enterprise: true };
  const shown = rows.filter((r) => rights.level(r) > LEVEL.none);
  // a hidden subtree (an item whose nearest list gives nothing) minus the subtrees below it
  // where a nearer list gives something again (deeper hidden ones have their own entry)
  const hidden = zero.map((root) => ({
    root: { id: root.id, id_path: root.id_path },
    shown: shown.filter((n) => n.id_path.startsWith(`${root.id_path}/`)).map((n) => ({ id: n.id, id_path: n.id_path })),
  }));
  return { ...scope, enterprise: { hidden } };
}

/** The caller's rights and readable scope, for a list that spans folders. */
export async function callerScope(db: Kysely<Database>, folders: FoldersService, user: UserRow): Promise<{ rights: LoadedRights; scope: ReadScope }> {
  const { policy } = await folders.context(user);
  const rights = await folders.rights.load(user, policy, []);
  return { rights, scope: await readableScope(db, rights) };
}

function anyOf(eb: ExpressionBuilder<any, any>, terms: Expression<SqlBool>[]): Expression<SqlBool> {
  if (terms.length <= OR_GROUP) return eb.or(terms);
  const groups: Expression<SqlBool>[] = [];
  for (let at = 0; at < terms.length; at += OR_GROUP) groups.push(eb.or(terms.slice(at, at + OR_GROUP)));
  return anyOf(eb, groups);
}

/** SQL: the item `alias` is `row` or lies below it. */
function under(eb: ExpressionBuilder<any, any>, alias: string, row: PathRow): Expression<SqlBool> {
  return eb.or([eb(sql.ref(`${alias}.id`), '=', row.id), eb(sql.ref(`${alias}.id_path`), 'like', `${row.id_path}/%`)]);
}

/** SQL: the caller may read the (live) item `alias`. */
export function inScope(scope: ReadScope, alias = 'items') {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    const spaces: Expression<SqlBool>[] = [];
    if (scope.personalOwnerId !== null) {
      spaces.push(eb.and([eb(sql.ref(`${alias}.space_type`), '=', SPACE_PERSONAL), eb(sql.ref(`${alias}.owner_id`), '=', scope.personalOwnerId)]));
    }
    if (scope.enterprise) {
      const enterprise = eb(sql.ref(`${alias}.space_type`), '=', SPACE_ENTERPRISE);
      if (scope.enterprise === true) spaces.push(enterprise);
      else {
        const hidden = scope.enterprise.hidden.map(({ root, shown }) =>
          shown.length
            ? eb.and([under(eb, alias, root), eb.not(anyOf(eb, shown.map((n) => under(eb, alias, n))))])
            : under(eb, alias, root),
        );
        spaces.push(eb.and([enterprise, eb.not(anyOf(eb, hidden))]));
      }
    }
    return spaces.length ? eb.or(spaces) : sql<SqlBool>`1 = 0`;
  };
}

/**
 * SQL on a favourites or item_tags row `alias`: its item is live and in a space the caller
 * reads, from the copies of the item's state that triggers keep on the row (migration 0014).
 * Hidden subtrees are not in those copies: see markedPage.
 */
export function inMarkScope(scope: ReadScope, alias: string) {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    const spaces: Expression<SqlBool>[] = [];
    if (scope.personalOwnerId !== null) {
      spaces.push(eb.and([eb(sql.ref(`${alias}.item_space_type`), '=', SPACE_PERSONAL), eb(sql.ref(`${alias}.item_owner_id`), '=', scope.personalOwnerId)]));
    }
    if (scope.enterprise) spaces.push(eb(sql.ref(`${alias}.item_space_type`), '=', SPACE_ENTERPRISE));
    return eb.and([eb(sql.ref(`${alias}.item_deleted`), '=', 0), spaces.length ? eb.or(spaces) : sql<SqlBool>`1 = 0`]);
  };
}

/**
 * Narrows a query of favourites or item_tags rows (`alias`) to the caller's readable live
 * items: from the rows alone, unless policies hide subtrees from the caller (then each item's
 * path is checked too).
 */
export function markedInScope<Q extends SelectQueryBuilder<any, any, any>>(q: Q, scope: ReadScope, alias: string): Q {
  const narrowed = q.where(inMarkScope(scope, alias)) as Q;
  if (typeof scope.enterprise !== 'object') return narrowed;
  return narrowed.innerJoin('items', 'items.id', `${alias}.item_id`).where(inScope(scope)) as unknown as Q;
}

/**
 * A page of a list of favourites or tag rows (`alias`, newest first), counted and paged from
 * the partial index of live rows; past the middle the rows are read from the oldest end, so
 * that the last page costs what the first does.
 */
export async function markedPage(
  q: SelectQueryBuilder<any, any, any>,
  scope: ReadScope,
  alias: string,
  columns: string[],
  page: number,
  pageSize: number,
): Promise<{ rows: Record<string, any>[]; total: number }> {
  const rows = markedInScope(q, scope, alias);
  const { n } = await rows.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(n);
  const offset = (page - 1) * pageSize;
  const take = Math.min(pageSize, total - offset);
  if (take <= 0) return { rows: [], total };
  const fromEnd = offset > total / 2;
  const dir = fromEnd ? 'asc' : 'desc';
  const found = await rows
    .select(columns.map((c) => `${alias}.${c}`))
    .orderBy(`${alias}.created_at`, dir)
    .orderBy(`${alias}.item_id`, dir)
    .limit(take)
    .offset(fromEnd ? total - offset - take : offset)
    .execute();
  return { rows: fromEnd ? found.reverse() : found, total };
}
