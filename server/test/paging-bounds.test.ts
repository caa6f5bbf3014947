// Paging bounds: a page number far past any list (`page=1e30`, a valid JSON-Schema integer)
// answers 400 with a Chinese message on every paged call, never a 500 from an offset that SQL
// cannot take; the last page number allowed answers an empty page.
import { MAX_PAGE } from '../src/lib/paging';
import { call, databaseKinds, HAN, login, startServer, type TestServer } from './support/harness';

const PAGED_CALLS = [
  '/api/Admin/Users',
  '/api/Admin/Registrations',
  '/api/Workflow/Instances?box=mine',
  '/api/Ferry/FerryTasks?status=processing',
  '/api/Ferry/Inbox',
  '/api/Ferry/Audit',
  '/api/User/Folders/2/Items',
  '/api/User/Recycle',
  '/api/User/Search/Files?keyword=a',
  '/api/User/Search/Content?keyword=abc',
  '/api/User/Favorites/-1',
  '/api/User/Shares/Sent',
  '/api/User/Shares/Received',
  '/api/User/Organizations/Users',
  '/api/User/Tags/{tag}/Files',
];

describe.each(databaseKinds())('paging bounds (%s)', (kind) => {
  let server: TestServer;
  let token: string;
  let tagId: string;

  beforeAll(async () => {
    server = await startServer(kind);
    token = (await login(server.app)).token;
    tagId = (await call(server.app, 'POST', '/api/User/Tags', { token, body: { name: '分页', color: '#1677ff', isPublic: false } })).body.result.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const withPage = (template: string, page: string) => {
    const url = template.replace('{tag}', tagId);
    return `${url}${url.includes('?') ? '&' : '?'}page=${page}`;
  };

  test.each(PAGED_CALLS)('%s: page=1e30 is refused with 400 and a Chinese message', async (url) => {
    for (const page of ['1e30', '9007199254740993', String(MAX_PAGE + 1)]) {
      const res = await call(server.app, 'GET', withPage(url, page), { token });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(40001);
      expect(res.body.message).toMatch(HAN);
      expect(res.body.message).toContain('page');
    }
  });

  test.each(PAGED_CALLS)('%s: the last page allowed answers an empty page', async (url) => {
    const res = await call(server.app, 'GET', withPage(url, String(MAX_PAGE)), { token });
    expect(res.status).toBe(200);
    const result = res.body.result;
    const rows = Array.isArray(result?.data) ? result.data : Array.isArray(result?.items?.data) ? result.items.data : result;
    expect(rows).toEqual([]);
  });
});
