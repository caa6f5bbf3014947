// 云文档 tags: personal tags (seen by their owner alone) and public tags (seen by everyone,
// managed by tag administrators), put on the items a user may read. A personal tag may go on
// any item its owner reads; a public tag changes what others see, so it needs the right to
// edit the item (level 3).
import type { Kysely } from 'kysely';
import type { Database, TagsTable, UserRow } from '../../db/types';
import type { Selectable } from 'kysely';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { LEVEL } from '../folders/rights';
import type { Item } from '../folders/schemas';
import type { FoldersService } from '../folders/service';
import { itemsInOrder } from '../search/items';
import { callerScope, markedInScope, markedPage } from '../search/scope';
import { cleanLabel } from './labels';
import type { Tag, TagBody, TagFilesBody, TagFilesQuery } from './schemas';

type TagRow = Selectable<TagsTable>;
const PUBLIC_OWNER = 0;
const TAG_NOT_FOUND = '标签不存在';
/** Personal tags a user may make (public tags: as many as tag administrators make). */
const PERSONAL_TAGS_MAX = 500;

export class TagsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
  ) {}

  private scopeFor(user: UserRow) {
    return callerScope(this.db, this.folders, user);
  }

  private view(user: UserRow, row: TagRow, count: number): Tag {
    const isPublic = row.is_public === 1;
    return {
      id: String(row.id),
      name: row.name,
      color: row.color,
      isPublic,
      count,
      editable: isPublic ? user.is_tag_admin === 1 : Number(row.owner_id) === user.id,
    };
  }

  /** The tags the caller sees (own or public), else 404; `manage` also requires the right to change it. */
  async visibleTag(user: UserRow, idText: string, manage = false): Promise<TagRow> {
    const id = parseId(idText);
    const row = id === null ? undefined : await this.db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || (row.is_public !== 1 && Number(row.owner_id) !== user.id)) throw notFound(TAG_NOT_FOUND);
    if (manage && row.is_public === 1 && user.is_tag_admin !== 1) throw forbidden('只有标签管理员可以管理公共标签');
    return row;
  }

  /** GET /api/User/Tags: public tags first, then the caller's own, by name; counts of readable items. */
  async list(user: UserRow): Promise<Tag[]> {
    const { scope } = await this.scopeFor(user);
    const rows = await this.db
      .selectFrom('tags')
      .selectAll()
      .where((eb) => eb.or([eb('owner_id', '=', user.id), eb('is_public', '=', 1)]))
      .orderBy('is_public', 'desc')
      .orderBy('name_key')
      .orderBy('id')
      .execute();
    if (!rows.length) return [];
    const tagged = this.db.selectFrom('item_tags as it').where('it.tag_id', 'in', rows.map((r) => r.id));
    const counts = await markedInScope(tagged, scope, 'it')
      .select(['it.tag_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('it.tag_id')
      .execute();
    const countOf = new Map(counts.map((c) => [Number(c.tag_id), Number(c.n)]));
    return rows.map((r) => this.view(user, r, countOf.get(Number(r.id)) ?? 0));
  }

  private async one(user: UserRow, id: number): Promise<Tag> {
    const tag = (await this.list(user)).find((t) => t.id === String(id));
    if (!tag) throw notFound(TAG_NOT_FOUND);
    return tag;
  }

  /** POST /api/User/Tags */
  async create(user: UserRow, body: TagBody): Promise<Tag> {
    const { name, key } = cleanLabel(body.name, '标签名称');
    const isPublic = body.isPublic === true;
    if (isPublic && user.is_tag_admin !== 1) throw forbidden('只有标签管理员可以创建公共标签');
    try {
      const made = await this.db.transaction().execute(async (trx) => {
        if (!isPublic) {
          const { n } = await trx.selectFrom('tags').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', user.id).executeTakeFirstOrThrow();
          if (Number(n) >= PERSONAL_TAGS_MAX) throw badRequest(`个人标签最多 ${PERSONAL_TAGS_MAX} 个`);
        }
        return trx
          .insertInto('tags')
          .values({
            owner_id: isPublic ? PUBLIC_OWNER : user.id,
            is_public: isPublic ? 1 : 0,
            name,
            name_key: key,
            color: body.color.toLowerCase(),
            created_by: user.id,
            created_at: Date.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      });
      return this.one(user, Number(made.id));
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(isPublic ? '已存在同名的公共标签' : '已存在同名的标签');
      throw err;
    }
  }

  /** PUT /api/User/Tags/{id}: name and colour (whether it is public does not change). */
  async update(user: UserRow, idText: string, body: TagBody): Promise<Tag> {
    const row = await this.visibleTag(user, idText, true);
    const { name, key } = cleanLabel(body.name, '标签名称');
    try {
      await this.db.updateTable('tags').set({ name, name_key: key, color: body.color.toLowerCase() }).where('id', '=', row.id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(row.is_public === 1 ? '已存在同名的公共标签' : '已存在同名的标签');
      throw err;
    }
    return this.one(user, Number(row.id));
  }

  /** DELETE /api/User/Tags/{id}: the tag leaves every item. */
  async remove(user: UserRow, idText: string): Promise<{ id: string }> {
    const row = await this.visibleTag(user, idText, true);
    await this.db.deleteFrom('tags').where('id', '=', row.id).execute();
    return { id: String(row.id) };
  }

  /** The tags and items of a tagging call, checked: tags visible, items readable, public tags only on items the caller may edit. */
  private async checked(user: UserRow, body: TagFilesBody) {
    const tags: TagRow[] = [];
    for (const id of new Set(body.tagIds)) tags.push(await this.visibleTag(user, id));
    const { policy } = await this.folders.context(user);
    const { items, rights } = await this.folders.itemsAndRights(user, [...new Set(body.fileIds)], policy);
    if (tags.some((t) => t.is_public === 1) && items.some((i) => !rights.can(i, LEVEL.edit))) {
      throw forbidden('只有可编辑该文件（夹）的用户才能添加或移除公共标签');
    }
    return { tags, items };
  }

  /** POST /api/User/Tags/Files: every tag on every item (those already there stay). */
  async tagFiles(user: UserRow, body: TagFilesBody): Promise<{ added: number }> {
    const { tags, items } = await this.checked(user, body);
    const now = Date.now();
    let added = 0;
    await this.db.transaction().execute(async (trx) => {
      for (const tag of tags) {
        for (const item of items) {
          const r = await trx
            .insertInto('item_tags')
            .values({ tag_id: tag.id, item_id: item.id, created_by: user.id, created_at: now })
            .onConflict((oc) => oc.columns(['tag_id', 'item_id']).doNothing())
            .returning('item_id')
            .executeTakeFirst();
          if (r) added += 1;
        }
      }
    });
    return { added };
  }

  /** DELETE /api/User/Tags/Files */
  async untagFiles(user: UserRow, body: TagFilesBody): Promise<{ removed: number }> {
    const { tags, items } = await this.checked(user, body);
    const removed = await this.db
      .deleteFrom('item_tags')
      .where('tag_id', 'in', tags.map((t) => t.id))
      .where('item_id', 'in', items.map((i) => i.id))
      .executeTakeFirst();
    return { removed: Number(removed.numDeletedRows) };
  }

  /** GET /api/User/Tags/{id}/Files: readable live items with the tag, most recently tagged first. */
  async files(user: UserRow, idText: string, query: TagFilesQuery): Promise<{ data: Item[]; total: number }> {
    const tag = await this.visibleTag(user, idText);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const { rights, scope } = await this.scopeFor(user);
    const { rows, total } = await markedPage(this.db.selectFrom('item_tags as it').where('it.tag_id', '=', tag.id), scope, 'it', ['item_id'], page, pageSize);
    const items = await itemsInOrder(this.db, this.folders, user, rights, rows.map((r) => Number(r.item_id)));
    return { data: items.map((x) => x.item), total };
  }
}
