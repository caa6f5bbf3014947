// Figure 6: search on SQLite, each line against a baseline measured in the same run.
// The built server runs on SQLite (as README starts it) with a fresh DATA_DIR; a user and its
// folders are made through the API, the bulk rows are written straight into the database file
// (as figure 2 does: this figure measures searching, not creating), so the index triggers
// (FTS5 trigram + name_grams / content_grams tokens) fill the search indexes.
// 1. Name search over 1,000,000 items (1,010 folders: 10 × 100 under one folder of the user's
//    personal space; names made of common two-character Chinese words, some Latin words,
//    dates, numbers and an extension): the time to write them (with the search triggers,
//    against the same rows in a table without indexes and in items without its search
//    triggers), the database file's size, then 200 queries through the API (pageSize 50,
//    first page; 1-, 2-, 3+-character Chinese keywords and Latin keywords, with and without
//    the filters extension, updatedFrom/updatedTo, folderId, spaceType), p50 and p99 per
//    keyword class, against the same number of GET /api/User/Files/{id} interleaved with them.
//    Goal: p99 at most 50 ms for every keyword class.
// 2. Full-text search over 10,000 documents (Chinese paragraphs, 2–20 KB of UTF-8 each):
//    extractForSearch over 300 .txt and 50 .docx files (made with yazl) against fs.readFile of
//    the same files, then 10,000 items + item_texts rows written into the database and 200
//    content queries through the API, p50 / p99 against the same by-id baseline.
// 3. Favourites and a personal tag of 10,000 items spread over the 1,000,000: first and last
//    page (pageSize 100) of /api/User/Favorites/-1 and /api/User/Tags/{id}/Files against the
//    first and last page of the 10,000-item folder of part 2, median of 7 interleaved rounds
//    after a warm-up.
// BENCH_SEARCH_ITEMS (default 1000000), BENCH_SEARCH_DOCS (default 10000) and
// BENCH_SEARCH_QUERIES (default 200) make the figure smaller for a quick look.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { writeDocx } from '../../e2e/documents.mjs';
import { apiOk, createFolder, createUser, login, personalRoot, startServer } from '../../e2e/harness.mjs';
import { ROOT, median, printTable, ratio, rng } from '../lib/util.mjs';

export const id = 'search';
export const title = 'Figure 6: name search over 1,000,000 items, full-text search over 10,000 documents, favourites and tag pages of 10,000 (SQLite)';

const ITEMS = Number(process.env.BENCH_SEARCH_ITEMS || 1_000_000);
const DOCS = Number(process.env.BENCH_SEARCH_DOCS || 10_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES || 200);
const TOP_FOLDERS = 10;
const SUB_FOLDERS = 100;
const SEARCH_PAGE_SIZE = 50;
const LIST_PAGE_SIZE = 100;
const LIST_RUNS = 7;
const EXTRACT_TXT = 300;
const EXTRACT_DOCX = 50;
const EXTRACT_RUNS = 3;
/** full-text search's goal; name search's is stricter (issue 30: every keyword class) */
const GOAL_P99_MS = 100;
const NAME_GOAL_P99_MS = 50;
const DAY = 86_400_000;
const SPAN_DAYS = 3 * 365;

const serverRequire = createRequire(path.join(ROOT, 'server', 'package.json'));

/* ---------------------------------------------------------------- data */

// a few hundred common two-character words (office documents, places, time)
const VOCAB = [...new Set(`
报告 合同 年度 计划 项目 会议 纪要 财务 预算 方案 总结 申请 审批 通知 文件 资料 数据 统计 分析 市场
销售 采购 人事 招聘 培训 考核 绩效 工资 报表 发票 付款 收款 客户 供应 产品 设计 开发 测试 运维 安全
质量 管理 制度 流程 规范 标准 技术 需求 说明 手册 指南 模板 样例 草稿 定稿 修订 评审 验收 交付 部署
上线 备份 归档 目录 清单 明细 汇总 月度 季度 周报 日报 年报 工作 任务 进度 风险 问题 改进 建议 意见
反馈 调研 研究 论文 专利 知识 产权 法律 法务 律师 诉讼 协议 条款 授权 委托 证明 证书 资质 营业 执照
税务 审计 会计 凭证 账簿 成本 利润 收入 支出 费用 报销 差旅 出差 行程 机票 酒店 会场 活动 宣传 品牌
广告 媒体 新闻 公告 简报 演示 课件 讲义 教材 考试 成绩 学生 教师 课程 学校 医院 病历 药品 器械 工程
施工 图纸 监理 招标 投标 标书 报价 询价 订单 物流 仓库 库存 盘点 资产 设备 维修 保养 车辆 能源 环境
环保 应急 预案 演练 消防 党建 工会 团委 学习 心得 体会 讲话 发言 材料 汇报 请示 批复 函件 会签 签报
督办 考勤 请假 加班 值班 排班 轮岗 晋升 任免 调动 离职 入职 档案 社保 福利 保险 理赔 合作 伙伴 战略
规划 目标 指标 预测 评估 决策 投资 融资 股权 债券 基金 贷款 银行 账户 余额 流水 对账 结算 清算 系统
平台 网络 服务 接口 架构 代码 版本 发布 升级 迁移 配置 日志 监控 告警 故障 事故 处理 复盘 照片 图片
视频 音频 录音 扫描 原件 副本 北京 上海 广州 深圳 杭州 南京 成都 武汉 西安 重庆 天津 华东 华南 华北
西南 东北 总部 一季 二季 三季 四季 上半 下半 第一 第二 第三 最终 正式 内部 外部 重要 紧急 机密 公开
共享 个人 部门 团队 小组 中心 研发 生产 制造 工厂 车间 门店 区域 全国 国际 海外 出口 进口 海关 关税
用户 体验 界面 交互 原型 功能 模块 需要 确认 完成 情况 相关 进行 开展 推进 落实 加强 提高 建立 健全
`.split(/\s+/).filter((w) => [...w].length === 2))];
const LATIN = ['report', 'plan', 'v2', 'v3', 'final', 'draft', 'summary', 'budget', 'review', 'minutes', 'spec', 'design',
  'data', 'backup', 'copy', 'notes', 'meeting', 'invoice', 'contract', 'scan', 'demo', 'test', 'todo', 'old', 'new', 'ok'];
