// 云文档 client authorization: OAuth 2.0 authorization code with PKCE. An administrator
// registers a client; the user grants or denies; the client exchanges the one-time code with its
// verifier for a short-lived access token and a rotating refresh token, which do only what their
// scopes allow, are listed and revocable by the user, and end with a password change. The token
// and revocation endpoints are driven over HTTP by a standard OAuth client library
// (oauth4webapi), as an outside client would; on SQLite and PostgreSQL.
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import type { App } from '../src/app';
import { call, databaseKinds, HAN, login, ok, startServer, userWithToken, type TestServer, type TestUser } from './support/harness';

const verifier = () => crypto.randomBytes(32).toString('base64url');
const challengeOf = (v: string) => crypto.createHash('sha256').update(v).digest('base64url');
const REDIRECT = 'http://127.0.0.1:53682/callback';
/** the OAuth library refuses plain http except when told so: the tests run on loopback */
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** Starts an app listening on 127.0.0.1 (a random port); returns its base address. */
async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

describe.each(databaseKinds())('client authorization (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let user: TestUser;
  let client: { clientId: string; name: string; redirectUris: string[] };
  let base: string;
  const app = () => server.app;

  beforeAll(async () => {
    server = await startServer(kind);
    base = await listen(server.app);
    adminToken = (await login(server.app)).token;
    user = await userWithToken(server.app, adminToken);
    client = await ok(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '云文档桌面同步', redirectUris: [REDIRECT, 'yunwendang-desktop://auth'] } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const as = (at = base): oauth.AuthorizationServer => ({
    issuer: at,
    token_endpoint: `${at}/api/OAuth/Token`,
    revocation_endpoint: `${at}/api/OAuth/Revoke`,
  });
  const oauthClient = (): oauth.Client => ({ client_id: client.clientId });

  const requestOf = (o: Record<string, string> = {}, v = verifier()) => ({
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
  /** An envelope error of the product's own calls. */
  const expectError = (res: { status: number; body: any }, status: number, message: string | RegExp) => {
    expect({ status: res.status, result: res.body?.result }).toEqual({ status, result: null });
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).toMatch(message);
  };
  /** An OAuth error of the token endpoint (RFC 6749 section 5.2): no envelope, never cached. */
  const expectOAuthError = (res: { status: number; body: any; headers: Record<string, unknown> }, error: string, description?: RegExp | string) => {
    expect(res.status).toBe(error === 'invalid_client' ? 401 : 400);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'error_description']);
    expect(res.body.error).toBe(error);
    expect(res.body.error_description).toMatch(HAN);
    if (description) expect(res.body.error_description).toMatch(description);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
  };
  /** The user grants the request; returns the callback parameters and the PKCE verifier. */
  async function authorize(token: string, scope = 'profile files') {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const req = requestOf({ scope, state, code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier) }, codeVerifier);
    const { redirectTo } = await ok(app(), 'POST', '/api/OAuth/Authorize', { token, body: { request: req.text, approve: true } });
    const back = new URL(redirectTo);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    const params = oauth.validateAuthResponse(as(), oauthClient(), back, state);
    return { params, codeVerifier, code: back.searchParams.get('code') as string };
  }
  /** Exchanges the code with the OAuth library, as a client does. */
  async function exchange(params: URLSearchParams, codeVerifier: string) {
    const res = await oauth.authorizationCodeGrantRequest(as(), oauthClient(), oauth.None(), params, REDIRECT, codeVerifier, insecure);
    return oauth.processAuthorizationCodeResponse(as(), oauthClient(), res);
  }
  async function grantAndExchange(token: string, scope = 'profile files') {
    const { params, codeVerifier, code } = await authorize(token, scope);
    return { code, params, codeVerifier, tokens: await exchange(params, codeVerifier) };
  }
  async function refresh(refreshToken: string, at = base, extra?: Record<string, string>) {
    const res = await oauth.refreshTokenGrantRequest(as(at), oauthClient(), oauth.None(), refreshToken, { ...insecure, additionalParameters: extra });
    return oauth.processRefreshTokenResponse(as(at), oauthClient(), res);
  }
  /** The OAuth library's error for a refused token request. */
  async function refusal(p: Promise<unknown>): Promise<oauth.ResponseBodyError> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(oauth.ResponseBodyError);
    const e = err as oauth.ResponseBodyError;
    expect(e.error_description).toMatch(HAN);
    expect(e.response.headers.get('cache-control')).toBe('no-store');
    return e;
  }
  /** HTTP status of GET /api/OAuth/UserInfo with the access token. */
  const userInfoStatus = async (accessToken: string, at = base) => (await fetch(`${at}/api/OAuth/UserInfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status;
  const tokenCall = (body: Record<string, string>) =>
    call(app(), 'POST', '/api/OAuth/Token', { body: new URLSearchParams(body).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

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

  test('an OAuth client library exchanges the code with PKCE: a one-hour access token and a refresh token, never cached', async () => {
    const { params, codeVerifier } = await authorize(user.token);
    const res = await oauth.authorizationCodeGrantRequest(as(), oauthClient(), oauth.None(), params, REDIRECT, codeVerifier, insecure);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const tokens = await oauth.processAuthorizationCodeResponse(as(), oauthClient(), res);
    expect(tokens).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
      scope: 'profile files',
    });
    const bearer = tokens.access_token;
    expect((await ok(app(), 'GET', '/api/OAuth/UserInfo', { token: bearer })).userId).toBe(user.userId);
    expect((await call(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: bearer })).status).toBe(200);
    // never the user's own account settings, administration or other grants
    for (const [method, url] of [
      ['GET', '/api/account/Sessions'],
      ['POST', '/api/account/changepassword'],
      ['POST', '/api/OAuth/Authorize'],
    ] as const) {
      const r = await call(app(), method, url, { token: bearer, body: method === 'POST' ? {} : undefined });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('该客户端未获授权执行此操作');
    }
  });

  test('refreshing gives a new access token and a new refresh token each time; a narrower scope may be asked', async () => {
    const { tokens } = await grantAndExchange(user.token);
    const second = await refresh(tokens.refresh_token!);
    expect(second).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'profile files' });
    expect(second.access_token).not.toBe(tokens.access_token);
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(tokens.refresh_token);
    expect(await userInfoStatus(second.access_token)).toBe(200);
    const third = await refresh(second.refresh_token!);
    expect(await userInfoStatus(third.access_token)).toBe(200);

    const narrow = await refresh(third.refresh_token!, base, { scope: 'profile' });
    expect(narrow.scope).toBe('profile');
    expect((await call(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: narrow.access_token })).status).toBe(403);
    // the refresh token keeps the whole grant
    const wide = await refresh(narrow.refresh_token!);
    expect(wide.scope).toBe('profile files');
    const beyond = await refusal(refresh(wide.refresh_token!, base, { scope: 'profile admin' }));
    expect([beyond.status, beyond.error]).toEqual([400, 'invalid_scope']);
    // a refused request does not spend the refresh token
    expect((await refresh(wide.refresh_token!)).access_token).toEqual(expect.any(String));
  });

  test('a bad code, a reused code and a wrong verifier are OAuth errors the library reads; a reused code ends what it gave', async () => {
    const forged = oauth.validateAuthResponse(as(), oauthClient(), new URL(`${REDIRECT}?code=not-a-code&state=s`), 's');
    const bad = await refusal(exchange(forged, oauth.generateRandomCodeVerifier()));
    expect([bad.status, bad.error, bad.error_description]).toEqual([400, 'invalid_grant', '授权码无效或已过期，请重新授权']);

    const { params, codeVerifier } = await authorize(user.token);
    const wrong = await refusal(exchange(params, oauth.generateRandomCodeVerifier()));
    expect([wrong.status, wrong.error]).toEqual([400, 'invalid_grant']);
    expect(wrong.error_description).toMatch(/PKCE 校验失败/);
    // the wrong verifier did not spend the code
    const tokens = await exchange(params, codeVerifier);
    expect(await userInfoStatus(tokens.access_token)).toBe(200);

    const reused = await refusal(exchange(params, codeVerifier));
    expect([reused.status, reused.error]).toEqual([400, 'invalid_grant']);
    // whoever replays a code ends the tokens issued for it (RFC 6749 section 4.1.2)
    expect(await userInfoStatus(tokens.access_token)).toBe(401);
    expect((await refusal(refresh(tokens.refresh_token!))).error).toBe('invalid_grant');

    const other = await authorize(user.token);
    const stranger = { client_id: 'client_nope' };
    const res = await oauth.authorizationCodeGrantRequest(as(), stranger, oauth.None(), other.params, REDIRECT, other.codeVerifier, insecure);
    const unknown = await refusal(oauth.processAuthorizationCodeResponse(as(), stranger, res));
    expect([unknown.status, unknown.error]).toEqual([401, 'invalid_client']);

    const grantType = await refusal(
      oauth.genericTokenEndpointRequest(as(), oauthClient(), oauth.None(), 'password', new URLSearchParams({ username: 'a', password: 'b' }), insecure).then((r) =>
        oauth.processGenericTokenEndpointResponse(as(), oauthClient(), r),
      ),
    );
    expect([grantType.status, grantType.error]).toEqual([400, 'unsupported_grant_type']);
  });

  test('the exchange needs the right client and address; JSON works as well as a form; faults of the request itself are OAuth errors too', async () => {
    const req = requestOf();
    const { redirectTo } = await ok(app(), 'POST', '/api/OAuth/Authorize', { token: user.token, body: { request: req.text, approve: true } });
    const code = new URL(redirectTo).searchParams.get('code') as string;
    const fields = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId, code_verifier: req.verifier };
    expectOAuthError(await tokenCall({ ...fields, redirect_uri: 'yunwendang-desktop://auth' }), 'invalid_grant', '授权码无效或已过期，请重新授权');
    expectOAuthError(await tokenCall({ ...fields, client_id: 'client_nope' }), 'invalid_client');
    const { code: _omit, ...noCode } = fields;
    expectOAuthError(await tokenCall(noCode), 'invalid_request', '缺少参数 code');
    expectOAuthError(await tokenCall({ code }), 'invalid_request', /grant_type/);
    expectOAuthError(
      await call(app(), 'POST', '/api/OAuth/Token', { body: `${new URLSearchParams(fields)}&code=again`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      'invalid_request',
      '参数 code 不能重复出现',
    );
    expectOAuthError(await call(app(), 'POST', '/api/OAuth/Token', { body: '{"grant_type":', headers: { 'content-type': 'application/json' } }), 'invalid_request', /JSON/);
    expectOAuthError(await call(app(), 'POST', '/api/OAuth/Token', { body: 'grant_type=authorization_code', headers: { 'content-type': 'text/plain' } }), 'invalid_request');
    expectOAuthError(await call(app(), 'POST', '/api/OAuth/Token', { body: { ...fields, code: { value: code } } }), 'invalid_request', /code/);
    expectOAuthError(await call(app(), 'POST', '/api/OAuth/Token', { body: { grant_type: 'client_credentials' } }), 'unsupported_grant_type');

    // JSON, with an unknown parameter (ignored, RFC 6749 section 3.2)
    const res = await call(app(), 'POST', '/api/OAuth/Token', { body: { ...fields, resource: 'ignored' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.any(String), scope: 'profile files' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    // a form refresh as a plain client sends it
    const again = await tokenCall({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token, client_id: client.clientId });
    expect(again.status).toBe(200);
    expect(again.body.access_token).toEqual(expect.any(String));
    // another client may not use it
    const other = await ok(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '另一个客户端', redirectUris: ['https://app.example.com/cb'] } });
    expectOAuthError(await tokenCall({ grant_type: 'refresh_token', refresh_token: again.body.refresh_token, client_id: other.clientId }), 'invalid_grant');
    expect((await tokenCall({ grant_type: 'refresh_token', refresh_token: again.body.refresh_token })).status).toBe(200);
  });

  test('a refresh token used a second time ends the whole grant: the newest access and refresh tokens stop too', async () => {
    const { tokens } = await grantAndExchange(user.token);
    const second = await refresh(tokens.refresh_token!);
    const newest = await refresh(second.refresh_token!);
    expect(await userInfoStatus(newest.access_token)).toBe(200);

    // an attacker (or a confused client) replays an already rotated refresh token
    const replay = await refusal(refresh(tokens.refresh_token!));
    expect([replay.status, replay.error]).toEqual([400, 'invalid_grant']);
    expect(replay.error_description).toMatch(/已被使用过/);
    expect(await userInfoStatus(newest.access_token)).toBe(401);
    expect(await userInfoStatus(second.access_token)).toBe(401);
    const ended = await refusal(refresh(newest.refresh_token!));
    expect(ended.error).toBe('invalid_grant');

    // two requests racing with one refresh token: one wins, and the grant ends all the same
    const other = (await grantAndExchange(user.token)).tokens;
    const raced = await Promise.allSettled([refresh(other.refresh_token!), refresh(other.refresh_token!)]);
    expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const winner = (raced.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<oauth.TokenEndpointResponse>).value;
    expect(await userInfoStatus(winner.access_token)).toBe(401);
    expect((await refusal(refresh(winner.refresh_token!))).error).toBe('invalid_grant');
  });

  test('grants live in the database: a second instance refreshes, and a replay seen by the first ends the grant on both', async () => {
    const { tokens } = await grantAndExchange(user.token);
    const secondApp = await server.restart();
    const secondBase = await listen(secondApp);
    const there = await refresh(tokens.refresh_token!, secondBase);
    expect(await userInfoStatus(there.access_token, base)).toBe(200);
    expect((await refusal(refresh(tokens.refresh_token!, base))).error).toBe('invalid_grant');
    expect(await userInfoStatus(there.access_token, secondBase)).toBe(401);
    expect((await refusal(refresh(there.refresh_token!, secondBase))).error).toBe('invalid_grant');
  });

  test('RFC 7009 revocation: a refresh token ends its grant, an access token only itself', async () => {
    const revoke = async (token: string, c: oauth.Client = oauthClient()) =>
      oauth.processRevocationResponse(await oauth.revocationRequest(as(), c, oauth.None(), token, insecure));
    const a = (await grantAndExchange(user.token)).tokens;
    await revoke(a.access_token);
    expect(await userInfoStatus(a.access_token)).toBe(401);
    const b = await refresh(a.refresh_token!);
    expect(await userInfoStatus(b.access_token)).toBe(200);
    await revoke(b.refresh_token!);
    expect(await userInfoStatus(b.access_token)).toBe(401);
    expect((await refusal(refresh(b.refresh_token!))).error).toBe('invalid_grant');
    // an unknown or spent token is no error
    await revoke('not-a-token');
    await revoke(b.refresh_token!);
    // a token may be revoked only by its own client
    const c = (await grantAndExchange(user.token)).tokens;
    const other = await ok(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '别的客户端', redirectUris: ['https://app.example.com/cb'] } });
    const refused = await refusal(revoke(c.refresh_token!, { client_id: other.clientId }));
    expect([refused.status, refused.error]).toEqual([400, 'invalid_request']);
    expect(await userInfoStatus(c.access_token)).toBe(200);
    const unknown = await refusal(revoke(c.refresh_token!, { client_id: 'client_nope' }));
    expect([unknown.status, unknown.error]).toEqual([401, 'invalid_client']);
  });

  test('a profile-only token reads who the user is and nothing else', async () => {
    const { tokens } = await grantAndExchange(user.token, 'profile');
    expect((await call(app(), 'GET', '/api/User/Home', { token: tokens.access_token })).status).toBe(200);
    expect((await call(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: tokens.access_token })).status).toBe(403);
  });

  test('the user lists and revokes the client, refresh tokens included; a password change ends grants too; a removed client stops', async () => {
    const person = await userWithToken(app(), adminToken);
    const first = (await grantAndExchange(person.token)).tokens;
    // the access token has run out: the grant still lives, so the client is still listed and refreshes
    await server.app.db.updateTable('sessions').set({ expires_at: Date.now() - 1000 }).where('user_id', '=', Number(person.userId)).where('client_id', 'is not', null).execute();
    expect(await userInfoStatus(first.access_token)).toBe(401);
    const listed = await ok(app(), 'GET', '/api/account/Clients', { token: person.token });
    expect(listed).toEqual([expect.objectContaining({ clientId: client.clientId, name: '云文档桌面同步' })]);
    expect(listed[0].scopes).toHaveLength(2);
    const refreshed = await refresh(first.refresh_token!);
    // client tokens are not among 我的会话
    expect((await ok(app(), 'GET', '/api/account/Sessions', { token: person.token })).length).toBe(1);

    await ok(app(), 'DELETE', `/api/account/Clients/${client.clientId}`, { token: person.token });
    expect(await userInfoStatus(refreshed.access_token)).toBe(401);
    expect((await refusal(refresh(refreshed.refresh_token!))).error).toBe('invalid_grant');
    expect(await ok(app(), 'GET', '/api/account/Clients', { token: person.token })).toEqual([]);
    expect((await call(app(), 'DELETE', `/api/account/Clients/${client.clientId}`, { token: person.token })).status).toBe(404);

    const second = (await grantAndExchange(person.token)).tokens;
    await ok(app(), 'POST', '/api/account/changepassword', { token: person.token, body: { oldPassword: person.password, newPassword: 'Changed-Passw0rd-5' } });
    expect(await userInfoStatus(second.access_token)).toBe(401);
    expect((await refusal(refresh(second.refresh_token!))).error).toBe('invalid_grant');
    expect(await ok(app(), 'GET', '/api/account/Clients', { token: person.token })).toEqual([]);

    const third = (await grantAndExchange(person.token)).tokens;
    const other = await ok(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '另一个', redirectUris: ['https://app.example.com/cb'] } });
    expect((await call(app(), 'DELETE', `/api/Admin/Clients/${other.clientId}`, { token: person.token })).status).toBe(403);
    await ok(app(), 'DELETE', `/api/Admin/Clients/${client.clientId}`, { token: adminToken });
    expect(await userInfoStatus(third.access_token)).toBe(401);
    const stopped = await refusal(refresh(third.refresh_token!));
    expect([stopped.status, stopped.error]).toEqual([401, 'invalid_client']);
    expectError(await call(app(), 'GET', '/api/OAuth/Request', { token: person.token, query: { request: requestOf().text } }), 400, /客户端不存在或已停用/);
    // and again for later tests in this file
    client = await ok(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '云文档桌面同步', redirectUris: [REDIRECT] } });
  });

  test('disabling the account ends its client grants for good: enabling it again brings neither token back', async () => {
    const person = await userWithToken(app(), adminToken);
    const { tokens } = await grantAndExchange(person.token);
    // an authorization code handed out but not yet exchanged
    const pending = await authorize(person.token);
    expect(await userInfoStatus(tokens.access_token)).toBe(200);
    await ok(app(), 'POST', `/api/Admin/Users/${person.userId}/Disable`, { token: adminToken });
    expect(await userInfoStatus(tokens.access_token)).toBe(403);
    expect((await refusal(refresh(tokens.refresh_token!))).error).toBe('invalid_grant');
    await ok(app(), 'POST', `/api/Admin/Users/${person.userId}/Enable`, { token: adminToken });
    expect(await userInfoStatus(tokens.access_token)).toBe(401);
    expect((await refusal(refresh(tokens.refresh_token!))).error).toBe('invalid_grant');
    expect((await refusal(exchange(pending.params, pending.codeVerifier))).error).toBe('invalid_grant');
    expect(await ok(app(), 'GET', '/api/account/Clients', { token: (await login(app(), person.userName, person.password)).token })).toEqual([]);
  });

  test('registering a client refuses unsafe redirect addresses', async () => {
    for (const uri of ['javascript:alert(1)', 'http://example.com/cb', 'https://app.example.com/cb#x', 'not a url']) {
      const res = await call(app(), 'POST', '/api/Admin/Clients', { token: adminToken, body: { name: '坏的', redirectUris: [uri] } });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(HAN);
    }
  });

  test('the OpenAPI document describes the token endpoints as they answer; the rest of /api keeps the envelope', async () => {
    const doc = (await call(app(), 'GET', '/api/docs')).body;
    const token = doc.paths['/api/OAuth/Token'].post;
    expect(Object.keys(token.requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    const okSchema = token.responses['200'].content['application/json'].schema;
    expect(Object.keys(okSchema.properties).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(Object.keys(token.responses['400'].content['application/json'].schema.properties).sort()).toEqual(['error', 'error_description']);
    expect(token.responses['401']).toBeDefined();
    expect(doc.paths['/api/OAuth/Revoke'].post).toBeDefined();
    expect(Object.keys(doc.paths['/api/OAuth/UserInfo'].get.responses['200'].content['application/json'].schema.properties).sort()).toEqual(['code', 'message', 'result']);
    // a validation fault elsewhere is still an envelope
    const elsewhere = await call(app(), 'POST', '/api/OAuth/Authorize', { token: user.token, body: { approve: true } });
    expect([elsewhere.status, elsewhere.body.code, elsewhere.body.result]).toEqual([400, 40001, null]);
  });
});
