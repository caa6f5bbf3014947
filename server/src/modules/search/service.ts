// 云文档 search (api-contract.md, "Search"): by name, and by the text inside documents. Only
// what the caller may read, never the recycle bin, newest first unless sortField says
// otherwise; matches are counted up to SEARCH_TOTAL_LIMIT (beyond it `limited` is true).
import { performance } from 'node:perf_hooks';
import { CompiledQuery, sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DialectName } from '../../db/connection';
import type { Database, UserRow } from '../../db/types';
import type { FoldersService } from '../folders/service';
import type { TagsService } from '../tags/service';
import { cleanKeyword, searchFilters, type IndexedRanges } from './filters';
import { itemsInOrder } from './items';
import { hitPosition, snippetOf, textMatches, tidySnippet } from './matches';
import { isTokenKeyword, matchName, NAME_COUNT_CAP, nameCount } from './names';
import { itemNameKey } from '../folders/repository';
import type { SearchQuery, SearchResult } from './schemas';
import { FITTED, PassCosts, type PassFactors, type PassWay } from './pass-costs';
import { RangeSample } from './range-sample';
import { callerScope, inScope } from './scope';

export const SEARCH_TOTAL_LIMIT = 10_000;
/** SQLite: a filter's range of up to this many items may drive a name search (its index is read, names checked in it) */
const DRIVE_LIMIT = 400_000;
/**
 * What a name search's pass costs, in microseconds, fitted to 20 cases timed both ways on the
 * figure's 1,000,000 items (bench figure 6, search-plan.test.ts; the database read through its
 * memory map, the matches counted and sorted in the database): an entry of a filter's range
 * walked (its name checked in the index), a match kept there (its scope checked in the index
 * too: migration 0058), and a candidate of the keyword's index read from the table and checked
 * against the filter (a trigram candidate is also checked against the name).
 */
const COST = { rangeEntry: 0.13, match: 0.3, token: 1.0, trigram: 1.4 };

/** The fitted cost (µs) of walking `entries` of a range that hold `matches`. */
export function rangePassCost(entries: number, matches: number): number {
  return COST.rangeEntry * entries + COST.match * matches;
}

/** The fitted cost (µs) of reading `candidates` of a keyword's index. */
export function keywordPassCost(candidates: number, token: boolean): number {
  return (token ? COST.token : COST.trigram) * candidates;
}

/**
 * SQLite: the widest range of a filter worth walking for a keyword held by about `names` of
 * `items` items: walking it costs its entries until SEARCH_TOTAL_LIMIT matches are read; the
 * keyword's index costs its candidates until as many of them lie in the range. The first grows
 * with the range, the second shrinks: the widest range where walking costs no more.
 */
