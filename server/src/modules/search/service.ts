// 云文档 search (api-contract.md, "Search"): by name, and by the text inside documents. Only
// what the caller may read, never the recycle bin, newest first unless sortField says
// otherwise; matches are counted up to SEARCH_TOTAL_LIMIT (beyond it `limited` is true).
import { CompiledQuery, sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DialectName } from '../../db/connection';
import type { Database, UserRow } from '../../db/types';
import type { FoldersService } from '../folders/service';
import type { TagsService } from '../tags/service';
import { cleanKeyword, searchFilters } from './filters';
import { itemsInOrder } from './items';
import { hitPosition, snippetOf, textMatches, tidySnippet } from './matches';
import { matchName } from './names';
import type { SearchQuery, SearchResult } from './schemas';
import { callerScope, inScope } from './scope';

export const SEARCH_TOTAL_LIMIT = 10_000;

export class SearchService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly folders: FoldersService,
    private readonly tags: TagsService,
    private readonly tzName: string,
  ) {}

  /** GET /api/User/Search/Files: names containing the keyword. */
  files(user: UserRow, query: SearchQuery): Promise<SearchResult> {
    const keyword = cleanKeyword(query.keyword);
    return this.run(user, query, (q, walk) => matchName(this.dialect, keyword, q, walk), null);
  }

  /** GET /api/User/Search/Content: documents whose extracted text contains the keyword, with a snippet. */
  content(user: UserRow, query: SearchQuery): Promise<SearchResult> {
    const keyword = cleanKeyword(query.keyword);
    return this.run(
      user,
      query,
      (q) => q.innerJoin('item_texts as t', 't.item_id', 'items.id').where(textMatches(this.dialect, keyword)),
      keyword,
    );
  }

  private async run(
    user: UserRow,
    query: SearchQuery,
    /** `walk`: many matches, newest first: read the items in that order rather than sort every match */
    match: (q: SelectQueryBuilder<any, any, any>, walk: boolean) => SelectQueryBuilder<any, any, any>,
    /** content search: the keyword whose snippet each result carries */
    snippetFor: string | null,
  ): Promise<SearchResult> {
    const { rights, scope } = await callerScope(this.db, this.folders, user);
    const filters = await searchFilters(user, query, this.folders, rights, this.tags, this.tzName);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const base = (walk: boolean) =>
      match(this.db.selectFrom('items') as SelectQueryBuilder<any, any, any>, walk)
        .where('items.deleted_at', 'is', null)
        .where('items.parent_id', 'is not', null)
        .where(inScope(scope))
        .where(filters);
    const offset = (page - 1) * pageSize;
    const dir = query.sortOrder ?? (query.sortField === 'name' ? 'asc' : 'desc');
    const sortColumn = query.sortField === 'name' ? 'items.name_key' : query.sortField === 'size' ? 'items.size' : 'items.updated_at';
    // one pass over the matches (the index drives it and stops after the limit) counts them and
    // gives their sort keys: up to the limit, the page is cut from these without a second query
    const matches = await base(false)
      .select(['items.id', `${sortColumn} as k`])
      .limit(SEARCH_TOTAL_LIMIT + 1)
      .execute();
    const n = matches.length;
    const take = Math.max(0, Math.min(pageSize, SEARCH_TOTAL_LIMIT - offset));
    let ids: number[];
    if (n <= SEARCH_TOTAL_LIMIT || !take) {
      const sign = dir === 'asc' ? 1 : -1;
      const key = (v: unknown) => (typeof v === 'string' ? v : Number(v));
      matches.sort((a, b) => {
        const ka = key(a.k);
        const kb = key(b.k);
        if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
        return (Number(a.id) - Number(b.id)) * sign;
      });
      ids = matches.slice(offset, offset + take).map((m) => Number(m.id));
    } else {
      // more matches than are counted: read the items in the order asked until the page is full
      // (name search newest first walks items_updated; sorting every match would cost more)
      const walk = snippetFor === null && sortColumn === 'items.updated_at';
      const paged = base(walk).select('items.id').orderBy(sortColumn, dir).orderBy('items.id', dir).limit(take).offset(offset);
      const rows = walk && this.dialect === 'sqlite' ? await this.alongUpdates(paged) : await paged.execute();
      ids = rows.map((r) => Number(r.id));
    }
    const items = await itemsInOrder(this.db, this.folders, user, rights, ids);
    const snippets = new Map<number, string>();
    if (snippetFor !== null && ids.length) {
      const texts = await this.db
        .selectFrom('item_texts as t')
        .select([
          't.item_id',
          snippetOf(this.dialect, snippetFor).as('snippet'),
          hitPosition(this.dialect, snippetFor).as('hit'),
          sql<number>`length(t.text)`.as('text_length'),
        ])
        .where('t.item_id', 'in', ids)
        .execute();
      for (const t of texts) snippets.set(Number(t.item_id), tidySnippet(String(t.snippet ?? ''), Number(t.hit), Number(t.text_length)));
    }
    return {
      data: items.map(({ item }) => (snippetFor === null ? item : { ...item, highlight: snippets.get(Number(item.id)) ?? '' })),
      total: Math.min(n, SEARCH_TOTAL_LIMIT),
      limited: n > SEARCH_TOTAL_LIMIT,
    };
  }

  /**
   * Runs a page query of `items` (SQLite) along the items_updated index: the planner would
   * rather use another index for a filter and sort every match. Kysely has no INDEXED BY, so
   * the compiled statement's outer FROM is told.
   */
  private async alongUpdates(query: SelectQueryBuilder<any, any, any>): Promise<Record<string, any>[]> {
    const compiled = query.compile();
    const text = compiled.sql.replace(/^select (.*?) from "items" /, 'select $1 from "items" indexed by "items_updated" ');
    if (text === compiled.sql) return (await query.execute()) as Record<string, any>[];
    const result = await this.db.executeQuery<Record<string, any>>(CompiledQuery.raw(text, [...compiled.parameters]));
    return result.rows;
  }
}
