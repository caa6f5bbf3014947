// The 云文档 API envelope: every /api reply is { code, result, message } with a Chinese
// message; Fastify's and Ajv's English never reaches the client, nor does a stack or SQL.
import { call, databaseKinds, ENGLISH_FRAMEWORK_TEXT, HAN, login, startServer, type TestServer } from './support/harness';

function expectEnvelope(res: { status: number; body: any; text: string; headers: Record<string, unknown> }, status: number, code: number) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'result']);
  expect(res.body.code).toBe(code);
  expect(res.body.result).toBeNull();
  expect(res.body.message).toMatch(HAN);
  expect(res.text).not.toMatch(ENGLISH_FRAMEWORK_TEXT);
}

describe.each(databaseKinds())('envelope and status codes (%s)', (kind) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(kind);
    token = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  test('a successful call is HTTP 200, code 200, message null, and not cached', async () => {
    const res = await call(server.app, 'GET', '/api/User/Home', { token });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.message).toBeNull();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('an unknown /api route answers the 404 envelope, with or without a session', async () => {
    for (const [method, url, o] of [
      ['GET', '/api/No/Such/Call', {}],
      ['GET', '/api/No/Such/Call', { token }],
      ['POST', '/api/No/Such/Call', { token, body: {} }],
      ['DELETE', '/api/User/Home', { token }],
      ['GET', '/api', {}],
    ] as const) {
      const res = await call(server.app, method, url, o);
      expectEnvelope(res, 404, 404);
      expect(res.body.message).toBe('请求的接口不存在');
    }
  });

  test('validation failures are HTTP 400, code 40001, with a Chinese message naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ password: 'x' }, /^缺少必填参数 userName$/],
      [{ userName: {}, password: 'x' }, /^参数 userName 的类型不正确，应为字符串$/],
      [{ userName: '', password: 'x' }, /^参数 userName 不能为空$/],
      [{ userName: 'a', password: 'x'.repeat(300) }, /^参数 password 的长度不能超过 256 个字符$/],
    ];
    for (const [body, message] of cases) {
      const res = await call(server.app, 'POST', '/api/login', { body });
      expectEnvelope(res, 400, 40001);
      expect(res.body.message).toMatch(message);
    }
  });

  test('a missing body, broken JSON or another content type answer in Chinese too', async () => {
    const empty = await call(server.app, 'POST', '/api/login');
    expectEnvelope(empty, 400, 40001);
    expect(empty.body.message).toBe('请求内容的类型不正确，应为对象');

    const broken = await call(server.app, 'POST', '/api/login', { body: '{"userName": "adm', headers: { 'content-type': 'application/json' } });
    expectEnvelope(broken, 400, 40001);
    expect(broken.body.message).toBe('请求内容不是合法的 JSON');

    const text = await call(server.app, 'POST', '/api/login', { body: 'userName=admin', headers: { 'content-type': 'text/xml' } });
    expectEnvelope(text, 415, 415);
  });

  test('unexpected failures answer 500 with a generic Chinese message and no details', async () => {
    const broken = await server.restart();
    await broken.db.destroy(); // the database goes away under the running server
    const res = await call(broken, 'GET', '/api/EnvironmentConfig');
    expectEnvelope(res, 500, 500);
    expect(res.body.message).toBe('服务器内部错误，请稍后重试');
    expect(res.text).not.toMatch(/select|from|settings|kysely|driver|at |\/|\\/i);
  });
});
