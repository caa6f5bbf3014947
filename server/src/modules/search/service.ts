// 云文档 search (api-contract.md, "Search"): by name, and by the text inside documents. Only
// what the caller may read, never the recycle bin, newest first unless sortField says
// otherwise; matches are counted up to SEARCH_TOTAL_LIMIT (beyond it `limited` is true).
import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/connection';
import type { Database, UserRow } from '../../db/types';
import type { FoldersService } from '../folders/service';
import type { TagsService } from '../tags/service';
import { cleanKeyword, searchFilters } from './filters';
import { itemsInOrder } from './items';
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

  /** GET /api/User/Search/Files */
  async files(user: UserRow, query: SearchQuery): Promise<SearchResult> {
    const keyword = cleanKeyword(query.keyword);
    const filters = await searchFilters(user, query, this.folders, this.tags, this.tzName);
    const { policy } = await this.folders.context(user);
    const rights = await this.folders.rights.load(user, policy, []);
    const scope = await readableScope(this.db, rights);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const base = this.db
      .selectFrom('items')
      .where(nameMatches(this.dialect, keyword))
      .where('items.deleted_at', 'is', null)
      .where('items.parent_id', 'is not', null)
      .where(inScope(scope))
      .where(filters);
    const offset = (page - 1) * pageSize;
    const dir = query.sortOrder ?? (query.sortField === 'name' ? 'asc' : 'desc');
    let ordered = base.select('items.id');
    if (query.sortField === 'name') ordered = ordered.orderBy('items.name_key', dir);
    else if (query.sortField === 'size') ordered = ordered.orderBy('items.size', dir);
    else ordered = ordered.orderBy('items.updated_at', dir);
    const [counted, rows] = await Promise.all([
      this.db
        .selectFrom(base.select('items.id').limit(SEARCH_TOTAL_LIMIT + 1).as('m'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      offset >= SEARCH_TOTAL_LIMIT ? Promise.resolve([]) : ordered.orderBy('items.id', dir).limit(Math.min(pageSize, SEARCH_TOTAL_LIMIT - offset)).offset(offset).execute(),
    ]);
    const n = Number(counted.n);
    const items = await itemsInOrder(this.db, this.folders, user, rights, rows.map((r) => Number(r.id)));
    return { data: items.map((x) => x.item), total: Math.min(n, SEARCH_TOTAL_LIMIT), limited: n > SEARCH_TOTAL_LIMIT };
  }
}
