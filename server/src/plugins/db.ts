// Opens the 云文档 database, brings its schema up to date and closes it with the app.
import type { Kysely } from 'kysely';
import { openDatabase, type DialectName } from '../db/connection';
import { migrateToLatest } from '../db/migrations';
import type { Database } from '../db/types';
import { globalPlugin } from '../lib/plugin';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dbDialect: DialectName;
  }
}

export const dbPlugin = globalPlugin('yunwendang-db', async (app) => {
  const { db, dialect } = openDatabase({
    databaseUrl: app.config.databaseUrl,
    dataDir: app.config.dataDir,
    onIdleError: (err) => app.log.warn({ err }, '云文档数据库连接中断，将自动重连'),
  });
  try {
    await migrateToLatest(db, dialect);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  app.decorate('db', db);
  app.decorate('dbDialect', dialect);
  app.addHook('onClose', async () => {
    await db.destroy();
  });
});
