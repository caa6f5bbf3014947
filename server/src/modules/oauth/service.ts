// Client authorization in 云文档 (docs/integration.md, "Client authorization"): a desktop or
// third-party client registered by an administrator sends the user to /#/login?authorize=…;
// after sign-in the user grants or denies on /authorization; a grant gives the client a
// one-time code (5 minutes) that it exchanges, with its PKCE verifier, for a grant: a
// short-lived access token and a rotating refresh token (RFC 6749, OAuth 2.0 Security BCP).
// An access token is a session marked with the client and its grant, limited by its scopes
// (scopes.ts). A grant is listed and revocable in 个人设置 and ended by a password change.
// Everything lives in the database (hashed), so any instance serves any request.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database, UserRow } from '../../db/types';
import { badRequest, notFound } from '../../lib/errors';
import type { TimeFormatter } from '../../lib/time';
import { digest } from '../auth/service';
import { invalidClient, invalidGrant, invalidRequest, OAuthError } from './errors';
import { isScope, SCOPES, type ScopeName } from './scopes';
import type { AuthorizeInfo, RevokeBody as RevokeParams, TokenBody as TokenParams, TokenResult as TokenResponse } from './schemas';

const CODE_TTL_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an access token works. */
export const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;
/** How long a refresh token works unless it is used first (each use gives a new one). */
export const REFRESH_TOKEN_TTL_MS = 30 * DAY_MS;
const reused = () => invalidGrant('刷新令牌已被使用过，为安全起见该客户端的授权已失效，请重新授权');
/** schemes a redirect may never use */
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);
const random = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

interface ParsedRequest {
  clientId: string;
  clientName: string;
  redirectUri: string;
  scopes: ScopeName[];
  state: string;
  codeChallenge: string;
}

