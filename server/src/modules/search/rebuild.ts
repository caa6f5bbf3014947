// Rebuilds 云文档's search indexes from the data they index (the `search:rebuild` command, and
// after restoring a database from a backup made by other means): the name indexes, the text
// indexes of what was extracted, and every file queued to be read again.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../db/connection';
import type { Database } from '../../db/types';
import type { ContentIndex } from './content';

export async function rebuildIndexes(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    // expression and trigram indexes follow their columns; a REINDEX repairs a damaged one
    await sql`reindex table items`.execute(db);
    await sql`reindex table item_texts`.execute(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await sql`insert into items_name_trigram(items_name_trigram) values ('rebuild')`.execute(trx);
    await sql`delete from items_name_grams`.execute(trx);
    await sql`insert into items_name_grams(rowid, grams) select id, name_grams(name_key) from items`.execute(trx);
    await sql`insert into item_texts_trigram(item_texts_trigram) values ('rebuild')`.execute(trx);
    await sql`delete from item_texts_grams`.execute(trx);
    await sql`insert into item_texts_grams(rowid, grams) select item_id, content_grams(text) from item_texts`.execute(trx);
  });
  await sql`insert into items_name_trigram(items_name_trigram) values ('optimize')`.execute(db);
  await sql`insert into item_texts_trigram(item_texts_trigram) values ('optimize')`.execute(db);
}

/** The whole rebuild: indexes, then every file read again; `progress` hears how far it got. */
export async function rebuildSearch(
  db: Kysely<Database>,
  dialect: DialectName,
  index: ContentIndex,
  progress: (line: string) => void = () => undefined,
): Promise<{ files: number }> {
  await rebuildIndexes(db, dialect);
  progress('名称索引已重建');
  const files = await index.requeueAll();
  progress(`已将 ${files} 个文件加入全文提取队列`);
  let handled = 0;
  for (;;) {
    const n = await index.drain();
    handled += n;
    if (!n) break;
    progress(`已处理 ${handled} / ${files}`);
  }
  const stats = await index.stats();
  progress(`全文索引：成功 ${stats.done}，失败 ${stats.failed}，跳过 ${stats.skipped}，待处理 ${stats.queued}`);
  return { files };
}
