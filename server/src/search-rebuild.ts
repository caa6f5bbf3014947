// `npm run search:rebuild`: rebuilds 云文档's search indexes and reads every file's text again,
// with the same configuration (environment) as the server. Safe while the server runs: both
// take queued files with a lease in the database.
import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/connection';
import { migrateToLatest } from './db/migrations';
import { ContentIndex } from './modules/search/content';
import { rebuildSearch } from './modules/search/rebuild';
import { createObjectStore } from './modules/storage';
import { BlobStore } from './modules/versions/blobs';

async function main(): Promise<void> {
  const config = loadConfig();
  const { db, dialect } = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(db, dialect);
    const index = new ContentIndex(db, new BlobStore(createObjectStore(config)), (err) => console.error(err));
    const started = Date.now();
    await rebuildSearch(db, dialect, index, (line) => console.log(line));
    console.log(`搜索索引重建完成，用时 ${((Date.now() - started) / 1000).toFixed(1)} 秒`);
  } finally {
    await db.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(`搜索索引重建失败：${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