const EXTENSIONS = ['docx', 'docx', 'docx', 'xlsx', 'xlsx', 'pdf', 'pdf', 'pdf', 'txt', 'png', 'jpg', 'pptx', 'zip', 'mp4', 'md', 'csv', 'ofd'];

const pickFrom = (r, list) => list[Math.floor(r() * list.length)];
/** Skewed towards the head of the list, as words are in real names (a few very common ones). */
const word = (r) => VOCAB[Math.floor(VOCAB.length * r() ** 2)];

const pad2 = (n) => String(n).padStart(2, '0');
/** YYYY-MM-DD of a time, in Asia/Shanghai (the server's default TZ_NAME). */
const day = (t) => {
  const d = new Date(t + 8 * 3600_000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
};

function fileName(r, now) {
  const n = 1 + Math.floor(r() ** 1.6 * 4);
  let base = '';
  for (let i = 0; i < n; i++) base += word(r);
  const roll = r();
  if (roll < 0.15) base = `${pickFrom(r, LATIN)}_${base}`;
  else if (roll < 0.3) base += `-${pickFrom(r, LATIN)}`;
  else if (roll < 0.36) base += ` ${pickFrom(r, LATIN)} ${pickFrom(r, LATIN)}`;
  const d = new Date(now - Math.floor(r() * SPAN_DAYS) * DAY);
  const tail = r();
  if (tail < 0.2) base += `_${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
  else if (tail < 0.35) base += `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}`;
  else if (tail < 0.45) base += `（${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月）`;
  else if (tail < 0.55) base += `_${1 + Math.floor(r() * 999)}`;
  else if (tail < 0.6) base += `第${1 + Math.floor(r() * 9)}版`;
  else if (tail < 0.65) base += `(${1 + Math.floor(r() * 5)})`;
  return `${base}.${pickFrom(r, EXTENSIONS)}`;
}

/**
 * The 1,000,000 rows, as arrays (generated once, written three times): folders first (10 top
 * folders, 100 below each), then the files spread evenly over the 1,000 lower folders.
 */
export function makeNameRows(count, now) {
  const r = rng(6);
  const folders = TOP_FOLDERS + TOP_FOLDERS * SUB_FOLDERS;
  const files = count - folders;
  const names = new Array(count);
  const parent = new Int32Array(count); // -1: the API-made folder above them all
  const updated = new Float64Array(count);
  const seen = new Map();
  const unique = (p, name) => {
    let set = seen.get(p);
    if (!set) seen.set(p, (set = new Set()));
    let out = name;
    for (let k = 2; set.has(out.toLowerCase()); k++) out = name.replace(/(\.[^.]+)?$/, (ext) => `_${k}${ext}`);
    set.add(out.toLowerCase());
    return out;
  };
  for (let t = 0; t < TOP_FOLDERS; t++) {
    names[t] = unique(-1, `${pad2(t + 1)} ${word(r)}${word(r)}`);
    parent[t] = -1;
  }
  for (let s = 0; s < TOP_FOLDERS * SUB_FOLDERS; s++) {
    const i = TOP_FOLDERS + s;
    parent[i] = Math.floor(s / SUB_FOLDERS);
    names[i] = unique(parent[i], `${word(r)}${word(r)}${r() < 0.3 ? `_${2020 + Math.floor(r() * 6)}` : ''}`);
  }
  for (let f = 0; f < files; f++) {
    const i = folders + f;
    parent[i] = TOP_FOLDERS + Math.floor((f * TOP_FOLDERS * SUB_FOLDERS) / files);
    names[i] = unique(parent[i], fileName(r, now));
  }
  for (let i = 0; i < count; i++) updated[i] = now - Math.floor(r() * SPAN_DAYS * DAY);
  return { names, parent, updated, folders };
}

export function openDb(file) {
  const Database = serverRequire('better-sqlite3');
  const db = new Database(file);
  // the search indexes' triggers call these functions of the server's connection
  const { nameGrams, contentGrams } = serverRequire('./dist/modules/search/grams.js');
  db.function('name_grams', { deterministic: true }, (text) => nameGrams(String(text ?? '')));
  db.function('content_grams', { deterministic: true }, (text) => contentGrams(String(text ?? '')));
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = NORMAL');
  return db;
}

const ITEM_COLUMNS = `id, parent_id, space_type, owner_id, name, name_key, type, type_order, extension, size, id_path,
  name_path, sort_order, created_at, updated_at, child_folders, child_files`;
const ITEM_VALUES = `@id, @parent_id, @space_type, @owner_id, @name, @name_key, @type, @type_order, @extension, @size,
  @id_path, @name_path, 0, @created_at, @updated_at, @child_folders, @child_files`;

/** Writes the rows of makeNameRows below `top` (an items row) with ids from `firstId`, in one transaction. */
export function writeNameRows(db, table, top, rows, firstId) {
  const insert = db.prepare(`insert into ${table} (${ITEM_COLUMNS}) values (${ITEM_VALUES})`);
  const { names, parent, updated, folders } = rows;
  const count = names.length;
  const idPath = new Array(folders);
  const namePath = new Array(folders);
  const childFiles = new Int32Array(folders);
  for (let i = folders; i < count; i++) childFiles[parent[i]]++;
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = firstId + i;
      const folder = i < folders;
      const p = parent[i];
      const pIdPath = p < 0 ? top.id_path : idPath[p];
      const pNamePath = p < 0 ? top.name_path : namePath[p];
      const name = names[i];
      const ext = folder ? '' : name.slice(name.lastIndexOf('.') + 1);
      const row = {
        id, parent_id: p < 0 ? top.id : firstId + p, space_type: top.space_type, owner_id: top.owner_id, name, name_key: name.toLowerCase(),
        type: folder ? 'folder' : 'file', type_order: folder ? 0 : 1, extension: ext, size: folder ? 0 : (i * 7919) % 50_000_000,
        id_path: `${pIdPath}/${id}`, name_path: pNamePath ? `${pNamePath}/${name}` : name,
        created_at: updated[i] - DAY, updated_at: updated[i],
        child_folders: i < TOP_FOLDERS ? SUB_FOLDERS : 0, child_files: folder ? childFiles[i] : 0,
      };
      if (folder) {
        idPath[i] = row.id_path;
        namePath[i] = row.name_path;
      }
      insert.run(row);
    }
    if (table === 'items') db.prepare('update items set child_folders = ? where id = ?').run(TOP_FOLDERS, top.id);
  })();
}

/** The same rows in a table without any index, and in items without its search triggers (fresh files). */
function timeBaselineWrites(dataDir, schemaDb, top, rows, firstId) {
  const out = {};
  const itemsSql = schemaDb.prepare(`select sql from sqlite_master where tbl_name = 'items' and type in ('table', 'index') and sql is not null order by type = 'index'`).all().map((r) => r.sql);
  for (const [label, ddl] of [
    ['plain', [itemsSql[0].replace(/ references "[a-z_]+" \("id"\) on delete restrict/g, '')]],
    ['btree', itemsSql.map((s) => s.replace(/ references "[a-z_]+" \("id"\) on delete restrict/g, ''))],
  ]) {
    const file = path.join(dataDir, `bench-${label}.db`);
    const db = openDb(file);
    db.pragma('journal_mode = WAL');
    for (const s of ddl) db.exec(s);
    const t0 = performance.now();
    writeNameRows(db, 'items', top, rows, firstId);
    out[label] = performance.now() - t0;
    db.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  }
  return out;
}

/** Sizes of the file's tables and indexes (dbstat), grouped: items, name index, text index, other. */
function sizes(db) {
  const groups = { items: 0, 'name index (FTS5)': 0, 'item_texts': 0, 'text index (FTS5)': 0, other: 0 };
  for (const { name, bytes } of db.prepare('select name, sum(pgsize) as bytes from dbstat group by name').all()) {
    const tbl = db.prepare('select tbl_name from sqlite_master where name = ?').get(name)?.tbl_name ?? name;
    if (/^items_name_(trigram|grams)/.test(tbl)) groups['name index (FTS5)'] += bytes;
    else if (/^item_texts_(trigram|grams)/.test(tbl)) groups['text index (FTS5)'] += bytes;
    else if (tbl === 'items') groups.items += bytes;
    else if (tbl === 'item_texts') groups.item_texts += bytes;
    else groups.other += bytes;
  }
  return groups;
}

/** A document of `bytes` bytes of UTF-8: paragraphs of sentences of the vocabulary, a few Latin words. */
export function documentText(r, bytes) {
  const paragraphs = [];
  let size = 0;
  while (size < bytes) {
    const sentences = [];
    for (let s = 3 + Math.floor(r() * 6); s > 0; s--) {
      let sentence = '';
      for (let w = 4 + Math.floor(r() * 12); w > 0; w--) {
        const roll = r();
        if (roll < 0.03) sentence += ` ${pickFrom(r, LATIN)} `;
        else if (roll < 0.05) sentence += String(Math.floor(r() * 10_000));
        else sentence += word(r);
        if (w > 1 && r() < 0.15) sentence += '，';
      }
      sentences.push(`${sentence.trim()}${r() < 0.9 ? '。' : '；'}`);
    }
    const p = sentences.join('');
    paragraphs.push(p);
    size += Buffer.byteLength(p) + 1;
  }
  let text = paragraphs.join('\n');
  while (Buffer.byteLength(text) > bytes) text = text.slice(0, -1);
  return text;
}

/* ---------------------------------------------------------------- measuring */

/** Nearest-rank percentile (p99 of 40 samples is their maximum). */
function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
}
/**
 * Lets the event loop see what happened while a long synchronous write blocked it (the server
 * closes idle keep-alive sockets after 72 s: a request must not go out on one of those).
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
const f1 = (n) => `${n.toFixed(1)} ms`;
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function timed(fn) {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}

/**
 * Runs the queries once each, every one right after a by-id lookup (the baseline), after a
 * warm-up of both; checks that every name (or text) found contains the keyword.
 */
async function timeQueries(server, token, endpoint, queries, lookupIds, warmups, check) {
  const get = (url) => apiOk(server, 'GET', url, { token });
  const searchUrl = (q) => `/api/User/Search/${endpoint}?${new URLSearchParams({ keyword: q.keyword, page: '1', pageSize: String(SEARCH_PAGE_SIZE), ...q.filter })}`;
  for (let i = 0; i < warmups.length; i++) {
    await get(searchUrl(warmups[i]));
    await get(`/api/User/Files/${lookupIds[(i * 7919) % lookupIds.length]}`);
  }
  const out = [];
  for (let i = 0; i < queries.length; i++) {
    const q = queries[i];
    const base = await timed(() => get(`/api/User/Files/${lookupIds[i % lookupIds.length]}`));
    const s = await timed(() => get(searchUrl(q)));
    check(q, s.result);
    out.push({ ...q, ms: s.ms, baseMs: base.ms, total: s.result.total, limited: s.result.limited, rows: s.result.data.length });
  }
  return out;
}

function summarize(results, classes, label, goalMs) {
  const rows = [];
  const summary = {};
  const line = (name, list) => {
    const t = list.map((x) => x.ms);
    const b = list.map((x) => x.baseMs);
    const p50 = percentile(t, 50);
    const p99 = percentile(t, 99);
    const b50 = percentile(b, 50);
    const b99 = percentile(b, 99);
    summary[name] = { n: list.length, p50, p99, max: Math.max(...t), baseP50: b50, baseP99: b99, medianTotal: median(list.map((x) => x.total)) };
    rows.push({
      what: name, n: list.length, hits: Math.round(median(list.map((x) => x.total))).toLocaleString('en'),
      p50: f1(p50), p99: f1(p99), max: f1(Math.max(...t)), b50: f1(b50), b99: f1(b99), r50: ratio(p50, b50), r99: ratio(p99, b99),
      goal: p99 <= goalMs ? 'yes' : 'NO',
    });
  };
  for (const c of classes) line(c, results.filter((x) => x.cls === c));
  line('all', results);
  printTable([
    { key: 'what', title: label }, { key: 'n', title: 'queries', align: 'right' }, { key: 'hits', title: 'median total', align: 'right' },
    { key: 'p50', title: 'p50', align: 'right' }, { key: 'p99', title: 'p99', align: 'right' }, { key: 'max', title: 'max', align: 'right' },
    { key: 'b50', title: 'by-id p50', align: 'right' }, { key: 'b99', title: 'by-id p99', align: 'right' },
    { key: 'r50', title: 'p50 ratio', align: 'right' }, { key: 'r99', title: 'p99 ratio', align: 'right' },
    { key: 'goal', title: `p99 ≤ ${goalMs} ms`, align: 'right' },
  ], rows);
  return summary;
}

function byFilter(results) {
  const groups = [...new Set(results.map((x) => x.filterName))];
  printTable([
    { key: 'f', title: 'filter' }, { key: 'n', title: 'queries', align: 'right' }, { key: 'p50', title: 'p50', align: 'right' },
    { key: 'p99', title: 'p99', align: 'right' }, { key: 'slow', title: 'slowest query', align: 'left' },
  ], groups.map((g) => {
    const list = results.filter((x) => x.filterName === g);
    const slow = list.reduce((a, b) => (b.ms > a.ms ? b : a));
    return { f: g, n: list.length, p50: f1(percentile(list.map((x) => x.ms), 50)), p99: f1(percentile(list.map((x) => x.ms), 99)), slow: `${slow.keyword} (${slow.cls}) ${f1(slow.ms)}` };
  }));
  const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`slowest: ${slowest.map((x) => `${x.keyword} [${x.filterName}] ${f1(x.ms)}, ${x.total.toLocaleString('en')} hits`).join('; ')}`);
}

/** Medians of LIST_RUNS rounds over every url (interleaved, so that all see the same moments), after a warm-up. */
async function timeLists(server, token, urls) {
  const get = (url) => apiOk(server, 'GET', url, { token });
  for (const url of urls) await get(url);
  const times = urls.map(() => []);
  const last = [];
  for (let run = 0; run < LIST_RUNS; run++) {
    for (let i = 0; i < urls.length; i++) {
      const t = await timed(() => get(urls[i]));
      times[i].push(t.ms);
      last[i] = t.result.items ?? t.result;
    }
  }
  return urls.map((_, i) => ({ median: median(times[i]), rows: last[i].data.length, total: last[i].total }));
}

/* ---------------------------------------------------------------- parts */

/** Keywords of a class, `count` of them, from the generated names (most find something). */
function nameKeywords(r, names, cls, count) {
  const out = [];
  const cjkRun = /[\u4e00-\u9fff]+/g;
  while (out.length < count) {
    const name = names[Math.floor(r() * names.length)];
    if (cls === 'Latin 1–2') out.push(pickFrom(r, ['a', 'e', 'o', 're', 'v2', 'pl', 'in', 'de', 'x', 'at', 'ok', 'st']));
    else if (cls === 'Latin 3+') out.push(pickFrom(r, ['report', 'plan', 'final', 'draft', 'summary', 'budget', 'review', 'minutes', 'design', 'notes', 'docx', 'xlsx', 'pdf', '2024', '202311', 'con', 'rep']));
    else {
      const runs = name.match(cjkRun) || [];
      const run = runs.length ? pickFrom(r, runs) : '';
      const len = cls === '中文 1 字' ? 1 : cls === '中文 2 字' ? 2 : 3 + Math.floor(r() * 3);
      if ([...run].length < len) {
        if (len >= 3 && r() < 0.2) out.push(word(r) + pickFrom(r, VOCAB)); // two words rarely seen together
        continue;
      }
      const at = Math.floor(r() * ([...run].length - len + 1));
      out.push([...run].slice(at, at + len).join(''));
    }
  }
  return out;
}

const NAME_CLASSES = ['中文 1 字', '中文 2 字', '中文 3+ 字', 'Latin 1–2', 'Latin 3+'];

function withFilters(r, keywords, cls, ctx) {
  const filters = [
    ['none', () => ({})],
    ['extension', () => ({ extension: pickFrom(r, ['docx', 'xlsx,xls', 'pdf', 'txt,md', 'png,jpg']) })],
    ['updated', () => {
      const to = ctx.now - Math.floor(r() * SPAN_DAYS) * DAY;
      return { updatedFrom: day(to - pickFrom(r, [7, 30, 365]) * DAY), updatedTo: day(to) };
    }],
    ['folderId', () => ({ folderId: String(pickFrom(r, r() < 0.5 ? ctx.topFolders : ctx.subFolders)) })],
    ['spaceType', () => ({ spaceType: '2' })],
  ];
  return keywords.map((keyword, i) => {
    const [filterName, make] = filters[i % filters.length];
    return { cls, keyword, filterName, filter: make() };
  });
}

async function partNames(server, user, ctx) {
  const { token } = user;
  const dbFile = path.join(server.dataDir, 'app.db');
  const top = await createFolder(server, token, ctx.root.id, '一百万个项目');
  // names carry dates: the same names all day long
  const now = Math.floor(Date.now() / DAY) * DAY;
  ctx.now = now;
  let t0 = performance.now();
  const rows = makeNameRows(ITEMS, now);
  const genMs = performance.now() - t0;

  const db = openDb(dbFile);
  const topRow = db.prepare('select * from items where id = ?').get(Number(top.id));
  const firstId = Number(db.prepare('select max(id) as m from items').get().m) + 1_000;
  const baselines = timeBaselineWrites(server.dataDir, db, topRow, rows, firstId);
  t0 = performance.now();
  writeNameRows(db, 'items', topRow, rows, firstId);
  const writeMs = performance.now() - t0;
  t0 = performance.now();
  db.pragma('optimize');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const checkpointMs = performance.now() - t0;
  const fileBytes = fs.statSync(dbFile).size;
  const parts = sizes(db);
  db.close();
  await settle();

  console.log(`Name search: ${ITEMS.toLocaleString('en')} items (${rows.folders.toLocaleString('en')} folders, ${VOCAB.length} words of vocabulary) written straight into SQLite in one transaction (names generated in ${(genMs / 1000).toFixed(1)} s, not counted)`);
  printTable([
    { key: 'what', title: 'writing the rows' }, { key: 't', title: 'time', align: 'right' }, { key: 'rate', title: 'rows/s', align: 'right' },
    { key: 'r', title: 'vs plain table', align: 'right' },
  ], [
    { what: 'baseline: table without any index', t: `${(baselines.plain / 1000).toFixed(1)} s`, rate: Math.round(ITEMS / (baselines.plain / 1000)).toLocaleString('en'), r: '1.00×' },
    { what: 'items with its B-tree indexes, no search triggers', t: `${(baselines.btree / 1000).toFixed(1)} s`, rate: Math.round(ITEMS / (baselines.btree / 1000)).toLocaleString('en'), r: ratio(baselines.btree, baselines.plain) },
    { what: 'items with the search triggers (FTS5 trigram + grams)', t: `${(writeMs / 1000).toFixed(1)} s`, rate: Math.round(ITEMS / (writeMs / 1000)).toLocaleString('en'), r: ratio(writeMs, baselines.plain) },
  ]);
  console.log(`then optimize + WAL checkpoint: ${(checkpointMs / 1000).toFixed(1)} s; database file ${mb(fileBytes)} (${Object.entries(parts).map(([k, v]) => `${k} ${mb(v)}`).join(', ')})`);

  const r = rng(61);
  ctx.topFolders = Array.from({ length: TOP_FOLDERS }, (_, i) => firstId + i);
  ctx.subFolders = Array.from({ length: TOP_FOLDERS * SUB_FOLDERS }, (_, i) => firstId + TOP_FOLDERS + i);
  const perClass = Math.ceil(QUERIES / NAME_CLASSES.length);
  let queries = NAME_CLASSES.flatMap((cls) => withFilters(r, nameKeywords(r, rows.names, cls, perClass), cls, ctx));
  // interleave the classes, so that no class runs at a quieter moment than another
  queries = queries.map((q, i) => ({ q, k: (i % perClass) * NAME_CLASSES.length + Math.floor(i / perClass) })).sort((a, b) => a.k - b.k).map((x) => x.q).slice(0, QUERIES);
  const warmups = NAME_CLASSES.flatMap((cls) => withFilters(r, nameKeywords(r, rows.names, cls, 4), cls, ctx));
  const fileIds = Array.from({ length: 1000 }, (_, i) => firstId + rows.folders + Math.floor(r() * (ITEMS - rows.folders)));
  ctx.fileIds = fileIds;
  ctx.names = rows;
  ctx.firstId = firstId;
  const results = await timeQueries(server, token, 'Files', queries, fileIds, warmups, (q, res) => {
    const bad = res.data.find((d) => !d.name.toLowerCase().includes(q.keyword.toLowerCase()));
    if (bad) throw new Error(`name search for ${q.keyword} returned ${bad.name}`);
  });
  console.log(`\nName search: GET /api/User/Search/Files, pageSize ${SEARCH_PAGE_SIZE}, first page, ${results.length} queries after ${warmups.length} warm-ups, each right after a GET /api/User/Files/{id} of a random file (the by-id baseline)`);
  console.log(`p99 by nearest rank (of a class's ${Math.ceil(QUERIES / NAME_CLASSES.length)} queries: the slowest); goal: p99 at most ${NAME_GOAL_P99_MS} ms for every class`);
  const summary = summarize(results, NAME_CLASSES, 'keyword class', NAME_GOAL_P99_MS);
  console.log('');
  byFilter(results);
  return {
    items: ITEMS, writeMs, plainWriteMs: baselines.plain, btreeWriteMs: baselines.btree, fileBytes, sizes: parts, summary,
    queries: results.map(({ cls, keyword, filterName, ms: t, baseMs, total }) => ({ cls, keyword, filterName, ms: t, baseMs, total })),
  };
}

async function partExtraction(tmp, texts) {
  const extract = serverRequire('./dist/modules/search/extract.js');
  const txt = [];
  for (let i = 0; i < Math.min(EXTRACT_TXT, texts.length); i++) {
    const file = path.join(tmp, `doc${i}.txt`);
    fs.writeFileSync(file, texts[i]);
    txt.push(file);
  }
  const docx = [];
  for (let i = 0; i < Math.min(EXTRACT_DOCX, texts.length); i++) {
    const file = path.join(tmp, `doc${i}.docx`);
    await writeDocx(file, texts[texts.length - 1 - i]);
    docx.push(file);
  }
  const rows = [];
  const out = {};
  for (const [kind, files, ext] of [['txt', txt, 'txt'], ['docx', docx, 'docx']]) {
    const fileBytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
    let textBytes = 0;
    const readTimes = [];
    const extractTimes = [];
    for (let run = 0; run < EXTRACT_RUNS + 1; run++) {
      let t0 = performance.now();
      for (const f of files) await fs.promises.readFile(f);
      const readMs = performance.now() - t0;
      t0 = performance.now();
      textBytes = 0;
      for (const f of files) textBytes += Buffer.byteLength((await extract.extractForSearch(f, ext)).text);
      const extractMs = performance.now() - t0;
      if (run > 0) { // the first run warms up
        readTimes.push(readMs);
        extractTimes.push(extractMs);
      }
    }
    const readMs = median(readTimes);
    const extractMs = median(extractTimes);
    const readRate = fileBytes / 1024 / 1024 / (readMs / 1000);
    const textRate = textBytes / 1024 / 1024 / (extractMs / 1000);
    out[kind] = { files: files.length, fileBytes, textBytes, readMs, extractMs, readMBs: readRate, extractTextMBs: textRate };
    rows.push({ what: `baseline: fs.readFile of ${files.length} .${kind}`, size: mb(fileBytes), t: f1(readMs), rate: `${readRate.toFixed(0)} MB/s (file)`, r: '1.00×' });
    rows.push({ what: `extractForSearch of the same ${files.length} .${kind}`, size: `${mb(textBytes)} text`, t: f1(extractMs), rate: `${textRate.toFixed(0)} MB/s (text)`, r: `${(readRate / textRate).toFixed(1)}× slower` });
  }
  console.log(`\nExtraction (median of ${EXTRACT_RUNS} after a warm-up, files in the page cache; .docx made with yazl, one paragraph per line)`);
  printTable([
    { key: 'what', title: 'what' }, { key: 'size', title: 'bytes', align: 'right' }, { key: 't', title: 'time', align: 'right' },
    { key: 'rate', title: 'throughput', align: 'right' }, { key: 'r', title: 'vs readFile', align: 'right' },
  ], rows);
  return out;
}

const CONTENT_CLASSES = ['中文 1 字', '中文 2 字', '中文 3+ 字', 'Latin 1–2', 'Latin 3+'];

function contentKeywords(r, texts, cls, count) {
  const out = [];
  while (out.length < count) {
    if (cls === 'Latin 1–2') out.push(pickFrom(r, ['a', 'e', 'o', 're', 'v2', 'pl', 'in', 'de', 'x', 'ok', 'st', '12']));
    else if (cls === 'Latin 3+') out.push(pickFrom(r, ['report', 'plan', 'final', 'draft', 'summary', 'budget', 'review', 'minutes', 'design', 'notes', 'con', 'rep', 'invoice', 'zzz', '2024', '123']));
    else {
      const text = texts[Math.floor(r() * texts.length)];
      const len = cls === '中文 1 字' ? 1 : cls === '中文 2 字' ? 2 : 3 + Math.floor(r() * 4);
      const at = Math.floor(r() * (text.length - len));
      const k = text.slice(at, at + len);
      if (!/^[\u4e00-\u9fff]+$/.test(k)) continue;
      // one in five 3+ keywords: two words that may never meet
      out.push(len >= 3 && r() < 0.2 ? word(r) + pickFrom(r, VOCAB) : k);
    }
  }
  return out;
}

async function partContent(server, user, ctx, tmp) {
  const { token } = user;
  const r = rng(62);
  let t0 = performance.now();
  const texts = Array.from({ length: DOCS }, () => documentText(r, 2048 + Math.floor(r() * 18 * 1024)));
  const genMs = performance.now() - t0;
  const textBytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);
  const extraction = await partExtraction(tmp, texts);

  const folder = await createFolder(server, token, ctx.root.id, '一万篇文档');
  const dbFile = path.join(server.dataDir, 'app.db');
  const db = openDb(dbFile);
  const parent = db.prepare('select * from items where id = ?').get(Number(folder.id));
  const firstId = Number(db.prepare('select max(id) as m from items').get().m) + 1_000;
  const now = Date.now();
  const insertItem = db.prepare(`insert into items (${ITEM_COLUMNS}) values (${ITEM_VALUES})`);
  const insertText = db.prepare(`insert into item_texts (item_id, blob_id, status, text, truncated, error, extracted_at) values (?, null, 'done', ?, 0, '', ?)`);
  const names = [];
  t0 = performance.now();
  db.transaction(() => {
    for (let i = 0; i < DOCS; i++) {
      const id = firstId + i;
      const name = `${word(r)}${word(r)}_${String(i).padStart(5, '0')}.txt`;
      names.push(name);
      const updated = now - Math.floor(r() * SPAN_DAYS * DAY);
      insertItem.run({
        id, parent_id: parent.id, space_type: parent.space_type, owner_id: parent.owner_id, name, name_key: name.toLowerCase(), type: 'file', type_order: 1,
        extension: 'txt', size: Buffer.byteLength(texts[i]), id_path: `${parent.id_path}/${id}`, name_path: `${parent.name_path}/${name}`,
        created_at: updated - DAY, updated_at: updated, child_folders: 0, child_files: 0,
      });
      insertText.run(id, texts[i], updated);
    }
    db.prepare('update items set child_files = ? where id = ?').run(DOCS, parent.id);
  })();
  const writeMs = performance.now() - t0;
  db.pragma('optimize');
  db.pragma('wal_checkpoint(TRUNCATE)');
  const fileBytes = fs.statSync(dbFile).size;
  const parts = sizes(db);
  db.close();
  await settle();
  console.log(`\nFull-text search: ${DOCS.toLocaleString('en')} documents, ${mb(textBytes)} of UTF-8 text (generated in ${(genMs / 1000).toFixed(1)} s), items + item_texts rows written in one transaction in ${(writeMs / 1000).toFixed(1)} s (${(textBytes / 1024 / 1024 / (writeMs / 1000)).toFixed(1)} MB/s of text through the FTS5 triggers); database file now ${mb(fileBytes)} (${Object.entries(parts).map(([k, v]) => `${k} ${mb(v)}`).join(', ')})`);

  const perClass = Math.ceil(QUERIES / CONTENT_CLASSES.length);
  const ctxContent = { ...ctx, topFolders: [Number(folder.id)], subFolders: [Number(folder.id)] };
  let queries = CONTENT_CLASSES.flatMap((cls) => withFilters(r, contentKeywords(r, texts, cls, perClass), cls, ctxContent));
  queries = queries.map((q, i) => ({ q, k: (i % perClass) * CONTENT_CLASSES.length + Math.floor(i / perClass) })).sort((a, b) => a.k - b.k).map((x) => x.q).slice(0, QUERIES);
  const warmups = CONTENT_CLASSES.flatMap((cls) => withFilters(r, contentKeywords(r, texts, cls, 4), cls, ctxContent));
  const results = await timeQueries(server, token, 'Content', queries, ctx.fileIds, warmups, (q, res) => {
    const bad = res.data.find((d) => !String(d.highlight).toLowerCase().includes(q.keyword.toLowerCase()));
    if (bad) throw new Error(`content search for ${q.keyword} returned ${bad.name} with the highlight ${bad.highlight}`);
  });
  console.log(`\nFull-text search: GET /api/User/Search/Content, pageSize ${SEARCH_PAGE_SIZE}, first page, ${results.length} queries after ${warmups.length} warm-ups, each right after a GET /api/User/Files/{id} (the by-id baseline)`);
  console.log(`p99 by nearest rank (of a class's ${Math.ceil(QUERIES / CONTENT_CLASSES.length)} queries: the slowest); goal: p99 under ${GOAL_P99_MS} ms`);
  const summary = summarize(results, CONTENT_CLASSES, 'keyword class', GOAL_P99_MS);
  console.log('');
  byFilter(results);
  ctx.docsFolder = Number(folder.id);
  return {
    docs: DOCS, textBytes, writeMs, fileBytes, sizes: parts, extraction, summary,
    queries: results.map(({ cls, keyword, filterName, ms: t, baseMs, total }) => ({ cls, keyword, filterName, ms: t, baseMs, total })),
  };
}

async function partLists(server, user, ctx) {
  const { token } = user;
  const count = Math.min(DOCS, ctx.names.names.length - ctx.names.folders);
  const tag = await apiOk(server, 'POST', '/api/User/Tags', { token, body: { name: '基准测试', color: '#1677ff' } });
  const db = openDb(path.join(server.dataDir, 'app.db'));
  // every (files / count)-th file of part 1: spread over all its folders
  const files = ctx.names.names.length - ctx.names.folders;
  const ids = Array.from({ length: count }, (_, i) => ctx.firstId + ctx.names.folders + Math.floor((i * files) / count));
  const now = Date.now();
  const fav = db.prepare('insert into favorites (user_id, item_id, category_id, created_at) values (?, ?, null, ?)');
  const tagged = db.prepare('insert into item_tags (tag_id, item_id, created_by, created_at) values (?, ?, ?, ?)');
  db.transaction(() => {
    ids.forEach((itemId, i) => {
      // not in id order: favourited and tagged over time, in another order than created
      const at = now - ((i * 7919) % count) * 60_000;
      fav.run(Number(user.userId), itemId, at);
      tagged.run(Number(tag.id), itemId, Number(user.userId), at);
    });
  })();
  db.pragma('optimize');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  await settle();

  const last = String(Math.ceil(count / LIST_PAGE_SIZE));
  const q = (page) => `page=${page}&pageSize=${LIST_PAGE_SIZE}`;
  const cases = [
    ['folder', 'first', `/api/User/Folders/${ctx.docsFolder}/Items?${q(1)}`],
    ['folder', 'last', `/api/User/Folders/${ctx.docsFolder}/Items?${q(last)}`],
    ['favourites', 'first', `/api/User/Favorites/-1?${q(1)}`],
    ['favourites', 'last', `/api/User/Favorites/-1?${q(last)}`],
    ['tag', 'first', `/api/User/Tags/${tag.id}/Files?${q(1)}`],
    ['tag', 'last', `/api/User/Tags/${tag.id}/Files?${q(last)}`],
  ];
  const out = {};
  const timings = await timeLists(server, token, cases.map((c) => c[2]));
  cases.forEach(([list, page, url], i) => {
    if (timings[i].total !== count) throw new Error(`${url} reports ${timings[i].total} items, not ${count}`);
    out[`${list} ${page}`] = timings[i];
  });
  const rows = cases.map(([list, page]) => {
    const t = out[`${list} ${page}`];
    const base = out[`folder ${page}`];
    return {
      what: list === 'folder' ? `baseline: folder of ${count.toLocaleString('en')} items (/api/User/Folders/{id}/Items), ${page} page`
        : list === 'favourites' ? `favourites (/api/User/Favorites/-1), ${page} page` : `personal tag (/api/User/Tags/{id}/Files), ${page} page`,
      t: f1(t.median), n: t.rows, r: ratio(t.median, base.median),
    };
  });
  console.log(`\nFavourites and tags: ${count.toLocaleString('en')} favourited and tagged files spread over the ${ITEMS.toLocaleString('en')} items, pageSize ${LIST_PAGE_SIZE}, median of ${LIST_RUNS} interleaved rounds after a warm-up (goal: about 1×)`);
  printTable([
    { key: 'what', title: 'request' }, { key: 't', title: 'median', align: 'right' }, { key: 'n', title: 'rows', align: 'right' },
    { key: 'r', title: 'vs folder, same page', align: 'right' },
  ], rows);
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.median]));
}

export async function run() {
  const server = await startServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-search-'));
  try {
    const admin = await login(server);
    const made = await createUser(server, admin.token, { userName: 'bench_search', nickName: '搜索基准', password: 'Bench-Search-Passw0rd!' });
    const session = await login(server, made.userName, made.password);
    const user = { ...made, token: session.token };
    const ctx = { root: await personalRoot(server, user.token) };
    const names = await partNames(server, user, ctx);
    const content = await partContent(server, user, ctx, tmp);
    const lists = await partLists(server, user, ctx);
    return { names, content, lists };
  } catch (err) {
    err.message += `\nserver output (last lines):\n${server.output().split('\n').slice(-30).join('\n')}`;
    throw err;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    await server.stop();
  }
}
