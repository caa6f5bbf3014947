// Name search of 云文档: a case-insensitive substring of items.name_key, one Chinese character
// included, answered from an index on both databases (docs/integration.md, "Search").
// SQLite: 3+ characters through the FTS5 trigram table (the names holding every trigram of the
// keyword, checked against the name), 1–2 through the FTS5 table of name_grams tokens.
// PostgreSQL: LIKE served by pg_trgm's GIN index, 1–2 characters through the tsvector index
// over name_grams.
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/connection';
import { itemNameKey } from '../folders/repository';
import { gramToken } from './grams';

export function likePattern(keywordKey: string): string {
  return `%${keywordKey.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The distinct trigrams of a key of 3+ characters, as the trigram tokenizer cuts them (by code point). */
function trigramsOf(key: string): string[] {
  const points = [...key];
  return [...new Set(points.slice(0, -2).map((_, i) => points.slice(i, i + 3).join('')))];
}

/**
 * An FTS5 query for the names holding every trigram of `key`: each trigram quoted (a quoted
 * three-character string is one token of the trigram tokenizer), joined by AND. It is answered
 * from the index alone, where a GLOB or LIKE on the trigram table also reads each candidate's
 * name from `items` (the table's content) to check the pattern: the names it gives are a
 * superset of those containing the key, which the query checks against items.name_key anyway.
 */
function trigramQuery(key: string): string {
  return trigramsOf(key)
    .map((g) => `"${g.replace(/"/g, '""')}"`)
    .join(' AND ');
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
export function matchName<Q extends SelectQueryBuilder<any, any, any>>(
  dialect: DialectName,
  keyword: string,
  q: Q,
  walk = false,
  extensions: readonly string[] = [],
  /** SQLite, a 1–2-character keyword: for an extension, the one piece of `.ext` its names are narrowed by (extensionPieces) */
  narrowBy: ReadonlyMap<string, string> = new Map(),
): Q {
  const key = itemNameKey(keyword);
  const token = gramToken(key);
  const like = sql<SqlBool>`items.name_key like ${likePattern(key)} escape '\\'`;
  if (dialect === 'postgres') {
    return q.where(token ? sql<SqlBool>`to_tsvector('simple', name_grams(items.name_key)) @@ to_tsquery('simple', ${token})` : like) as Q;
  }
  if (walk) return q.where(like) as Q;
  const joined = q.innerJoin(sql<{ rowid: number }>`(${nameCandidates(keyword, extensions, narrowBy)})`.as('f'), (join) =>
    join.onRef('f.rowid' as never, '=', 'items.id' as never),
  ) as unknown as Q;
  // a token is the exact substring; a trigram match is checked against the name itself
  return (token ? joined : joined.where(like)) as Q;
}

/** Extensions the name indexes can narrow to: a name of that extension ends in `.ext`, in its key too. */
const NARROWABLE = /^[a-z0-9]{1,20}$/;

/**
 * The pieces of `.ext` that are one token of the gram index each (the dot and the first
 * character, then each pair of the extension's characters): every name key ending in `.ext`
 * holds all of them, and any one narrows a keyword's names to those that may have that extension.
 */
export function extensionPieces(ext: string): string[] {
  const points = [...`.${ext}`];
  return [...new Set(points.slice(0, -1).map((_, i) => points[i] + points[i + 1]))];
}

/**
 * The piece of `.ext` to narrow a keyword's names by, from a sample of the names: the one the
 * fewest of them hold (the shortest list of the index to read), where it is about as rare as the
 * dot and the first character with the last pair together (else those two are rarer, and read);
 * undefined for an extension of one character (one piece: the default) or one the index cannot
 * narrow to. A piece shared with other extensions (`.p` of pdf, png and pptx; `tx` of txt and
 * pptx) is not taken while a rarer one is there (`pn`, `.t`).
 */
