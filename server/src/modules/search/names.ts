// Name search of 云文档: a case-insensitive substring of items.name_key, one Chinese character
// included, answered from an index on both databases (docs/integration.md, "Search").
// SQLite: 3+ characters through the FTS5 trigram table (LIKE on it uses the index), 1–2
// through the FTS5 table of name_grams tokens. PostgreSQL: LIKE served by pg_trgm's GIN
// index, 1–2 characters through the tsvector index over name_grams.
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/connection';
import { itemNameKey } from '../folders/repository';
import { gramToken } from './grams';

export function likePattern(keywordKey: string): string {
  return `%${keywordKey.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A GLOB pattern for a substring of a lower-case key. FTS5's trigram index serves GLOB and a
 * plain LIKE, but not LIKE … ESCAPE (that scans the whole table); GLOB's own wildcards are
 * quoted in brackets, and the key is already lower case, so GLOB's case-sensitivity is right.
 */
export function globPattern(keywordKey: string): string {
  return `*${keywordKey.replace(/[*?[]/g, (c) => `[${c}]`)}*`;
}

/**
 * Narrows a query of `items` to the names containing the keyword.
 * - SQLite, `walk` false: joined with the index's matches, so that the index drives the query
 *   (counting stops after the limit without reading every match first);
 * - SQLite, `walk` true: a plain check of each row, for a query another index drives:
 *   items_updated newest first (keywords with more matches than are counted: sorting them all
 *   would cost more than reading the newest items until a page is full), or the range of a
 *   narrow filter (items_updated, items_id_path: both hold name_key, so that the check is made
 *   in the index before the item is read);
 * - PostgreSQL: LIKE (pg_trgm) or the 1–2-character token index, the planner chooses.
 */
export function matchName<Q extends SelectQueryBuilder<any, any, any>>(dialect: DialectName, keyword: string, q: Q, walk = false, extensions: readonly string[] = []): Q {
  const key = itemNameKey(keyword);
  const token = gramToken(key);
  const like = sql<SqlBool>`items.name_key like ${likePattern(key)} escape '\\'`;
  if (dialect === 'postgres') {
    return q.where(token ? sql<SqlBool>`to_tsvector('simple', name_grams(items.name_key)) @@ to_tsquery('simple', ${token})` : like) as Q;
  }
  if (walk) return q.where(like) as Q;
  const joined = q.innerJoin(sql<{ rowid: number }>`(${nameCandidates(keyword, extensions)})`.as('f'), (join) =>
    join.onRef('f.rowid' as never, '=', 'items.id' as never),
  ) as unknown as Q;
  // a token is the exact substring; a trigram match is checked against the name itself
  return (token ? joined : joined.where(like)) as Q;
}

/** Extensions the name indexes can narrow to: a name of that extension ends in `.ext`, in its key too. */
const NARROWABLE = /^[a-z0-9]{1,20}$/;
/** The trigram table reads the keyword once per extension (a UNION): longer lists are not narrowed. */
const TRIGRAM_NARROW_MAX = 4;

/** The gram tokens every name key ending in `.ext` holds: the dot and the first character, and the last pair. */
function extensionTokens(ext: string): string {
  const first = `"${gramToken(`.${ext[0]}`)}"`;
  return ext.length < 2 ? first : `(${first} AND "${gramToken(ext.slice(-2))}")`;
}

/**
 * SQLite: the ids the name indexes give for the keyword (`select rowid …`): exactly the names
 * containing a 1–2-character keyword; for a longer one, the names holding its trigrams, which
 * the trigram index checks against the pattern. With an extension filter (`extensions`, the
 * list the query's items.extension must be in), the index itself keeps only the names ending in
 * one of them (for the 1–2-character tokens: names holding that ending's tokens), so that a
 * common keyword with a rare extension reads a fraction of the items. The extension condition
 * stays on the query: this only leaves out names it would refuse.
 */
function nameCandidates(keyword: string, extensions: readonly string[] = []): RawBuilder<{ rowid: number }> {
  const key = itemNameKey(keyword);
  const token = gramToken(key);
  // every extension narrowable, or no narrowing (a name of another would be left out)
  const exts = extensions.length && extensions.every((e) => NARROWABLE.test(e)) ? extensions : [];
  if (token) {
    const ending = exts.length ? ` AND (${exts.map(extensionTokens).join(' OR ')})` : '';
    return sql<{ rowid: number }>`select rowid from items_name_grams where items_name_grams match ${`"${token}"${ending}`}`;
  }
  const pattern = globPattern(key);
  // `*.e` of one character holds no trigram: the index could not serve it
  if (!exts.length || exts.length > TRIGRAM_NARROW_MAX || exts.some((e) => e.length < 2)) return sql<{ rowid: number }>`select rowid from items_name_trigram where name_key glob ${pattern}`;
  return sql.join(
    exts.map((e) => sql<{ rowid: number }>`select rowid from items_name_trigram where name_key glob ${pattern} and name_key glob ${`*.${e}`}`),
    sql` union `,
  ) as RawBuilder<{ rowid: number }>;
}

/** Whether the keyword is found by one token of the gram index (1–2 characters), not by trigrams. */
export function isTokenKeyword(keyword: string): boolean {
  return gramToken(itemNameKey(keyword)) !== null;
}

/**
 * SQLite: at least as many as the names the indexes give for the keyword (`select … as n`),
 * read from the counts the indexes keep of their terms (fts5vocab tables, migration 0056)
 * instead of from the matches: exactly the names holding a 1–2-character keyword's token; for a
 * longer one, the names holding its rarest trigram (0 when one of them is in no name).
 */
export function nameCountAtMost(keyword: string): RawBuilder<{ n: number }> {
  const key = itemNameKey(keyword);
  const token = gramToken(key);
  if (token) return sql<{ n: number }>`select coalesce(max(doc), 0) as n from items_name_grams_terms where term = ${token}`;
  const points = [...key];
  const trigrams = [...new Set(points.slice(0, -2).map((_, i) => points.slice(i, i + 3).join('')))];
  return sql<{ n: number }>`select case when count(*) < ${trigrams.length} then 0 else min(doc) end as n from items_name_trigram_terms where term in (${sql.join(trigrams)})`;
}
