// 云文档 client authorization (issue 16): OAuth 2.0 authorization code with PKCE. An
// administrator registers a client; the user grants or denies; the client exchanges the
// one-time code with its verifier for its own token, which does only what its scopes allow,
// is listed and revocable by the user, and ends with a password change; on SQLite and PostgreSQL.
import crypto from 'node:crypto';
import { call, databaseKinds, HAN, login, ok, startServer, userWithToken, type TestServer, type TestUser } from './support/harness';

const verifier = () => crypto.randomBytes(32).toString('base64url');
const challengeOf = (v: string) => crypto.createHash('sha256').update(v).digest('base64url');

describe.each(databaseKinds())('client authorization (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let user: TestUser;
  let client: { clientId: string; name: string; redirectUris: string[] };
  const app = () => server.app;
  const REDIRECT = 'http://127.0.0.1:53682/callback';

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
    user = await userWithToken(server.app, adminToken);
    client = await ok(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '云文档桌面同步', redirectUris: [REDIRECT, 'yunwendang-desktop://auth'] } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const requestOf = (o: Record<string, string> = {}, v = verifier()) =>
    ({
      text: new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'profile files',
        state: 'st-123',
        code_challenge: challengeOf(v),
        code_challenge_method: 'S256',
        ...o,
      }).toString(),
      verifier: v,
    });
  const expectError = (res: { status: number; body: any }, status: number, message: string | RegExp) => {
    expect({ status: res.status, result: res.body?.result }).toEqual({ status, result: null });
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).toMatch(message);
  };
  /** Grants the request as the user and exchanges the code; returns the client's token. */
  async function grantAndExchange(token: string, scope = 'profile files') {
    const req = requestOf({ scope });
    const { redirectTo } = await ok(app(), 'POST', '/api/OAuth/Authorize', { token, body: { request: req.text, approve: true } });
    const back = new URL(redirectTo);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-123');
    const code = back.searchParams.get('code') as string;
    const res = await call(app(), 'POST', '/api/OAuth/Token', {
      body: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId, code_verifier: req.verifier },
    });
    expect(res.status).toBe(200);
    return { code, req, access: res.body.result as { access_token: string; token_type: string; scope: string } };
  }

  test('the authorization page learns the client and scopes; bad requests are refused in Chinese', async () => {
    const info = await ok(app(), 'GET', '/api/OAuth/Request', { token: user.token, query: { request: requestOf().text } });
    expect(info).toMatchObject({ clientId: client.clientId, clientName: '云文档桌面同步', redirectUri: REDIRECT });
    expect(info.scopes.map((s: any) => s.name)).toEqual(['profile', 'files']);
    expect(info.scopes[0].description).toMatch(HAN);

    const bad = async (o: Record<string, string>, message: RegExp) =>
      expectError(await call(app(), 'GET', '/api/OAuth/Request', { token: user.token, query: { request: requestOf(o).text } }), 400, message);
    await bad({ redirect_uri: 'https://evil.example.com/callback' }, /回调地址未登记/);
    await bad({ client_id: 'client_nope' }, /客户端不存在或已停用/);
    await bad({ code_challenge_method: 'plain' }, /PKCE/);
    await bad({ scope: 'admin' }, /不支持的授权范围 admin/);
    // the answer call checks the same way: no code is ever sent to an unregistered address
    expectError(
      await call(app(), 'POST', '/api/OAuth/Authorize', { token: user.token, body: { request: requestOf({ redirect_uri: 'https://evil.example.com/cb' }).text, approve: true } }),
      400,
      /回调地址未登记/,
    );
    // only a signed-in user answers
    expect((await call(app(), 'POST', '/api/OAuth/Authorize', { body: { request: requestOf().text, approve: true } })).status).toBe(401);
  });

  test('a denial sends the browser back with access_denied and no code', async () => {
    const { redirectTo } = await ok(app(), 'POST', '/api/OAuth/Authorize', { token: user.token, body: { request: requestOf().text, approve: false } });
    const back = new URL(redirectTo);
    expect(Object.fromEntries(back.searchParams)).toEqual({ state: 'st-123', error: 'access_denied' });
  });

  test('a grant gives a one-time code; with its verifier it becomes a token that works within its scopes', async () => {
    const { code, req, access } = await grantAndExchange(user.token);
    expect(access).toMatchObject({ token_type: 'Bearer', scope: 'profile files' });
    const bearer = access.access_token;
    expect((await ok(app(), 'GET', '/api/OAuth/UserInfo', { token: bearer })).userId).toBe(user.userId);
    expect((await call(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: bearer })).status).toBe(200);
    // never the user's own account settings, administration or other grants
    for (const [method, url] of [
      ['GET', '/api/account/Sessions'],
      ['POST', '/api/account/changepassword'],
      ['POST', '/api/OAuth/Authorize'],
    ] as const) {
      const res = await call(app(), method, url, { token: bearer, body: method === 'POST' ? {} : undefined });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('该客户端未获授权执行此操作');
    }
    // the code is spent
    expectError(
      await call(app(), 'POST', '/api/OAuth/Token', {
        body: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId, code_verifier: req.verifier },
      }),
      400,
      '授权码无效或已过期，请重新授权',
    );
  });

  test('the exchange needs the right verifier, client and address; a form body works as OAuth clients send it', async () => {
    const req = requestOf();
    const { redirectTo } = await ok(app(), 'POST', '/api/OAuth/Authorize', { token: user.token, body: { request: req.text, approve: true } });
    const code = new URL(redirectTo).searchParams.get('code') as string;
    const exchange = (o: Record<string, string>) =>
      call(app(), 'POST', '/api/OAuth/Token', {
        body: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId, code_verifier: req.verifier, ...o },
      });
    expectError(await exchange({ code_verifier: verifier() }), 400, /PKCE 校验失败/);
    expectError(await exchange({ redirect_uri: 'yunwendang-desktop://auth' }), 400, '授权码无效或已过期，请重新授权');
    const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId, code_verifier: req.verifier });
    const res = await call(app(), 'POST', '/api/OAuth/Token', { body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(200);
    expect(res.body.result.access_token).toEqual(expect.any(String));
  });

  test('a profile-only token reads who the user is and nothing else', async () => {
    const { access } = await grantAndExchange(user.token, 'profile');
    expect((await call(app(), 'GET', '/api/User/Home', { token: access.access_token })).status).toBe(200);
    expect((await call(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: access.access_token })).status).toBe(403);
  });

  test('the user lists and revokes the client; a password change ends client tokens too; a removed client stops', async () => {
    const person = await userWithToken(app(), adminToken);
    const first = (await grantAndExchange(person.token)).access.access_token;
    const listed = await ok(app(), 'GET', '/api/account/Clients', { token: person.token });
    expect(listed).toEqual([expect.objectContaining({ clientId: client.clientId, name: '云文档桌面同步' })]);
    expect(listed[0].scopes).toHaveLength(2);
    // client tokens are not among 我的会话
    expect((await ok(app(), 'GET', '/api/account/Sessions', { token: person.token })).length).toBe(1);

    await ok(app(), 'DELETE', `/api/account/Clients/${client.clientId}`, { token: person.token });
    expect((await call(app(), 'GET', '/api/OAuth/UserInfo', { token: first })).status).toBe(401);
    expect(await ok(app(), 'GET', '/api/account/Clients', { token: person.token })).toEqual([]);

    const second = (await grantAndExchange(person.token)).access.access_token;
    await ok(app(), 'POST', '/api/account/changepassword', { token: person.token, body: { oldPassword: person.password, newPassword: 'Changed-Passw0rd-5' } });
    expect((await call(app(), 'GET', '/api/OAuth/UserInfo', { token: second })).status).toBe(401);

    const third = (await grantAndExchange(person.token)).access.access_token;
    const other = await ok(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '另一个', redirectUris: ['https://app.example.com/cb'] } });
    expect((await call(app(), 'DELETE', `/api/Admin/Clients/${other.clientId}`, { token: person.token })).status).toBe(403);
    await ok(app(), 'DELETE', `/api/Admin/Clients/${client.clientId}`, { token: adminToken });
    expect((await call(app(), 'GET', '/api/OAuth/UserInfo', { token: third })).status).toBe(401);
    expectError(await call(app(), 'GET', '/api/OAuth/Request', { token: person.token, query: { request: requestOf().text } }), 400, /客户端不存在或已停用/);
    // and again for later tests in this file
    client = await ok(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '云文档桌面同步', redirectUris: [REDIRECT] } });
  });

  test('registering a client refuses unsafe redirect addresses', async () => {
    for (const uri of ['javascript:alert(1)', 'http://example.com/cb', 'https://app.example.com/cb#x', 'not a url']) {
      const res = await call(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '坏的', redirectUris: [uri] } });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(HAN);
    }
  });
});
