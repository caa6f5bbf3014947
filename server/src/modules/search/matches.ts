// Full-text matching of 云文档: which extracted texts contain a keyword, and the snippet around
// the first hit (docs/integration.md, "Search"). SQLite: 3+ characters through the FTS5 trigram
// index of item_texts, 1–2 characters (any script) through its content_grams index.
// PostgreSQL: LIKE, served by pg_trgm's GIN index for 3+ characters.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/connection';
import { gramToken } from './grams';
import { likePattern } from './names';

/** SQL: the text `t` (item_texts) contains the keyword (any case). */
export function textMatches(dialect: DialectName, keyword: string) {
  const key = keyword.toLowerCase();
  const pattern = likePattern(key);
  const short = [...key].length < 3;
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    if (dialect === 'postgres') return sql<SqlBool>`t.text ilike ${pattern} escape '\\'`;
    if (short) return eb('t.item_id', 'in', sql`(select rowid from item_texts_grams where item_texts_grams match ${`"${gramToken(key)}"`})`);
    // FTS5 uses its trigram index for a plain LIKE only (with ESCAPE it scans); a keyword with
    // LIKE's own wildcards in it is rare, and then scans
    if (!/[\\%_]/.test(key)) return eb('t.item_id', 'in', sql`(select rowid from item_texts_trigram where text like ${`%${key}%`})`);
    return sql<SqlBool>`t.text like ${pattern} escape '\\'`;
  };
}

/** Characters of a snippet before the hit, and in all. */
export const SNIPPET_BEFORE = 30;
export const SNIPPET_LENGTH = 120;

/** SQL: where the first hit starts (1-based; 0 when case folding differs from the index's). */
export function hitPosition(dialect: DialectName, keyword: string) {
  const key = keyword.toLowerCase();
  return dialect === 'postgres' ? sql<number>`strpos(lower(t.text), ${key})` : sql<number>`instr(lower(t.text), ${key})`;
}

/** SQL: the stretch of text around the first hit. */
export function snippetOf(dialect: DialectName, keyword: string) {
  const pos = hitPosition(dialect, keyword);
  return dialect === 'postgres'
    ? sql<string>`substr(t.text, greatest(1, ${pos} - ${SNIPPET_BEFORE}), ${SNIPPET_LENGTH})`
    : sql<string>`substr(t.text, max(1, ${pos} - ${SNIPPET_BEFORE}), ${SNIPPET_LENGTH})`;
}

/** The snippet as shown: one line, with an ellipsis where the text goes on. */
export function tidySnippet(raw: string, position: number, textLength: number): string {
  const start = Math.max(1, position - SNIPPET_BEFORE);
  const line = raw.replace(/\s+/g, ' ').trim();
  return `${start > 1 ? '…' : ''}${line}${start - 1 + SNIPPET_LENGTH < textLength ? '…' : ''}`;
}
