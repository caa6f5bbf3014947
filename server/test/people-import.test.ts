// 批量导入 / 导出 of people through the API, on SQLite and PostgreSQL: the template; a file with
// bad rows refused row by row (line and Chinese reason) with nothing written; a good file
// checked, applied (departments made by path, initial passwords returned once and changed at
// the first sign-in) and imported again to no change; an export that re-imports to no change;
// full sync disabling only after the count is confirmed; one apply only; administrators only.
import ExcelJS from 'exceljs';
import { call, databaseKinds, HAN, login, ok, startServer, type TestServer } from './support/harness';
import { multipartBody } from './support/uploads';

const COLUMNS = ['用户名', '昵称', '部门', '工号', '手机', '邮箱', '角色', '个人空间配额(GB)', '状态'];
const csv = (rows: string[][]) => Buffer.from('\ufeff' + [COLUMNS, ...rows].map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\r\n'));

async function xlsx(rows: (string | { formula: string })[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(COLUMNS);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function readXlsx(bytes: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: string[][] = [];
  book.worksheets[0].eachRow((row) => out.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))));
  return out;
}

describe.each(databaseKinds())('people import and export (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  const app = () => server.app;

  const check = async (file: Buffer, name: string, mode: 'upsert' | 'sync' = 'upsert', token = adminToken) => {
    const { payload, contentType } = await multipartBody({ mode }, file, name);
    return call(app(), 'POST', '/api/Admin/Users/Import', { token, body: payload, headers: { 'content-type': contentType } });
  };
  const plan = async (file: Buffer, name: string, mode: 'upsert' | 'sync' = 'upsert') => {
    const res = await check(file, name, mode);
    if (res.status !== 200) throw new Error(`check: ${res.status} ${res.text}`);
    return res.body.result;
  };
  const apply = (importId: string, confirmDisable = 0) => call(app(), 'POST', `/api/Admin/Users/Import/${importId}/Apply`, { token: adminToken, body: { confirmDisable } });
  const count = async () => (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { pageSize: 1 } })).total as number;
  const byName = async (userName: string) =>
    (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { keyword: userName, pageSize: 50 } })).data.find((u: { userName: string }) => u.userName === userName);

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(app())).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  test('the template comes in both formats with the same columns and an example row', async () => {
    const x = await call(app(), 'GET', '/api/Admin/Users/Import/Template', { token: adminToken, query: { format: 'xlsx' } });
    expect(x.status).toBe(200);
    expect(String(x.headers['content-disposition'])).toContain('.xlsx');
    const rows = await readXlsx(x.raw);
    expect(rows[0]).toEqual(COLUMNS);
    const c = await call(app(), 'GET', '/api/Admin/Users/Import/Template', { token: adminToken, query: { format: 'csv' } });
    expect(c.text.startsWith('\ufeff用户名,昵称,部门,工号,手机,邮箱,角色,个人空间配额(GB),状态\r\n')).toBe(true);
    expect(c.text).toContain('总部/研发中心/前端组');
  });

  test('bad rows are refused one by one with their line and a Chinese reason, and nothing is written', async () => {
    const before = await count();
    const file = csv([
      ['alice', '爱丽丝', '总部/研发中心', 'A001', '13800000001', 'alice@example.com', '文档管理员', '', '正常'],
      ['bob', '鲍勃', '总部//前端组', '', '', '', '', '', ''],
      ['carol', '', '', '', '12345', '', '', '', ''],
      ['alice', '又一个爱丽丝', '', '', '', '', '', '', ''],
      ['dave', '', '', '', '', '', '国王', '', ''],
      ['erin', '=HYPERLINK("http://evil")', '', '', '', '', '', '', ''],
      ['frank', '', '', '', '', 'not-mail', '', 'abc', '离职'],
    ]);
    const p = await plan(file, 'people.csv');
    const lines = p.errors.map((e: { line: number; column: string }) => `${e.line}:${e.column}`);
    expect(lines).toEqual(['3:部门', '4:手机', '5:用户名', '6:角色', '7:昵称', '8:邮箱', '8:个人空间配额(GB)', '8:状态']);
    for (const e of p.errors) expect(e.reason).toMatch(HAN);
    expect(p.errors.find((e: { line: number }) => e.line === 5).reason).toBe('与第 2 行的用户名重复');
    expect(p).toMatchObject({ adds: 0, updates: 0, departmentsToCreate: [] });
    expect((await apply(p.importId)).status).toBe(409);
    expect(await count()).toBe(before);
    expect(await byName('alice')).toBeUndefined();

    // a formula cell of an Excel file
    const x = await plan(await xlsx([['gina', { formula: '1+1' }, '', '', '', '', '', '', '']]), 'people.xlsx');
    expect(x.errors).toEqual([{ line: 2, userName: 'gina', column: '昵称', reason: '单元格是公式，请改为文字' }]);
  });

  test('more than 10,000 rows refuse the whole file', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => [`bulk${i}`, '', '', '', '', '', '', '', '']);
    const res = await check(csv(rows), 'big.csv');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('一次最多导入 10,000 行，本文件有 10,001 行，请分批导入');
    // an Excel file far over the limit: every row is counted, though only the first are kept
    const big = await xlsx(Array.from({ length: 12_345 }, (_, i) => [`bulk${i}`, '', '', '', '', '', '', '', '']));
    const x = await check(big, 'big.xlsx');
    expect(x.status).toBe(400);
    expect(x.body.message).toBe('一次最多导入 10,000 行，本文件有 12,345 行，请分批导入');
  });

  test('a good file makes departments by path and people with initial passwords; the same file again changes nothing', async () => {
    const file = await xlsx([
      ['hana', '花子', '总部/市场中心/华东组', 'M001', '13800000011', 'hana@example.com', '文档管理员、流程管理员', '20', '正常'],
      ['ivan', '伊万', '市场中心/华南组', 'M002', '', '', '', '', ''],
      ['jun', '小军', '', '', '', '', '', '0.5', '停用'],
    ]);
    const p = await plan(file, 'good.xlsx');
    expect(p).toMatchObject({ errors: [], total: 3, adds: 3, updates: 0, unchanged: 0, departmentsToCreate: ['总部/市场中心', '总部/市场中心/华东组', '总部/市场中心/华南组'] });
    const res = await apply(p.importId);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ added: 3, updated: 0, disabled: 0, departmentsCreated: 3 });
    const pw = Object.fromEntries(res.body.result.passwords.map((x: { userName: string; initialPassword: string }) => [x.userName, x.initialPassword]));
    expect(Object.keys(pw).sort()).toEqual(['hana', 'ivan', 'jun']);
    expect(await byName('hana')).toMatchObject({ deptName: '总部/市场中心/华东组', employeeNo: 'M001', roles: ['docAdmin', 'flowAdmin'], quota: 20 * 1024 ** 3, mustChangePassword: true });
    expect(await byName('jun')).toMatchObject({ disabled: true, quota: 512 * 1024 ** 2, deptName: '总部' });
    const first = await login(app(), 'hana', pw.hana);
    expect(first.passwordReset).toBe(true);
    // applied once only
    expect((await apply(p.importId)).status).toBe(409);

    const again = await plan(file, 'good.xlsx');
    expect(again).toMatchObject({ errors: [], adds: 0, updates: 0, unchanged: 3, departmentsToCreate: [] });
    expect((await apply(again.importId)).body.result).toMatchObject({ added: 0, updated: 0, disabled: 0, passwords: [] });

    // an edit: one person moves and gets a number
    const edited = await plan(csv([['ivan', '', '总部/市场中心/华东组', '', '13800000012', '', '', '', '']]), 'edit.csv');
    expect(edited).toMatchObject({ adds: 0, updates: 1, unchanged: 0 });
    expect(edited.samples.updates[0].changes).toEqual(['部门：总部/市场中心/华南组 → 总部/市场中心/华东组', '手机：空 → 13800000012']);
    await apply(edited.importId);
    expect(await byName('ivan')).toMatchObject({ deptName: '总部/市场中心/华东组', mobile: '13800000012', employeeNo: 'M002' });
  });

  test('an export imports back to no change, in either format', async () => {
    for (const format of ['xlsx', 'csv'] as const) {
      const res = await call(app(), 'GET', '/api/Admin/Users/Export', { token: adminToken, query: { format } });
      expect(res.status).toBe(200);
      const bytes = res.raw;
      const p = await plan(bytes, `export.${format}`);
      expect(p).toMatchObject({ errors: [], adds: 0, updates: 0, unchanged: await count() });
    }
  });

  test('full sync disables the people the file leaves out, only after the count is confirmed', async () => {
    const all = (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { status: 'enabled', pageSize: 200 } })).data;
    const keep = all.filter((u: { userName: string }) => u.userName !== 'hana');
    const file = csv(keep.map((u: { userName: string }) => [u.userName, '', '', '', '', '', '', '', '']));
    const p = await plan(file, 'sync.csv', 'sync');
    expect(p).toMatchObject({ errors: [], disables: 1, samples: { disables: ['hana'] } });
    const wrong = await apply(p.importId, 0);
    expect(wrong.status).toBe(409);
    expect(wrong.body.message).toMatch(HAN);
    expect((await byName('hana')).disabled).toBe(false);
    expect((await apply(p.importId, 1)).body.result).toMatchObject({ disabled: 1 });
    expect((await byName('hana')).disabled).toBe(true);
    // the administrator is never disabled by a sync that leaves them out
    const none = await plan(csv([['hana', '', '', '', '', '', '', '', '']]), 'only.csv', 'sync');
    expect(none.samples.disables).not.toContain('admin');
  });

  test('only system administrators may import', async () => {
    const { userId } = await ok(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName: 'plain_importer', password: 'Plain-Passw0rd-1', mustChangePassword: false } });
    expect(userId).toBeTruthy();
    const token = (await login(app(), 'plain_importer', 'Plain-Passw0rd-1')).token;
    const res = await check(csv([['sneaky', '', '', '', '', '', '系统管理员', '', '']]), 'x.csv', 'upsert', token);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 40301 });
    expect((await call(app(), 'GET', '/api/Admin/Users/Export', { token })).status).toBe(403);
    expect(await byName('sneaky')).toBeUndefined();
  });
});
