// 云文档 search (api-contract.md, "Search"): by name, and by the text inside documents. Only
// what the caller may read, never the recycle bin, newest first unless sortField says
// otherwise; matches are counted up to SEARCH_TOTAL_LIMIT (beyond it `limited` is true).
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DialectName } from '../../db/connection';
import type { Database, UserRow } from '../../db/types';
import type { FoldersService } from '../folders/service';
import type { TagsService } from '../tags/service';
import { cleanKeyword, searchFilters } from './filters';
import { itemsInOrder } from './items';
import { hitPosition, snippetOf, textMatches, tidySnippet } from './matches';
import { nameMatches } from './names';
import type { SearchQuery, SearchResult } from './schemas';
import { inScope, readableScope } from './scope';

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
    return this.run(user, query, (q) => q.where(nameMatches(this.dialect, keyword)), null);
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
    match: (q: SelectQueryBuilder<any, any, any>) => SelectQueryBuilder<any, any, any>,
    /** content search: the keyword whose snippet each result carries */
    snippetFor: string | null,
  ): Promise<SearchResult> {
    const filters = await searchFilters(user, query, this.folders, this.tags, this.tzName);
    const { policy } = await this.folders.context(user);
    const rights = await this.folders.rights.load(user, policy, []);
    const scope = await readableScope(this.db, rights);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const base = match(this.db.selectFrom('items') as SelectQueryBuilder<any, any, any>)
      .where('items.deleted_at', 'is', null)
      .where('items.parent_id', 'is not', null)
      .where(inScope(scope))
      .where(filters);
    const offset = (page - 1) * pageSize;
    const dir = query.sortOrder ?? (query.sortField === 'name' ? 'asc' : 'desc');
    let ordered = base.select('items.id');
    if (snippetFor !== null) {
      ordered = ordered.select([
        snippetOf(this.dialect, snippetFor).as('snippet'),
        hitPosition(this.dialect, snippetFor).as('hit'),
        sql<number>`length(t.text)`.as('text_length'),
      ]);
    }
    if (query.sortField === 'name') ordered = ordered.orderBy('items.name_key', dir);
    else if (query.sortField === 'size') ordered = ordered.orderBy('items.size', dir);
    else ordered = ordered.orderBy('items.updated_at', dir);
    const [counted, rows] = await Promise.all([
      this.db
        .selectFrom(base.select('items.id').limit(SEARCH_TOTAL_LIMIT + 1).as('m'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      offset >= SEARCH_TOTAL_LIMIT
        ? Promise.resolve([])
        : ordered.orderBy('items.id', dir).limit(Math.min(pageSize, SEARCH_TOTAL_LIMIT - offset)).offset(offset).execute(),
    ]);
    const n = Number(counted.n);
    const items = await itemsInOrder(this.db, this.folders, user, rights, rows.map((r: { id: number }) => Number(r.id)));
    const snippets = new Map<number, string>(
      snippetFor === null
        ? []
        : rows.map((r: { id: number; snippet: string; hit: number; text_length: number }) => [
            Number(r.id),
            tidySnippet(String(r.snippet ?? ''), Number(r.hit), Number(r.text_length)),
          ]),
    );
    return {
      data: items.map(({ item }) => (snippetFor === null ? item : { ...item, highlight: snippets.get(Number(item.id)) ?? '' })),
      total: Math.min(n, SEARCH_TOTAL_LIMIT),
      limited: n > SEARCH_TOTAL_LIMIT,
    };
  }
}
