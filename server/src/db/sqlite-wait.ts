// SQLite's lock waits, without stopping the server. better-sqlite3 runs a statement on the
// server's one thread; with SQLite's own busy_timeout, a statement that finds the database
// locked by another connection (the search index rebuild, a backup, a second server built in the
// same process) sleeps on that thread until the lock is free or the time is up, and nothing else
// runs meanwhile: no request, no timer, and not the very transaction that holds the lock when
// it belongs to this process (it is waiting for a file to be written, say). Here the connection
// is told not to wait (busy_timeout 0) and a statement refused with SQLITE_BUSY is tried again
// after a pause of the event loop (1 ms, doubling to 50 ms) until SQLITE_WAIT_MS have passed.
// Only plain SQLITE_BUSY is tried again: a statement refused so had no effect; SQLITE_BUSY_SNAPSHOT
// (a transaction whose reads are stale) cannot succeed by waiting and fails at once, as before.
import {
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/** How long a statement waits for another connection's lock before it fails (SQLite's busy_timeout was 5 s). */
export const SQLITE_WAIT_MS = 5000;

const isBusy = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class WaitingConnection implements DatabaseConnection {
  constructor(
    private readonly inner: DatabaseConnection,
    private readonly waitMs: number,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.waitMs;
    for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (err) {
        if (!isBusy(err) || Date.now() >= deadline) throw err;
        await pause(delay);
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class WaitingDriver implements Driver {
  private connection: WaitingConnection | null = null;

  constructor(
    private readonly inner: Driver,
    private readonly waitMs: number,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    // SQLite's driver has one connection; the same wrapper is handed out each time
    this.connection ??= new WaitingConnection(await this.inner.acquireConnection(), this.waitMs);
    return this.connection;
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint!(connection, name, compile);
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.rollbackToSavepoint!(connection, name, compile);
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.releaseSavepoint!(connection, name, compile);
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * Kysely's SQLite dialect whose statements wait for other connections' locks on the event loop
 * (the connection's busy_timeout must be 0: see the top of this file).
 */
export class WaitingSqliteDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly waitMs = SQLITE_WAIT_MS,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new WaitingDriver(super.createDriver(), this.waitMs);
  }
}
