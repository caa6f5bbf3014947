// SQLite name search learns what its two ways cost on the machine it runs on (pass-costs.ts):
// the median of the last passes of each way, passes the model thinks small left out, within
// bounds; and a search reports the pass it ran, so that the costs learnt move the next plan.
import { sql } from 'kysely';
import { PASS_WINDOW, PassCosts } from '../src/modules/search/pass-costs';
import { SearchService } from '../src/modules/search/service';
import { ok, roleCast, startServer, type TestServer } from './support/harness';

describe('what a pass costs, learnt', () => {
  test('fitted costs until a way has run; then the median of its last passes, each way on its own', () => {
    const costs = new PassCosts();
    expect(costs.factors()).toEqual({ range: 1, keyword: 1 });
    // 3 ms for what the model put at 2 ms, then 4 and 30 (a stalled machine): the median is 2
    costs.observe('keyword', 2_000, 3);
    costs.observe('keyword', 2_000, 4);
    costs.observe('keyword', 2_000, 30);
    expect(costs.factors()).toEqual({ range: 1, keyword: 2 });
    expect(costs.seen('keyword')).toBe(3);
    costs.observe('range', 10_000, 5);
    expect(costs.factors()).toEqual({ range: 0.5, keyword: 2 });
  });

  test('passes the model thinks small, and nonsense, teach nothing; only the last passes count; the factor stays within 0.25–4', () => {
    const costs = new PassCosts();
    costs.observe('range', 1_999, 50);
    costs.observe('range', 0, 1);
    costs.observe('range', Number.NaN, 1);
    costs.observe('range', 5_000, -1);
    expect(costs.seen('range')).toBe(0);
    for (let i = 0; i < PASS_WINDOW; i++) costs.observe('range', 2_000, 100);
    expect(costs.factors().range).toBe(4);
    for (let i = 0; i < PASS_WINDOW; i++) costs.observe('range', 2_000, 0.1);
    expect(costs.seen('range')).toBe(PASS_WINDOW);
    expect(costs.factors().range).toBe(0.25);
    // half the window again: the newer passes rule
    for (let i = 0; i < Math.ceil(PASS_WINDOW / 2); i++) costs.observe('range', 2_000, 2);
    expect(costs.factors().range).toBe(1);
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
    const rows = Array.from({ length: 300 }, (_, i) => {
      const name = i % 50 === 7 ? `稀有校准词${i}.txt` : `日常文件${i}.txt`;
      return {
        parent_id: row.id, space_type: row.space_type, owner_id: row.owner_id, name, name_key: name.toLowerCase(), type: 'file' as const,
        type_order: 1, extension: 'txt', size: 1, id_path: '', name_path: `${row.name_path}/${name}`, sort_order: i, created_at: now - i * DAY, updated_at: now - i * DAY,
      };
    });
    await app.db.insertInto('items').values(rows).execute();
    await app.db.updateTable('items').set({ id_path: sql<string>`${`${row.id_path}/`} || cast(id as text)` }).where('parent_id', '=', row.id).execute();

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
    // reading items turned out 4 times dearer here than fitted, walking 4 times cheaper
    for (let i = 0; i < 10; i++) {
      passCosts.observe('keyword', 1_000, 4);
      passCosts.observe('range', 1_000, 0.25);
    }
    expect(passCosts.factors()).toEqual({ range: 0.25, keyword: 4 });
    expect(await names()).toEqual(expected);
    expect({ keyword: passCosts.seen('keyword'), range: passCosts.seen('range') }).toEqual({ keyword: 11, range: 11 });
    // a search without a range has no plan to learn for
    await search.files(user, { keyword: '稀有校准词', pageSize: 50 });
    expect({ keyword: passCosts.seen('keyword'), range: passCosts.seen('range') }).toEqual({ keyword: 11, range: 11 });
  });
});
