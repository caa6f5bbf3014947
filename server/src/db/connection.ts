// Opens the 云文档 database: PostgreSQL (pg.Pool) when DATABASE_URL is set, else SQLite
// (better-sqlite3) at `$DATA_DIR/app.db` with WAL and foreign keys on.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { WaitingSqliteDialect } from './sqlite-wait';
import type { Database as Schema } from './types';
import { contentGrams, nameGrams } from '../modules/search/grams';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Schema>;
  dialect: DialectName;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** bigint and count(*) come back as numbers (ids and epoch milliseconds stay below 2^53). */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** an idle PostgreSQL connection failed (server restart, connection killed); the pool replaces it */
  onIdleError?: (err: Error) => void;
}

/** The page cache of the SQLite connection, in KiB. */
const SQLITE_CACHE_KIB = 64 * 1024;
/** How much of the database file SQLite reads through a memory map (its most: 2 GiB less 64 KiB). */
const SQLITE_MMAP_BYTES = 0x7fff0000;

export function openDatabase(options: OpenOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, types: pgTypes as unknown as pg.CustomTypesConfig });
    // without a listener an idle client's error would take the whole process down
    pool.on('error', (err) => options.onIdleError?.(err));
    return { db: new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new Database(path.join(options.dataDir, 'app.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // a locked database is waited for on the event loop, not on the thread (sqlite-wait.ts)
  sqlite.pragma('busy_timeout = 0');
  sqlite.pragma('synchronous = NORMAL');
  // 64 MiB of page cache rather than SQLite's 2 MiB: lists and searches read items by id all
  // over the table, and a page read from memory costs a fraction of one read from the file
  sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  // pages beyond that cache are read straight from the file's memory map, not copied in by a
  // read() each: a name search's candidates are rows spread over the whole items table
  sqlite.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  registerSqliteFunctions(sqlite);
  cachePreparedStatements(sqlite);
  return { db: new Kysely<Schema>({ dialect: new WaitingSqliteDialect({ database: sqlite }) }), dialect: 'sqlite' };
}

/** Prepared statements kept for reuse: the query shapes the server makes again and again. */
const STATEMENTS_KEPT = 500;

/**
 * Kysely prepares every statement again for each query; a statement holds native memory that
 * V8 does not see, so a burst of writes (an import of 10,000 people) piled up hundreds of MB
 * before a collection. The connection keeps the most recent statements by their SQL and hands
 * the same one out again (queries on the one connection run one after another; nothing here
 * iterates a statement, which would keep it busy).
 */
function cachePreparedStatements(sqlite: Database.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const kept = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    const hit = kept.get(source);
    if (hit) {
      kept.delete(source);
      kept.set(source, hit);
      return hit;
    }
    const stmt = prepare(source);
    kept.set(source, stmt);
    if (kept.size > STATEMENTS_KEPT) kept.delete(kept.keys().next().value as string);
    return stmt;
  }) as typeof sqlite.prepare;
}

/**
 * The SQL functions 云文档's SQLite schema calls (the search indexes' triggers use name_grams and
 * content_grams):
 * every connection that writes items needs them.
 */
export function registerSqliteFunctions(sqlite: Database.Database): void {
  sqlite.function('name_grams', { deterministic: true }, (text: unknown) => nameGrams(String(text ?? '')));
  sqlite.function('content_grams', { deterministic: true }, (text: unknown) => contentGrams(String(text ?? '')));
}
