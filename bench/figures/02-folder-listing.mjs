// Figure 2: a folder of 100,000 items lists as fast as a folder of 10.
// The built server runs on SQLite (as README starts it). Two folders are made through the
// API; the small one gets 10 items through the API, the large one 100,000 rows written
// straight into its database file in one transaction (this figure measures listing, not
// creation). Then, in the same run: the API's first and last page (100 items) of each
// folder in three sort orders, median of 7 after a warm-up, and in headless chromium the
// time from clicking the folder to its first row being shown, median of 3.
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import {
  apiOk, createFolder, launchBrowser, login, personalRoot, signInThroughPage, startServer, waitForPath,
} from '../../e2e/harness.mjs';
import { ROOT, median, ms, printTable, ratio } from '../lib/util.mjs';

export const id = 'listing';
export const title = 'Figure 2: listing a folder of 100,000 items against a folder of 10 (SQLite)';

const LARGE = Number(process.env.BENCH_LARGE_ITEMS || 100_000);
const PAGE_SIZE = 100;
const API_RUNS = 7;
const PAGE_RUNS = 3;

/** 100,000 rows under the folder `parentId`: 2% folders, the rest files of assorted kinds. */
export function fillLargeFolder(dbFile, parentId, count) {
  const serverRequire = createRequire(path.join(ROOT, 'server', 'package.json'));
  const Database = serverRequire('better-sqlite3');
  const db = new Database(dbFile);
  // the name index's triggers call this function of the server's connection
  const { nameGrams } = serverRequire('./dist/modules/search/grams.js');
  db.function('name_grams', { deterministic: true }, (text) => nameGrams(String(text ?? '')));
  db.pragma('busy_timeout = 10000');
  const parent = db.prepare('select * from items where id = ?').get(parentId);
  const now = Date.now();
  const exts = ['docx', 'xlsx', 'pdf', 'png', 'mp4', 'zip', 'txt', 'pptx', 'md', 'ofd'];
  const insert = db.prepare(`insert into items (parent_id, space_type, owner_id, name, name_key, type, type_order,
    extension, size, id_path, name_path, sort_order, created_at, updated_at)
    values (@parent_id, @space_type, @owner_id, @name, @name_key, @type, @type_order, @extension, @size, '', @name_path, 0, @t, @t)`);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const folder = i % 50 === 0;
      const ext = folder ? '' : exts[i % exts.length];
      const name = folder ? `文件夹${String(i).padStart(6, '0')}` : `文档${String(i).padStart(6, '0')}.${ext}`;
      insert.run({
        parent_id: parentId, space_type: parent.space_type, owner_id: parent.owner_id, name, name_key: name.toLowerCase(),
        type: folder ? 'folder' : 'file', type_order: folder ? 0 : 1, extension: ext, size: folder ? 0 : (i * 7919) % 50_000_000,
        name_path: parent.name_path ? `${parent.name_path}/${name}` : name, t: now - ((i * 104729) % 86_400_000),
      });
    }
    db.prepare(`update items set id_path = ? || '/' || id where parent_id = ? and id_path = ''`).run(parent.id_path, parentId);
    // the folder's live child counters, as the server keeps them on every write
    db.prepare(`update items set
      child_folders = (select count(*) from items c where c.parent_id = items.id and c.deleted_at is null and c.type_order = 0),
      child_files = (select count(*) from items c where c.parent_id = items.id and c.deleted_at is null and c.type_order <> 0)
      where id = ?`).run(parentId);
  })();
  db.pragma('optimize');
  db.close();
}

export async function timeApi(server, token, folderId, query) {
  const url = `/api/User/Folders/${folderId}/Items?${new URLSearchParams({ pageSize: String(PAGE_SIZE), ...query })}`;
  await apiOk(server, 'GET', url, { token }); // warm-up
  const times = [];
  let result;
  for (let i = 0; i < API_RUNS; i++) {
    const t0 = performance.now();
    result = await apiOk(server, 'GET', url, { token });
    times.push(performance.now() - t0);
  }
  return { median: median(times), rows: result.items.data.length, total: result.items.total };
}