export class OAuthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Pick<AppConfig, 'sessionTtlMs'>,
    private readonly formatTime: TimeFormatter,
  ) {}

  /** Checks an authorize request against the client's registration; every fault in Chinese. */
  private async parse(request: string): Promise<ParsedRequest> {
    const q = new URLSearchParams(request.replace(/^\?/, ''));
    const clientId = q.get('client_id') ?? '';
    const client = clientId ? await this.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst() : undefined;
    if (!client || client.revoked_at !== null) throw badRequest('授权请求无效：客户端不存在或已停用');
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!(JSON.parse(client.redirect_uris) as string[]).includes(redirectUri)) throw badRequest('授权请求无效：回调地址未登记');
    if ((q.get('response_type') ?? 'code') !== 'code') throw badRequest('授权请求无效：只支持 response_type=code');
    const codeChallenge = q.get('code_challenge') ?? '';
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
      throw badRequest('授权请求无效：须使用 PKCE（code_challenge_method=S256）');
    }
    const requested = (q.get('scope') ?? 'profile').split(/[\s+]+/).filter(Boolean);
    const unknown = requested.filter((s) => !isScope(s));
    if (unknown.length || !requested.length) throw badRequest(`授权请求无效：不支持的授权范围 ${unknown.join(' ')}`.trim());
    return { clientId, clientName: client.name, redirectUri, scopes: [...new Set(requested as ScopeName[])], state: q.get('state') ?? '', codeChallenge };
  }

  /** GET /api/OAuth/Request: what the authorization page shows. */
  async describe(request: string): Promise<AuthorizeInfo> {
    const r = await this.parse(request);
    return { clientId: r.clientId, clientName: r.clientName, redirectUri: r.redirectUri, scopes: r.scopes.map((name) => ({ name, description: SCOPES[name] })) };
  }

  /** POST /api/OAuth/Authorize: the user's answer, as the address the browser goes to next. */
  async answer(user: UserRow, request: string, approve: boolean): Promise<{ redirectTo: string }> {
    const r = await this.parse(request);
    const target = new URL(r.redirectUri);
    if (r.state) target.searchParams.set('state', r.state);
    if (!approve) {
      target.searchParams.set('error', 'access_denied');
      return { redirectTo: target.toString() };
    }
    const code = random(32);
    const now = Date.now();
    await this.db
      .insertInto('oauth_codes')
      .values({
        code_hash: digest(code),
        client_id: r.clientId,
        user_id: user.id,
        redirect_uri: r.redirectUri,
        scope: r.scopes.join(' '),
        code_challenge: r.codeChallenge,
        created_at: now,
        expires_at: now + CODE_TTL_MS,
        used_at: null,
      })
      .execute();
    await this.db.deleteFrom('oauth_codes').where('expires_at', '<', now - 24 * 3600 * 1000).execute();
    await this.sweepEndedGrants(now);
    target.searchParams.set('code', code);
    return { redirectTo: target.toString() };
  }

  /** POST /api/OAuth/Token (RFC 6749 section 4.1.3 and section 6): errors are OAuthErrors. */
  async token(p: TokenParams, meta: { ip: string; userAgent: string }): Promise<TokenResponse> {
    if (!p.grant_type) throw invalidRequest('缺少参数 grant_type');
    if (p.grant_type === 'authorization_code') return this.exchangeCode(p, meta);
    if (p.grant_type === 'refresh_token') return this.refresh(p, meta);
    throw new OAuthError('unsupported_grant_type', '只支持 grant_type=authorization_code 或 refresh_token');
  }

  /** A registered client that has not been stopped, else invalid_client. */
  private async activeClient(clientId: string): Promise<void> {
    if (!(await this.clientActive(clientId))) throw invalidClient();
  }

  private async clientActive(clientId: string): Promise<boolean> {
    const client = await this.db.selectFrom('oauth_clients').select(['revoked_at']).where('client_id', '=', clientId).executeTakeFirst();
    return !!client && client.revoked_at === null;
  }

  /** A user a client may still act for, else invalid_grant. */
  private async assertUserActive(userId: number): Promise<void> {
    const user = await this.db.selectFrom('users').select(['disabled']).where('id', '=', userId).executeTakeFirst();
    if (!user || user.disabled) throw invalidGrant('该账号已被停用，请联系管理员');
  }

  /** A code and its PKCE verifier, once, for a new grant: an access token and a refresh token. */
  private async exchangeCode(p: TokenParams, meta: { ip: string; userAgent: string }): Promise<TokenResponse> {
    for (const name of ['code', 'redirect_uri', 'client_id', 'code_verifier'] as const) {
      if (!p[name]) throw invalidRequest(`缺少参数 ${name}`);
    }
    const { code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier } = p as Required<TokenParams>;
    await this.activeClient(clientId);
    const now = Date.now();
    const row = await this.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', digest(code)).executeTakeFirst();
    const invalid = () => invalidGrant('授权码无效或已过期，请重新授权');
    if (!row) throw invalid();
    if (row.used_at !== null) {
      // a code used twice: the tokens already issued for it end too (RFC 6749 section 4.1.2)
      await this.endGrantsOfCode(row.code_hash, now);
      throw invalid();
    }
    if (Number(row.expires_at) <= now || row.client_id !== clientId || row.redirect_uri !== redirectUri) throw invalid();
    const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || challenge !== row.code_challenge) {
      throw invalidGrant('PKCE 校验失败：code_verifier 与 code_challenge 不符');
    }
    await this.assertUserActive(row.user_id);

    const issued = await this.db.transaction().execute(async (trx) => {
      // two requests with the same code: only one spends it
      const used = await trx.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', row.code_hash).where('used_at', 'is', null).executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return null;
      const grant = await trx
        .insertInto('oauth_grants')
        .values({
          client_id: row.client_id,
          user_id: row.user_id,
          scope: row.scope,
          code_hash: row.code_hash,
          created_at: now,
          last_used_at: now,
          expires_at: now,
          revoked_at: null,
        })
        .returning(['id', 'client_id', 'user_id', 'created_at'])
        .executeTakeFirstOrThrow();
      return this.issue(trx, grant, row.scope, now, meta);
    });
    if (!issued) {
      await this.endGrantsOfCode(row.code_hash, now);
      throw invalid();
    }
    return issued;
  }

  /**
   * A refresh token for a new access token and a new refresh token; the presented one is spent.
   * A spent one presented again means it leaked: the whole grant ends (OAuth 2.0 Security BCP).
   */
  private async refresh(p: TokenParams, meta: { ip: string; userAgent: string }): Promise<TokenResponse> {
    if (!p.refresh_token) throw invalidRequest('缺少参数 refresh_token');
    if (p.client_id) await this.activeClient(p.client_id);
    const now = Date.now();
    const tokenHash = digest(p.refresh_token);
    const row = await this.db
      .selectFrom('oauth_refresh_tokens')
      .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_refresh_tokens.grant_id')
      .select([
        'oauth_refresh_tokens.used_at as usedAt',
        'oauth_refresh_tokens.expires_at as expiresAt',
        'oauth_grants.id as id',
        'oauth_grants.client_id as client_id',
        'oauth_grants.user_id as user_id',
        'oauth_grants.scope as scope',
        'oauth_grants.created_at as created_at',
        'oauth_grants.revoked_at as revokedAt',
      ])
      .where('oauth_refresh_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
    const invalid = () => invalidGrant('刷新令牌无效或已过期，请重新授权');
    if (!row || (p.client_id && row.client_id !== p.client_id)) throw invalid();
    if (row.revokedAt !== null) throw invalidGrant('该客户端的授权已被撤销，请重新授权');
    if (row.usedAt !== null) {
      await this.endGrant(row.id, now);
      throw reused();
    }
    if (Number(row.expiresAt) <= now) throw invalid();
    if (!p.client_id && !(await this.clientActive(row.client_id))) throw invalid();
    await this.assertUserActive(row.user_id);
    const granted = row.scope.split(' ').filter(Boolean);
    let scope = row.scope;
    if (p.scope !== undefined && p.scope.trim()) {
      const asked = [...new Set(p.scope.split(' ').filter(Boolean))];
      const beyond = asked.filter((s) => !granted.includes(s));
      if (beyond.length) throw new OAuthError('invalid_scope', `请求的授权范围超出了用户的授权：${beyond.join(' ').slice(0, 100)}`);
      scope = granted.filter((s) => asked.includes(s)).join(' ');
    }

    const issued = await this.db.transaction().execute(async (trx) => {
      // two requests with the same refresh token: only one spends it
      const spent = await trx.updateTable('oauth_refresh_tokens').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).executeTakeFirst();
      if (Number(spent.numUpdatedRows) !== 1) return null;
      return this.issue(trx, row, scope, now, meta);
    });
    if (!issued) {
      await this.endGrant(row.id, now);
      throw reused();
    }
    return issued;
  }

  /** A new access token (a session of the grant) and a new refresh token; the grant lives on. */
  private async issue(
    trx: Kysely<Database>,
    grant: { id: number; client_id: string; user_id: number; created_at: number },
    scope: string,
    now: number,
    meta: { ip: string; userAgent: string },
  ): Promise<TokenResponse> {
    // a grant lasts at most as long as a sign-in session, counted from the authorization
    const end = Number(grant.created_at) + this.config.sessionTtlMs;
    const accessExpiresAt = Math.min(now + ACCESS_TOKEN_TTL_MS, end);
    const refreshExpiresAt = Math.min(now + REFRESH_TOKEN_TTL_MS, end);
    if (refreshExpiresAt <= now) throw invalidGrant('授权已到期，请重新授权');
    const live = await trx
      .updateTable('oauth_grants')
      .set({ last_used_at: now, expires_at: refreshExpiresAt })
      .where('id', '=', grant.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(live.numUpdatedRows) !== 1) throw invalidGrant('该客户端的授权已被撤销，请重新授权');
    const accessToken = random(32);
    const refreshToken = random(32);
    await trx
      .insertInto('oauth_refresh_tokens')
      .values({ token_hash: digest(refreshToken), grant_id: grant.id, created_at: now, expires_at: refreshExpiresAt, used_at: null })
      .execute();
    await trx
      .insertInto('sessions')
      .values({
        token_hash: digest(accessToken),
        // never handed out: a client token works only as a bearer token
        jwt_id_hash: digest(random(32)),
        user_id: grant.user_id,
        created_at: now,
        last_seen_at: now,
        expires_at: accessExpiresAt,
        revoked_at: null,
        ip: meta.ip.slice(0, 64),
        user_agent: meta.userAgent.slice(0, 512),
        client_id: grant.client_id,
        client_scope: scope,
        grant_id: grant.id,
      })
      .execute();
    // what the grant no longer needs: access tokens a day past their end, spent refresh tokens past theirs
    await trx.deleteFrom('sessions').where('grant_id', '=', grant.id).where('expires_at', '<', now - DAY_MS).execute();
    await trx.deleteFrom('oauth_refresh_tokens').where('grant_id', '=', grant.id).where('used_at', 'is not', null).where('expires_at', '<', now).execute();
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: Math.max(1, Math.floor((accessExpiresAt - now) / 1000)),
      refresh_token: refreshToken,
      scope,
    };
  }

  /** Grants ended or expired a month ago go, with their tokens. */
  private async sweepEndedGrants(now: number): Promise<void> {
    const cutoff = now - 30 * DAY_MS;
    const ended = () =>
      this.db
        .selectFrom('oauth_grants')
        .select('id')
        .where((eb) => eb.or([eb('revoked_at', '<', cutoff), eb('expires_at', '<', cutoff)]));
    await this.db.deleteFrom('oauth_refresh_tokens').where('grant_id', 'in', ended()).execute();
    await this.db.deleteFrom('sessions').where('grant_id', 'in', ended()).execute();
    await this.db.deleteFrom('oauth_grants').where('id', 'in', ended()).execute();
  }

  /** Every token of the grant stops working: its refresh tokens and its access tokens. */
  private async endGrant(grantId: number, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('oauth_grants').set({ revoked_at: now }).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
      await trx.updateTable('sessions').set({ revoked_at: now }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
    });
  }

  private async endGrantsOfCode(codeHash: string, now: number): Promise<void> {
    const grants = await this.db.selectFrom('oauth_grants').select('id').where('code_hash', '=', codeHash).execute();
    for (const g of grants) await this.endGrant(g.id, now);
  }

  /**
   * POST /api/OAuth/Revoke (RFC 7009): a refresh token ends its whole grant, an access token
   * only itself. An unknown token is no error (the client's aim is met).
   */
  async revokeToken(p: RevokeParams): Promise<void> {
    if (!p.token) throw invalidRequest('缺少参数 token');
    if (!p.client_id) throw invalidRequest('缺少参数 client_id');
    await this.activeClient(p.client_id);
    const now = Date.now();
    const tokenHash = digest(p.token);
    const notYours = () => invalidRequest('该令牌不是签发给此客户端的，不能由它撤销');
    const refresh = await this.db
      .selectFrom('oauth_refresh_tokens')
      .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_refresh_tokens.grant_id')
      .select(['oauth_grants.id as grantId', 'oauth_grants.client_id as clientId'])
      .where('oauth_refresh_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (refresh) {
      if (refresh.clientId !== p.client_id) throw notYours();
      await this.endGrant(refresh.grantId, now);
      return;
    }
    const session = await this.db
      .selectFrom('sessions')
      .select(['id', 'client_id'])
      .where('token_hash', '=', tokenHash)
      .where('client_id', 'is not', null)
      .executeTakeFirst();
    if (!session) return;
    if (session.client_id !== p.client_id) throw notYours();
    await this.db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', session.id).where('revoked_at', 'is', null).execute();
  }

  /**
   * 个人设置: the clients the user has a live grant with (or, from before refresh tokens, a live
   * client token).
   */
  async myClients(user: UserRow) {
    const now = Date.now();
    const grants = await this.db
      .selectFrom('oauth_grants')
      .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
      .select(['oauth_grants.id as id', 'oauth_grants.client_id as clientId', 'oauth_clients.name as name', 'oauth_grants.scope as scope', 'oauth_grants.created_at as createdAt', 'oauth_grants.last_used_at as lastUsedAt'])
      .where('oauth_grants.user_id', '=', user.id)
      .where('oauth_grants.revoked_at', 'is', null)
      .where('oauth_grants.expires_at', '>', now)
      .execute();
    const used = new Map<number, number>();
    if (grants.length) {
      const rows = await this.db
        .selectFrom('sessions')
        .select((eb) => ['grant_id', eb.fn.max<number>('last_seen_at').as('lastSeenAt')])
        .where('grant_id', 'in', grants.map((g) => g.id))
        .groupBy('grant_id')
        .execute();
      for (const r of rows) used.set(Number(r.grant_id), Number(r.lastSeenAt));
    }
    const older = await this.db
      .selectFrom('sessions')
      .innerJoin('oauth_clients', 'oauth_clients.client_id', 'sessions.client_id')
      .select(['sessions.client_id as clientId', 'oauth_clients.name as name', 'sessions.client_scope as scope', 'sessions.created_at as createdAt', 'sessions.last_seen_at as lastUsedAt'])
      .where('sessions.user_id', '=', user.id)
      .where('sessions.grant_id', 'is', null)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .execute();
    const rows = [
      ...grants.map((g) => ({ ...g, lastUsedAt: Math.max(Number(g.lastUsedAt), used.get(Number(g.id)) ?? 0) })),
      ...older.map((s) => ({ ...s, lastUsedAt: Number(s.lastUsedAt) })),
    ].sort((a, b) => Number(b.createdAt) - Number(a.createdAt));
    const byClient = new Map<string, { clientId: string; name: string; scopes: Set<string>; authorizedAt: number; lastUsedAt: number }>();
    for (const r of rows) {
      const id = String(r.clientId);
      const entry = byClient.get(id) ?? { clientId: id, name: r.name, scopes: new Set<string>(), authorizedAt: Number(r.createdAt), lastUsedAt: 0 };
      for (const s of r.scope.split(' ')) if (isScope(s)) entry.scopes.add(SCOPES[s]);
      entry.lastUsedAt = Math.max(entry.lastUsedAt, r.lastUsedAt);
      byClient.set(id, entry);
    }
    return [...byClient.values()].map((c) => ({
      clientId: c.clientId,
      name: c.name,
      scopes: [...c.scopes],
      authorizedAt: this.formatTime(c.authorizedAt),
      lastUsedAt: this.formatTime(c.lastUsedAt),
    }));
  }

  /** Ends every grant and token of one client for the user. */
  async revokeClient(user: UserRow, clientId: string): Promise<{ revoked: number }> {
    const now = Date.now();
    const revoked = await this.db.transaction().execute(async (trx) => {
      const grants = await trx
        .updateTable('oauth_grants')
        .set({ revoked_at: now })
        .where('user_id', '=', user.id)
        .where('client_id', '=', clientId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      const older = await trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', user.id)
        .where('client_id', '=', clientId)
        .where('grant_id', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', user.id).where('client_id', '=', clientId).where('revoked_at', 'is', null).execute();
      return Number(grants.numUpdatedRows) + Number(older.numUpdatedRows);
    });
    if (!revoked) throw notFound('该客户端没有有效的授权');
    return { revoked };
  }

  // ---- administrators ----

  async registerClient(body: { name: string; redirectUris: string[] }) {
    const name = body.name.trim();
    if (!name) throw badRequest('请填写客户端名称');
    for (const uri of body.redirectUris) {
      let url: URL;
      try {
        url = new URL(uri);
      } catch {
        throw badRequest(`回调地址无效：${uri}`);
      }
      const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
      const custom = url.protocol !== 'http:' && url.protocol !== 'https:' && !UNSAFE_SCHEMES.has(url.protocol);
      if (url.hash || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback) || custom)) {
        throw badRequest(`回调地址须为 https、本机 http 或客户端自有协议，且不能带 #：${uri}`);
      }
    }
    const clientId = `client_${random(12)}`;
    const now = Date.now();
    await this.db.insertInto('oauth_clients').values({ client_id: clientId, name, redirect_uris: JSON.stringify(body.redirectUris), created_at: now, revoked_at: null }).execute();
    return { clientId, name, redirectUris: body.redirectUris, createdAt: this.formatTime(now) };
  }

  async clients() {
    const rows = await this.db.selectFrom('oauth_clients').selectAll().where('revoked_at', 'is', null).orderBy('created_at', 'desc').execute();
    return rows.map((r) => ({ clientId: r.client_id, name: r.name, redirectUris: JSON.parse(r.redirect_uris) as string[], createdAt: this.formatTime(Number(r.created_at)) }));
  }

  /** The client stops working: its codes and every token it holds end. */
  async removeClient(clientId: string): Promise<void> {
    const now = Date.now();
    const res = await this.db.updateTable('oauth_clients').set({ revoked_at: now }).where('client_id', '=', clientId).where('revoked_at', 'is', null).executeTakeFirst();
    if (!Number(res.numUpdatedRows)) throw notFound('客户端不存在');
    await this.db.updateTable('oauth_grants').set({ revoked_at: now }).where('client_id', '=', clientId).where('revoked_at', 'is', null).execute();
    await this.db.updateTable('sessions').set({ revoked_at: now }).where('client_id', '=', clientId).where('revoked_at', 'is', null).execute();
  }
}