export function walkLimit(names: number, items: number, token: boolean, factors: PassFactors = FITTED): number {
  const density = Math.min(1, names / items);
  const enough = SEARCH_TOTAL_LIMIT + 1;
  const walk = (r: number) => factors.range * rangePassCost(density ? Math.min(r, enough / density) : r, Math.min(enough, r * density));
  const keyword = (r: number) => factors.keyword * keywordPassCost(Math.min(names, r ? (enough * items) / r : names), token);
  let lo = 0;
  let hi = DRIVE_LIMIT;
  if (walk(hi) <= keyword(hi)) return hi;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (walk(mid) <= keyword(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Told how many matches a name search's pass counted and how long it took (PassCosts). */
type LearnPass = (matches: number, tookMs: number) => void;

export class SearchService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
    private readonly folders: FoldersService,
    private readonly tags: TagsService,
    private readonly tzName: string,
    /** SQLite: what the ways of a name search's pass cost here, learnt from the passes run */
    readonly passCosts = new PassCosts(),
    /** tests: from how many items ranges, keywords and extensions are estimated from a sample */
    o: { sampleFrom?: number } = {},
  ) {
    this.ranges = new RangeSample(db, { sampleFrom: o.sampleFrom });
  }

  /** SQLite: the sizes of filters' ranges, from a sample of the items */
  private readonly ranges: RangeSample;

  /** GET /api/User/Search/Files: names containing the keyword. */
  files(user: UserRow, query: SearchQuery): Promise<SearchResult> {
    const keyword = cleanKeyword(query.keyword);
    return this.run(user, query, null, async (ranges) => {
      if (this.dialect !== 'sqlite') return { match: (q, walk) => matchName(this.dialect, keyword, q, walk, ranges.extensions), index: null };
      // the items there are, about (the highest id: ids are not reused), read once if at all
      let top: Promise<number> | undefined;
      const maxId = () => (top ??= this.itemsAbout());
      const narrowBy = await this.extensionNarrowing(keyword, ranges, maxId);
      return {
        match: (q, walk) => matchName(this.dialect, keyword, q, walk, ranges.extensions, narrowBy),
        ...(await this.nameDriver(keyword, ranges, maxId)),
      };
    });
  }

  /** GET /api/User/Search/Content: documents whose extracted text contains the keyword, with a snippet. */
  content(user: UserRow, query: SearchQuery): Promise<SearchResult> {
    const keyword = cleanKeyword(query.keyword);
    return this.run(user, query, keyword, async () => ({
      match: (q) => q.innerJoin('item_texts as t', 't.item_id', 'items.id').where(textMatches(this.dialect, keyword)),
      index: null,
    }));
  }

  private async run(
    user: UserRow,
    query: SearchQuery,
    /** content search: the keyword whose snippet each result carries */
    snippetFor: string | null,
    /**
     * How the keyword is matched: `match` narrows a query of items (`walk`: another index
     * drives the query, newest first or along `index`); `index` (SQLite): the index of a
     * narrow filter that should drive the query instead of the keyword's own index; `learn`:
     * told how many matches the pass counted and how long it took.
     */
    plan: (ranges: IndexedRanges) => Promise<{
      match: (q: SelectQueryBuilder<any, any, any>, walk: boolean) => SelectQueryBuilder<any, any, any>;
      index: string | null;
      learn?: LearnPass;
    }>,
  ): Promise<SearchResult> {
    const { rights, scope } = await callerScope(this.db, this.folders, user);
    const filters = await searchFilters(this.dialect, user, query, this.folders, rights, this.tags, this.tzName);
    const { match, index, learn } = await plan(filters.ranges);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const base = (walk: boolean) =>
      match(this.db.selectFrom('items') as SelectQueryBuilder<any, any, any>, walk || index !== null)
        .where('items.deleted_at', 'is', null)
        .where('items.parent_id', 'is not', null)
        .where(inScope(scope))
        .where(filters.where);
    const offset = (page - 1) * pageSize;
    const dir = query.sortOrder ?? (query.sortField === 'name' ? 'asc' : 'desc');
    const sortColumn = query.sortField === 'name' ? 'items.name_key' : query.sortField === 'size' ? 'items.size' : 'items.updated_at';
    const take = Math.max(0, Math.min(pageSize, SEARCH_TOTAL_LIMIT - offset));
    // one pass over the matches (the index drives it and stops after the limit) counts them and
    // sorts them by the page's key, in the database: only the page's ids come back (10,000 rows
    // handed to JavaScript cost about as much as finding them)
    const pageOfMatches = (limit: number, from: number) =>
      this.db
        .with(
          (w) => w('m').materialized(),
          () => base(false).select(['items.id', `${sortColumn} as k`]).limit(SEARCH_TOTAL_LIMIT + 1),
        )
        .selectFrom('m')
        .select(['m.id', (eb) => eb.selectFrom('m').select(eb.fn.countAll().as('c')).as('n')])
        .orderBy('m.k', dir)
        .orderBy('m.id', dir)
        .limit(limit)
        .offset(from) as unknown as SelectQueryBuilder<any, any, any>;
    const started = performance.now();
    const rows = take ? await this.indexedBy(pageOfMatches(take, offset), index) : [];
    const tookMs = performance.now() - started;
    // an empty page (past the matches, or past the limit) still says how many there are
    const n = rows.length ? Number(rows[0].n) : Number((await this.indexedBy(pageOfMatches(1, 0), index))[0]?.n ?? 0);
    if (rows.length) learn?.(n, tookMs);
    let ids: number[];
    if (n <= SEARCH_TOTAL_LIMIT || !take) ids = rows.map((m) => Number(m.id));
    else {
      // more matches than are counted: read the items in the order asked until the page is full
      // (name search newest first walks items_updated; sorting every match would cost more)
      const walk = snippetFor === null && sortColumn === 'items.updated_at';
      const paged = base(walk).select('items.id').orderBy(sortColumn, dir).orderBy('items.id', dir).limit(take).offset(offset);
      const found = await this.indexedBy(paged, walk && this.dialect === 'sqlite' ? 'items_updated' : index);
      ids = found.map((r) => Number(r.id));
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
   * SQLite: the index a name search should be driven by, when a filter is a narrow range of
   * one (a folder's subtree, a span of days) and the keyword is common in the name indexes.
   * The keyword's index is joined with every item otherwise, and a common keyword with a narrow
   * filter would read thousands of items to keep a few; along the filter's index, names are
   * checked in the index itself (it holds name_key) and only matches are read. How common the
   * keyword is comes from the sample of the items where it is common there (RangeSample
   * .namesHolding), else from the name indexes (nameCount: the candidates its index would give,
   * read without touching an item: cheap for a rare keyword, 3–9 ms for a common one); the
   * widest range worth walking follows from it and from what the two ways have cost here
   * (walkLimit, PassCosts; a keyword pass is learnt from only when its candidates were counted);
   * how many items a range holds is estimated from the same sample (counted in a small database).
   */
  private async nameDriver(keyword: string, ranges: IndexedRanges, highestId: () => Promise<number>): Promise<{ index: string | null; learn?: LearnPass }> {
    if (!ranges.idPath && !ranges.updated) return { index: null };
    const maxId = await highestId();
    // a common keyword's names estimated from the sample of the items, a rarer one's counted
    const estimated = await this.ranges.namesHolding(itemNameKey(keyword), maxId);
    const names = estimated ?? Number((await nameCount(keyword).execute(this.db)).rows[0]?.n ?? 0);
    const token = isTokenKeyword(keyword);
    const limit = walkLimit(names, maxId, token, this.passCosts.factors());
    if (limit === 0) return { index: null };
    const sizes = await this.ranges.sizes(ranges, maxId, limit);
    let best: { index: string; size: number } | null = null;
    for (const [index, size] of [
      ['items_id_path', sizes.idPath],
      ['items_updated', sizes.updated],
    ] as const) {
      if (size !== undefined && size <= limit && (!best || size < best.size)) best = { index, size };
    }
    // what the pass's work was is known when it ran to the end (no more matches than are
    // counted): the whole range walked, or every candidate of the keyword read (unless the
    // index narrowed them to extensions, or they were counted only up to the cap)
    const learnFrom = (way: PassWay, modelUs: (matches: number) => number): LearnPass => (matches, tookMs) => {
      if (matches <= SEARCH_TOTAL_LIMIT) this.passCosts.observe(way, modelUs(matches), tookMs);
    };
    const walked = best;
    if (walked) return { index: walked.index, learn: learnFrom('range', (matches) => rangePassCost(walked.size, matches)) };
    // an estimate of the names is no measure of a pass's work (nor are candidates counted only up to the cap)
    if (ranges.extensions?.length || names >= NAME_COUNT_CAP || estimated !== null) return { index: null };
    return { index: null, learn: learnFrom('keyword', () => keywordPassCost(names, token)) };
  }

  /** SQLite: how many items there are, about (the highest id: ids are not reused). */
  private async itemsAbout(): Promise<number> {
    const { rows } = await sql<{ n: number | null }>`select max(id) as n from items`.execute(this.db);
    return Math.max(1, Number(rows[0]?.n ?? 1));
  }

  /**
   * SQLite, a 1–2-character keyword with an extension filter: for each extension, the piece of
   * `.ext` its names are narrowed by in the index, where the sample of the names tells a cheaper
   * one than the default (RangeSample.extensionPiece): `pn` for png, where `.p` is also held by
   * every pdf and pptx. It changes what the index reads, never what the search finds.
   */
  private async extensionNarrowing(keyword: string, ranges: IndexedRanges, highestId: () => Promise<number>): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!ranges.extensions?.length || !isTokenKeyword(keyword)) return out;
    const maxId = await highestId();
    for (const ext of ranges.extensions) {
      const piece = await this.ranges.extensionPiece(ext, maxId);
      if (piece !== undefined) out.set(ext, piece);
    }
    return out;
  }

  /**
   * Runs a query of `items` (SQLite) along the index given: the planner would rather use
   * another index for a filter and sort every match. Kysely has no INDEXED BY, so the compiled
   * statement's first FROM of items (the pass's own, in a query of its matches too) is told.
   */
  private async indexedBy(query: SelectQueryBuilder<any, any, any>, index: string | null): Promise<Record<string, any>[]> {
    if (index === null || this.dialect !== 'sqlite') return (await query.execute()) as Record<string, any>[];
    const compiled = query.compile();
    const text = compiled.sql.replace(/ from "items" /, ` from "items" indexed by "${index}" `);
    if (text === compiled.sql) return (await query.execute()) as Record<string, any>[];
    const result = await this.db.executeQuery<Record<string, any>>(CompiledQuery.raw(text, [...compiled.parameters]));
    return result.rows;
  }
}