/** `firstRow`: the name of the opened folder's first row, so the old folder's rows never count. */
async function timePage(page, server, folderName, firstRow) {
  const times = [];
  for (let i = 0; i < PAGE_RUNS; i++) {
    await page.goto(`${server.url}/file/personal`);
    const link = page.getByText(folderName, { exact: true }).first();
    await link.waitFor({ timeout: 30_000 });
    const t0 = performance.now();
    await link.click();
    // the first row of the opened folder, inside the table body
    await page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: firstRow }).first().waitFor({ timeout: 30_000 });
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function run() {
  const server = await startServer();
  try {
    const admin = await login(server);
    const root = await personalRoot(server, admin.token);
    const small = await createFolder(server, admin.token, root.id, '十个项目');
    const large = await createFolder(server, admin.token, root.id, '十万个项目');
    for (let i = 0; i < 10; i++) await createFolder(server, admin.token, small.id, `子文件夹${i}`);
    const t0 = performance.now();
    fillLargeFolder(path.join(server.dataDir, 'app.db'), large.id, LARGE);
    console.log(`filled ${LARGE.toLocaleString('en')} rows in ${ms(performance.now() - t0)}\n`);

    const lastPage = String(Math.ceil(LARGE / PAGE_SIZE));
    const cases = [
      ['by name, first page', { sortField: 'name', sortOrder: 'asc', page: '1' }],
      ['by name, last page', { sortField: 'name', sortOrder: 'asc', page: lastPage }],
      ['by updated desc, first page', { sortField: 'updatedAt', sortOrder: 'desc', page: '1' }],
      ['by updated desc, last page', { sortField: 'updatedAt', sortOrder: 'desc', page: lastPage }],
      ['by size desc, last page', { sortField: 'size', sortOrder: 'desc', page: lastPage }],
      ['keyword 文档0999, first page', { keyword: '文档0999', page: '1' }],
    ];
    const baseline = await timeApi(server, admin.token, small.id, { sortField: 'name', sortOrder: 'asc', page: '1' });
    const rows = [{ what: 'baseline: 10-item folder, by name, page 1', time: ms(baseline.median), n: baseline.rows, ratio: '1.00×' }];
    const api = { baselineMs: baseline.median, cases: {} };
    for (const [label, query] of cases) {
      const r = await timeApi(server, admin.token, large.id, query);
      if (!query.keyword && r.total !== LARGE) throw new Error(`the large folder reports ${r.total} items, not ${LARGE}`);
      api.cases[label] = r.median;
      rows.push({ what: `${LARGE.toLocaleString('en')}-item folder, ${label}`, time: `${r.median.toFixed(1)} ms`, n: r.rows, ratio: ratio(r.median, baseline.median) });
    }
    rows[0].time = `${baseline.median.toFixed(1)} ms`;
    console.log(`API: GET /api/User/Folders/{id}/Items, pageSize ${PAGE_SIZE}, median of ${API_RUNS} after a warm-up`);
    printTable([
      { key: 'what', title: 'request' }, { key: 'time', title: 'median', align: 'right' },
      { key: 'n', title: 'rows', align: 'right' }, { key: 'ratio', title: 'vs 10 items', align: 'right' },
    ], rows);

    const browser = await launchBrowser();
    let pageFigures;
    try {
      const page = browser.page;
      await signInThroughPage(page, server, server.adminUser, server.adminPassword);
      await waitForPath(page, '/file/personal');
      const smallMs = await timePage(page, server, '十个项目', '子文件夹0');
      const largeMs = await timePage(page, server, '十万个项目', '文件夹000000');
      pageFigures = { smallMs, largeMs };
      console.log(`\nPage (chromium): from clicking the folder to its first rows shown, median of ${PAGE_RUNS}`);
      printTable([
        { key: 'what', title: 'folder' }, { key: 'time', title: 'median', align: 'right' }, { key: 'ratio', title: 'vs 10 items', align: 'right' },
      ], [
        { what: 'baseline: 10 items', time: ms(smallMs), ratio: '1.00×' },
        { what: `${LARGE.toLocaleString('en')} items`, time: ms(largeMs), ratio: ratio(largeMs, smallMs) },
      ]);
    } finally {
      await browser.close();
    }
    return { items: LARGE, pageSize: PAGE_SIZE, api, page: pageFigures };
  } finally {
    await server.stop();
  }
}
