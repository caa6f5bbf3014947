// Reads and writes that only administrators make.
import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { likePattern } from '../search/names';
import { searchKey } from '../users/repository';

/** Every user (disabled ones included) whose user name or nickname contains `keyword`, by user name: one page and the total. */
export async function listUsers(
  db: Kysely<Database>,
  keyword: string,
  page: { offset: number; limit: number },
): Promise<{ rows: UserRow[]; total: number }> {
  let q = db.selectFrom('users');
  const key = searchKey(keyword);
  if (key) {
    const pattern = likePattern(key);
    q = q.where((eb) =>
      eb.or([sql<boolean>`${eb.ref('users.user_name_key')} like ${pattern} escape '\\'`, sql<boolean>`${eb.ref('users.nick_name_key')} like ${pattern} escape '\\'`]),
    );
  }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await q.selectAll().orderBy('users.user_name_key').orderBy('users.id').offset(page.offset).limit(page.limit).execute();
  return { rows, total: Number(count?.n ?? 0) };
}
