// Files written straight into `items` below a folder (its search-index triggers fill the name
// indexes): for tests that need hundreds or thousands of items faster than the API makes them.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/types';

interface Folder {
  id: number;
  space_type: number;
  owner_id: number;
  id_path: string;
  name_path: string;
}

export interface DirectFile {
  name: string;
  extension: string;
  createdAt: number;
  updatedAt: number;
}

/** Writes `files` (1 byte each, in this sort order) below `folder`, 500 rows a statement, with their id_path. */
export async function insertFilesBelow(db: Kysely<Database>, folder: Folder, files: readonly DirectFile[]): Promise<void> {
  const rows = files.map((f, i) => ({
    parent_id: folder.id, space_type: folder.space_type, owner_id: folder.owner_id, name: f.name, name_key: f.name.toLowerCase(), type: 'file' as const,
    type_order: 1, extension: f.extension, size: 1, id_path: '', name_path: `${folder.name_path}/${f.name}`, sort_order: i, created_at: f.createdAt, updated_at: f.updatedAt,
  }));
  for (let at = 0; at < rows.length; at += 500) await db.insertInto('items').values(rows.slice(at, at + 500)).execute();
  await db.updateTable('items').set({ id_path: sql<string>`${`${folder.id_path}/`} || cast(id as text)` }).where('parent_id', '=', folder.id).execute();
}
