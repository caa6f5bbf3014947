// Name search of 云文档: a case-insensitive substring of items.name_key, one Chinese character
// included, answered from an index on both databases (docs/integration.md, "Search").
// SQLite: 3+ characters through the FTS5 trigram table (LIKE on it uses the index), 1–2
// through the FTS5 table of name_grams tokens. PostgreSQL: LIKE served by pg_trgm's GIN
// index, 1–2 characters through the tsvector index over name_grams.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/connection';
import { itemNameKey } from '../folders/repository';
import { gramToken } from './grams';

export function likePattern(keywordKey: string): string {
  return `%${keywordKey.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQL: the name of `items` contains the keyword. */
export function nameMatches(dialect: DialectName, keyword: string) {
  const key = itemNameKey(keyword);
  const token = gramToken(key);
  const pattern = likePattern(key);
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    if (dialect === 'postgres') {
      return token
        ? sql<SqlBool>`to_tsvector('simple', name_grams(items.name_key)) @@ to_tsquery('simple', ${token})`
        : sql<SqlBool>`items.name_key like ${pattern} escape '\\'`;
    }
    const candidates = token
      ? sql`(select rowid from items_name_grams where items_name_grams match ${`"${token}"`})`
      : sql`(select rowid from items_name_trigram where name_key like ${pattern} escape '\\')`;
    return token ? eb('items.id', 'in', candidates) : eb.and([eb('items.id', 'in', candidates), sql<SqlBool>`items.name_key like ${pattern} escape '\\'`]);
  };
}