export function narrowingPiece(ext: string, sampledNames: readonly string[]): string | undefined {
  if (!NARROWABLE.test(ext) || ext.length < 2) return undefined;
  const pieces = extensionPieces(ext);
  const holding = (test: (name: string) => boolean) => sampledNames.reduce((n, name) => n + (test(name) ? 1 : 0), 0);
  const hits = pieces.map((piece) => holding((name) => name.includes(piece)));
  const rarest = hits.indexOf(Math.min(...hits));
  const [first, last] = [pieces[0], ext.slice(-2)];
  const both = holding((name) => name.includes(first) && name.includes(last));
  return hits[rarest] <= both * 1.25 + 2 ? pieces[rarest] : undefined;
}

/**
 * What narrows the names to those ending in `.ext`: the one piece given (the rarest among the
 * names, where that is known: its list is the shortest to read), else the dot and the first
 * character with the last pair (both together, rarer than either).
 */
function extensionTokens(ext: string, piece: string | undefined): string {
  if (piece !== undefined && extensionPieces(ext).includes(piece)) return `"${gramToken(piece)}"`;
  const first = `"${gramToken(`.${ext[0]}`)}"`;
  return ext.length < 2 ? first : `(${first} AND "${gramToken(ext.slice(-2))}")`;
}

/**
 * SQLite: the ids the name indexes give for the keyword (`select rowid …`): exactly the names
 * containing a 1–2-character keyword; for a longer one, the names holding all of its trigrams,
 * which the query checks against the name. With an extension filter (`extensions`, the list the
 * query's items.extension must be in), the index itself keeps only the names ending in one of
 * them (in fact: holding that ending's tokens or trigrams), so that a common keyword with a rare
 * extension reads a fraction of the items. The extension condition stays on the query: this
 * only leaves out names it would refuse.
 */
function nameCandidates(keyword: string, extensions: readonly string[] = [], narrowBy: ReadonlyMap<string, string> = new Map()): RawBuilder<{ rowid: number }> {
  const key = itemNameKey(keyword);
  const token = gramToken(key);
  // every extension narrowable, or no narrowing (a name of another would be left out)
  const exts = extensions.length && extensions.every((e) => NARROWABLE.test(e)) ? extensions : [];
  if (token) {
    const ending = exts.length ? ` AND (${[...new Set(exts.map((e) => extensionTokens(e, narrowBy.get(e))))].join(' OR ')})` : '';
    return sql<{ rowid: number }>`select rowid from items_name_grams where items_name_grams match ${`"${token}"${ending}`}`;
  }
  // `.e` of one character holds no trigram: the index could not narrow to it
  const ending = exts.length && exts.every((e) => e.length >= 2) ? ` AND (${exts.map((e) => `(${trigramQuery(`.${e}`)})`).join(' OR ')})` : '';
  return sql<{ rowid: number }>`select rowid from items_name_trigram where items_name_trigram match ${`(${trigramQuery(key)})${ending}`}`;
}

/** Whether the keyword is found by one token of the gram index (1–2 characters), not by trigrams. */
export function isTokenKeyword(keyword: string): boolean {
  return gramToken(itemNameKey(keyword)) !== null;
}

/** nameCount counts a longer keyword's candidates up to this many: a keyword this common walks every range it may (walkLimit). */
export const NAME_COUNT_CAP = 50_000;

/**
 * SQLite: how many names the indexes give for the keyword (`select … as n`), never fewer than
 * hold it: for a 1–2-character keyword, exactly the names holding its token, read from the
 * count the token index keeps of its terms (an fts5vocab table, migration 0056) instead of from
 * the matches; for a longer one, the names holding all of its trigrams (the candidates its
 * index gives), counted from the index up to `cap`. The trigram table's own term counts would
 * bound it by the rarest trigram, but a common trigram's count walks its whole list (20 ms for
 * 2024's 150,000 names, against 10 ms to count 50,000 candidates).
 */
export function nameCount(keyword: string, cap = NAME_COUNT_CAP): RawBuilder<{ n: number }> {
  const key = itemNameKey(keyword);
  const token = gramToken(key);
  if (token) return sql<{ n: number }>`select coalesce(max(doc), 0) as n from items_name_grams_terms where term = ${token}`;
  return sql<{ n: number }>`select count(*) as n from (select rowid from items_name_trigram where items_name_trigram match ${trigramQuery(key)} limit ${cap})`;
}
