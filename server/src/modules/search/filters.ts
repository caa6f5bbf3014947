// The filters of 云文档's search calls (api-contract.md, "Search"), checked and turned into
// one SQL condition on `items`.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../../db/connection';
import type { UserRow } from '../../db/types';
import { badRequest } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { parseDateTime } from '../../lib/time';
import { belowPath } from '../folders/repository';
import type { LoadedRights } from '../folders/rights';
import type { FoldersService } from '../folders/service';
import type { TagsService } from '../tags/service';
import type { SearchQuery } from './schemas';

export const KEYWORD_MAX_LENGTH = 100;

/** The trimmed keyword (1–100 characters), else 400. */
export function cleanKeyword(raw: string | undefined): string {
  const keyword = String(raw ?? '').normalize('NFC').trim();
  if (!keyword) throw badRequest('请输入搜索关键词');
  if ([...keyword].length > KEYWORD_MAX_LENGTH) throw badRequest(`搜索关键词不能超过 ${KEYWORD_MAX_LENGTH} 个字符`);
  return keyword;
}

function dayStart(text: string, tzName: string, what: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? parseDateTime(`${text.trim()} 00:00:00`, tzName) : null;
  if (ms === null) throw badRequest(`${what}应为 YYYY-MM-DD 格式的日期`);
  return ms;
}

/** The filters an index can serve (SQLite: a name search may be driven by a range, narrowed by extensions). */
export interface IndexedRanges {
  /** the extensions asked for (the name indexes narrow a keyword's matches to names ending in one) */
  extensions?: string[];
  /** below a folder: from <= id_path < to (items_id_path) */
  idPath?: { from: string; to: string };
  /** from <= updated_at < to (items_updated) */
  updated?: { from: number | null; to: number | null };
}

/** Checks the filters of `query` (a folder and tags must be visible to the caller) and returns their condition. */
export async function searchFilters(
  dialect: DialectName,
  user: UserRow,
  query: SearchQuery,
  folders: FoldersService,
  /** the caller's rights, loaded for the search (the folder is checked with them) */
  rights: LoadedRights,
  tags: TagsService,
  tzName: string,
): Promise<{ where: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>; ranges: IndexedRanges }> {
  const parts: ((eb: ExpressionBuilder<any, any>) => Expression<SqlBool>)[] = [];
  const ranges: IndexedRanges = {};
  if (query.spaceType !== undefined) parts.push((eb) => eb('items.space_type', '=', query.spaceType));
  if (query.folderId !== undefined) {
    const { folder } = await folders.folderAndRights(user, query.folderId, rights.policy, undefined, rights);
    if (dialect === 'sqlite') {
      // the same subtree as LIKE 'path/%' (ids and slashes only), as a range the index serves
      const range = { from: `${folder.id_path}/`, to: `${folder.id_path}0` };
      ranges.idPath = range;
      parts.push((eb) => eb.and([eb('items.id_path', '>=', range.from), eb('items.id_path', '<', range.to)]));
    } else parts.push((eb) => eb('items.id_path', 'like', belowPath(folder.id_path)));
  }
  if (query.type !== undefined) parts.push((eb) => eb('items.type', '=', query.type));
  if (query.extension !== undefined && query.extension.trim()) {
    const list = [...new Set(query.extension.split(/[,，\s]+/).map((e) => e.trim().replace(/^\./, '').toLowerCase()).filter(Boolean))];
    if (list.length > 50) throw badRequest('扩展名最多 50 个');
    if (list.length) {
      ranges.extensions = list;
      parts.push((eb) => eb('items.extension', 'in', list));
    }
  }
  if (query.sizeMin !== undefined && query.sizeMax !== undefined && query.sizeMin > query.sizeMax) throw badRequest('最小大小不能大于最大大小');
  if (query.sizeMin !== undefined) parts.push((eb) => eb('items.size', '>=', query.sizeMin!));
  if (query.sizeMax !== undefined) parts.push((eb) => eb('items.size', '<=', query.sizeMax!));
  const from = query.updatedFrom ? dayStart(query.updatedFrom, tzName, '开始日期') : null;
  // the end day is inclusive: up to the start of the next day
  const to = query.updatedTo ? dayStart(query.updatedTo, tzName, '结束日期') + 24 * 60 * 60 * 1000 : null;
  if (from !== null && to !== null && from >= to) throw badRequest('开始日期不能晚于结束日期');
  if (from !== null || to !== null) ranges.updated = { from, to };
  if (from !== null) parts.push((eb) => eb('items.updated_at', '>=', from));
  if (to !== null) parts.push((eb) => eb('items.updated_at', '<', to));
  if (query.ownerId !== undefined) parts.push((eb) => eb('items.owner_id', '=', Number(query.ownerId)));
  if (query.tagIds !== undefined && query.tagIds.trim()) {
    const ids = [...new Set(query.tagIds.split(/[,，\s]+/).filter(Boolean))];
    if (ids.length > 20) throw badRequest('标签最多 20 个');
    for (const text of ids) {
      if (parseId(text) === null) throw badRequest('标签不存在');
      const tag = await tags.visibleTag(user, text).catch(() => {
        throw badRequest('标签不存在');
      });
      parts.push((eb) =>
        eb.exists(eb.selectFrom('item_tags as ft').select('ft.item_id').whereRef('ft.item_id', '=', 'items.id').where('ft.tag_id', '=', tag.id)),
      );
    }
  }
  return { where: (eb) => (parts.length ? eb.and(parts.map((p) => p(eb))) : sql<SqlBool>`1 = 1`), ranges };
}
