// 云文档 search (api-contract.md, "Search").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';
import { ItemSchema } from '../folders/schemas';
import { Paging } from '../../lib/paging';

export const SearchQuerySchema = Type.Object({
  keyword: Type.String({ maxLength: 1000, description: '关键词（1–100 个字符），不区分大小写' }),
  ...Paging(100, 1000),
  spaceType: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 企业空间，2 个人空间' })),
  folderId: Type.Optional(IdString('只搜索该文件夹及其子文件夹')),
  type: Type.Optional(Type.Union([Type.Literal('folder'), Type.Literal('file')])),
  extension: Type.Optional(Type.String({ maxLength: 500, description: '扩展名，不含点；多个用逗号分隔' })),
  sizeMin: Type.Optional(Type.Integer({ minimum: 0, description: '字节' })),
  sizeMax: Type.Optional(Type.Integer({ minimum: 0, description: '字节' })),
  updatedFrom: Type.Optional(Type.String({ description: 'YYYY-MM-DD（含）' })),
  updatedTo: Type.Optional(Type.String({ description: 'YYYY-MM-DD（含）' })),
  ownerId: Type.Optional(IdString('所有者')),
  tagIds: Type.Optional(Type.String({ maxLength: 500, description: '标签 id，多个用逗号分隔：同时带有这些标签' })),
  sortField: Type.Optional(Type.Union([Type.Literal('updatedAt'), Type.Literal('name'), Type.Literal('size')])),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
export type SearchQuery = Static<typeof SearchQuerySchema>;

export const SearchItemSchema = Type.Object(
  { ...ItemSchema.properties, highlight: Type.Optional(Type.String({ description: '全文搜索：命中处前后的一段文字' })) },
  { title: '搜索结果' },
);
export type SearchItem = Static<typeof SearchItemSchema>;

export const SearchResultSchema = Type.Object({
  data: Type.Array(SearchItemSchema),
  total: Type.Integer({ description: '匹配数，最多计到 10000' }),
  limited: Type.Boolean({ description: '匹配数超过 10000 时为 true' }),
});
export type SearchResult = Static<typeof SearchResultSchema>;
