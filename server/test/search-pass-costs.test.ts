// SQLite name search learns what its two ways cost on the machine it runs on (pass-costs.ts):
// the median of each way's last passes once it has enough of them, passes the model thinks
// small left out, old passes forgotten, within bounds; and a search reports the pass it ran, so
// that the costs learnt move the next plan.
import { MIN_PASSES, PASS_TTL_MS, PASS_WINDOW, PassCosts } from '../src/modules/search/pass-costs';
import { SearchService } from '../src/modules/search/service';
import { ok, roleCast, startServer, type TestServer } from './support/harness';
import { insertFilesBelow } from './support/items';

describe('what a pass costs, learnt', () => {
  test('fitted costs until a way has run MIN_PASSES times; then the median of its last passes, each way on its own', () => {
    const costs = new PassCosts();
    expect(costs.factors()).toEqual({ range: 1, keyword: 1 });
    // a first pass on a cold page cache, 30 times what the model says: alone it moves nothing
    costs.observe('keyword', 2_000, 60);
    expect(costs.factors()).toEqual({ range: 1, keyword: 1 });
    expect(costs.seen('keyword')).toBe(1);
    // then 3 ms for what the model put at 2 ms, three times, and 2 ms once: the median is 1.5
    costs.observe('keyword', 2_000, 3);
    costs.observe('keyword', 2_000, 3);
    costs.observe('keyword', 2_000, 2);
    expect(costs.factors()).toEqual({ range: 1, keyword: 1 });
    costs.observe('keyword', 2_000, 3);
    expect(costs.seen('keyword')).toBe(MIN_PASSES);
    expect(costs.factors()).toEqual({ range: 1, keyword: 1.5 });
    for (let i = 0; i < MIN_PASSES; i++) costs.observe('range', 10_000, 6);
    expect(costs.factors()).toEqual({ range: 0.6, keyword: 1.5 });
  });

  test('passes the model thinks small, and nonsense, teach nothing; only the last passes count; the factor stays within 0.5–2', () => {
    const costs = new PassCosts();
    costs.observe('range', 1_999, 50);
    costs.observe('range', 0, 1);
    costs.observe('range', Number.NaN, 1);
    costs.observe('range', 5_000, -1);
    expect(costs.seen('range')).toBe(0);
    for (let i = 0; i < PASS_WINDOW; i++) costs.observe('range', 2_000, 100);
    expect(costs.factors().range).toBe(2);
    for (let i = 0; i < PASS_WINDOW; i++) costs.observe('range', 2_000, 0.1);
    expect(costs.seen('range')).toBe(PASS_WINDOW);
    expect(costs.factors().range).toBe(0.5);
    // half the window again: the newer passes rule
    for (let i = 0; i < Math.ceil(PASS_WINDOW / 2); i++) costs.observe('range', 2_000, 2);
    expect(costs.factors().range).toBe(1);
  });

  test('a way not run for PASS_TTL_MS goes back to the fitted costs, so that slow passes after a start cannot keep it out of use', () => {
    let now = 1_000_000;
    const costs = new PassCosts({ now: () => now });
    // right after a start every pass of the keyword way ran on a cold cache
    for (let i = 0; i < MIN_PASSES; i++) costs.observe('keyword', 10_000, 80);
    costs.observe('range', 10_000, 10);
    expect(costs.factors()).toEqual({ range: 1, keyword: 2 });
    // the range way is chosen from then on; its passes keep their own factor fresh
    now += PASS_TTL_MS / 2;
    for (let i = 0; i < MIN_PASSES; i++) costs.observe('range', 10_000, 12);
    expect(costs.factors()).toEqual({ range: 1.2, keyword: 2 });
    now += PASS_TTL_MS / 2;
    // the keyword's passes are PASS_TTL_MS old: dropped, the fitted cost again
    expect(costs.seen('keyword')).toBe(0);
    expect(costs.factors()).toEqual({ range: 1.2, keyword: 1 });
    // the range's first pass has expired too, the later ones are kept
    expect(costs.seen('range')).toBe(MIN_PASSES);
  });
});

describe('a name search learns from the pass it ran (SQLite)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  test('a wide date range with a rare keyword reads the keyword; once reading items has cost more here, the same search walks the range, and finds the same', async () => {
    const app = server.app;
    const { owner, ownerRoot } = await roleCast(app);
    const dir = await ok<any>(app, 'POST', '/api/User/Files/CreateFile', { token: owner.token, body: { parentId: ownerRoot.id, name: '校准', type: 'folder' } });
    const row = await app.db.selectFrom('items').selectAll().where('id', '=', Number(dir.id)).executeTakeFirstOrThrow();
    const DAY = 86_400_000;
    const now = Date.UTC(2026, 5, 30, 4);
    // one item a day for 300 days; three of them (inside the range asked for) hold the rare keyword
    const files = Array.from({ length: 300 }, (_, i) => ({
      name: i % 50 === 7 ? `稀有校准词${i}.txt` : `日常文件${i}.txt`,
      extension: 'txt',
      createdAt: now - i * DAY,
      updatedAt: now - i * DAY,
    }));
    await insertFilesBelow(app.db, row, files);

    const passCosts = new PassCosts({ minModelUs: 0 });
    const { folders, tags } = app.services;
    const search = new SearchService(app.db, 'sqlite', folders, tags, 'Asia/Shanghai', passCosts);
    const user = await app.db.selectFrom('users').selectAll().where('user_name', '=', owner.userName).executeTakeFirstOrThrow();
    // 200 days: 200 items in the range, 4 of them hold the keyword
    const query = { keyword: '稀有校准词', updatedFrom: '2025-12-13', updatedTo: '2026-06-30', pageSize: 50 } as const;
    const names = async () => (await search.files(user, query)).data.map((i: any) => i.name).sort();
    const expected = ['稀有校准词107.txt', '稀有校准词157.txt', '稀有校准词57.txt', '稀有校准词7.txt'].filter((n) => {
      const i = Number(/\d+/.exec(n)![0]);
      return now - i * DAY >= Date.UTC(2025, 11, 12, 16);
    });
    expect(expected.length).toBe(4);

    expect(await names()).toEqual(expected);
    expect({ keyword: passCosts.seen('keyword'), range: passCosts.seen('range') }).toEqual({ keyword: 1, range: 0 });
    // reading items turned out twice as dear here as fitted, walking half as dear
    for (let i = 0; i < 10; i++) {
      passCosts.observe('keyword', 1_000, 2);
      passCosts.observe('range', 1_000, 0.5);
    }
    expect(passCosts.factors()).toEqual({ range: 0.5, keyword: 2 });
    expect(await names()).toEqual(expected);
    expect({ keyword: passCosts.seen('keyword'), range: passCosts.seen('range') }).toEqual({ keyword: 11, range: 11 });
    // a search without a range has no plan to learn for
    await search.files(user, { keyword: '稀有校准词', pageSize: 50 });
    expect({ keyword: passCosts.seen('keyword'), range: passCosts.seen('range') }).toEqual({ keyword: 11, range: 11 });
  });
});
