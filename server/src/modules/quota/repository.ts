// What a personal space holds, for its usage bar.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { SPACE_PERSONAL } from '../folders/rights';

/** Bytes of a person's personal space: all its files, and those in the recycle bin. */
export async function personalBytes(db: Kysely<Database>, ownerId: number): Promise<{ all: number; recycled: number }> {
  const row = await db
    .selectFrom('items')
    .select([
      sql<number>`coalesce(sum(size), 0)`.as('all'),
      sql<number>`coalesce(sum(case when deleted_at is not null then size else 0 end), 0)`.as('recycled'),
    ])
    .where('space_type', '=', SPACE_PERSONAL)
    .where('owner_id', '=', ownerId)
    .where('type', '=', 'file')
    .executeTakeFirst();
  return { all: Number(row?.all ?? 0), recycled: Number(row?.recycled ?? 0) };
}

/**
 * Bytes of the live files under `roots` (each root and its subtree) that would newly count
 * against `ownerId`'s personal space: all of them for a copy; for a move, those not already in
 * that space.
 */
export async function bytesLandingIn(
  db: Kysely<Database>,
  roots: readonly { id: number; id_path: string }[],
  ownerId: number,
  mode: 'move' | 'copy',
): Promise<number> {
  if (!roots.length) return 0;
  let q = db
    .selectFrom('items')
    .select(sql<number>`coalesce(sum(size), 0)`.as('bytes'))
    .where('type', '=', 'file')
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or(roots.flatMap((r) => [eb('id', '=', r.id), eb('id_path', 'like', `${r.id_path}/%`)])));
  if (mode === 'move') q = q.where((eb) => eb.or([eb('space_type', '<>', SPACE_PERSONAL), eb('owner_id', '<>', ownerId)]));
  const row = await q.executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/** Bytes of files by space, the recycle bin's share, and what deduplication saves. */
export async function storageTotals(db: Kysely<Database>) {
  const spaces = await db
    .selectFrom('items')
    .select([
      'space_type',
      sql<number>`coalesce(sum(size), 0)`.as('all'),
      sql<number>`coalesce(sum(case when deleted_at is not null then size else 0 end), 0)`.as('recycled'),
    ])
    .where('type', '=', 'file')
    .groupBy('space_type')
    .execute();
  const logical = await db.selectFrom('file_versions').select(sql<number>`coalesce(sum(size), 0)`.as('n')).executeTakeFirst();
  const stored = await db.selectFrom('blobs').select(sql<number>`coalesce(sum(size), 0)`.as('n')).executeTakeFirst();
  return {
    personal: Number(spaces.find((r) => Number(r.space_type) === SPACE_PERSONAL)?.all ?? 0),
    public: Number(spaces.find((r) => Number(r.space_type) !== SPACE_PERSONAL)?.all ?? 0),
    recycleBin: spaces.reduce((n, r) => n + Number(r.recycled), 0),
    logical: Number(logical?.n ?? 0),
    stored: Number(stored?.n ?? 0),
  };
}

/** The people whose personal spaces hold the most. */
export async function largestOwners(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom('items')
    .innerJoin('users', 'users.id', 'items.owner_id')
    .select(['users.id', 'users.user_name', 'users.nick_name', sql<number>`sum(items.size)`.as('bytes')])
    .where('items.space_type', '=', SPACE_PERSONAL)
    .where('items.type', '=', 'file')
    .groupBy(['users.id', 'users.user_name', 'users.nick_name'])
    .orderBy(sql`sum(items.size)`, 'desc')
    .limit(limit)
    .execute();
}

/**
 * The first-level folders (just below a space's root) holding the most live bytes. The folder
 * is the third segment of a file's id_path (`<space>/<root>/<folder>/…`).
 */
export async function largestTopFolders(db: Kysely<Database>, dialect: 'sqlite' | 'postgres', limit: number) {
  const top =
    dialect === 'postgres'
      ? sql<string>`split_part(id_path, '/', 3)`
      : sql<string>`substr(substr(substr(id_path, instr(id_path, '/') + 1), instr(substr(id_path, instr(id_path, '/') + 1), '/') + 1), 1,
          instr(substr(substr(id_path, instr(id_path, '/') + 1), instr(substr(id_path, instr(id_path, '/') + 1), '/') + 1), '/') - 1)`;
  const sums = await db
    .selectFrom(
      db
        .selectFrom('items')
        .select([top.as('folder'), 'size'])
        .where('type', '=', 'file')
        .where('deleted_at', 'is', null)
        // files at least two levels below a root: `<space>/<root>/<folder>/<file>`
        .where('id_path', 'like', '%/%/%/%')
        .as('f'),
    )
    .select(['f.folder', sql<number>`sum(f.size)`.as('bytes')])
    .groupBy('f.folder')
    .orderBy(sql`sum(f.size)`, 'desc')
    .limit(limit)
    .execute();
  const ids = sums.map((r) => Number(r.folder)).filter((n) => Number.isSafeInteger(n) && n > 0);
  if (!ids.length) return [];
  const folders = await db
    .selectFrom('items')
    .innerJoin('users', 'users.id', 'items.owner_id')
    .select(['items.id', 'items.name', 'items.space_type', 'users.user_name', 'users.nick_name'])
    .where('items.id', 'in', ids)
    .where('items.deleted_at', 'is', null)
    .execute();
  const byId = new Map(folders.map((f) => [Number(f.id), f]));
  return sums
    .map((r) => ({ row: byId.get(Number(r.folder)), bytes: Number(r.bytes) }))
    .filter((x): x is { row: (typeof folders)[number]; bytes: number } => !!x.row)
    .map(({ row, bytes }) => ({ id: Number(row.id), name: row.name, spaceType: Number(row.space_type), ownerName: row.nick_name || row.user_name, bytes }));
}
