// Client authorization in 云文档 (docs/integration.md, "Client authorization"): a desktop or
// third-party client registered by an administrator sends the user to /#/login?authorize=…;
// after sign-in the user grants or denies on /authorization; a grant gives the client a
// one-time code (5 minutes) that it exchanges, with its PKCE verifier, for its own token.
// A client token is a session marked with the client: listed and revocable in 个人设置, ended
// by a password change like every other session, and limited by its scopes (scopes.ts).
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database, UserRow } from '../../db/types';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import type { TimeFormatter } from '../../lib/time';
import { digest } from '../auth/service';
import { isScope, SCOPES, type ScopeName } from './scopes';
import type { AuthorizeInfo } from './schemas';

const CODE_TTL_MS = 5 * 60 * 1000;
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
    target.searchParams.set('code', code);
    return { redirectTo: target.toString() };
  }

  /** POST /api/OAuth/Token: a code and its PKCE verifier for the client's own token (once). */
  async token(body: { grant_type: string; code: string; redirect_uri: string; client_id: string; code_verifier: string }, ip: string, userAgent: string) {
    if (body.grant_type !== 'authorization_code') throw badRequest('只支持 grant_type=authorization_code');
    const now = Date.now();
    const row = await this.db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', digest(body.code)).executeTakeFirst();
    const invalid = () => badRequest('授权码无效或已过期，请重新授权');
    if (!row || row.used_at !== null || Number(row.expires_at) <= now) throw invalid();
    if (row.client_id !== body.client_id || row.redirect_uri !== body.redirect_uri) throw invalid();
    const challenge = crypto.createHash('sha256').update(body.code_verifier).digest('base64url');
    if (body.code_verifier.length < 43 || challenge !== row.code_challenge) throw badRequest('PKCE 校验失败：code_verifier 与 code_challenge 不符');
    const client = await this.db.selectFrom('oauth_clients').select(['revoked_at']).where('client_id', '=', row.client_id).executeTakeFirst();
    if (!client || client.revoked_at !== null) throw invalid();
    const user = await this.db.selectFrom('users').select(['id', 'disabled']).where('id', '=', row.user_id).executeTakeFirst();
    if (!user || user.disabled) throw forbidden('该账号已被停用');

    const accessToken = random(32);
    await this.db.transaction().execute(async (trx) => {
      const used = await trx.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', row.code_hash).where('used_at', 'is', null).executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw invalid();
      await trx
        .insertInto('sessions')
        .values({
          token_hash: digest(accessToken),
          // never handed out: a client token works only as a bearer token
          jwt_id_hash: digest(random(32)),
          user_id: row.user_id,
          created_at: now,
          last_seen_at: now,
          expires_at: now + this.config.sessionTtlMs,
          revoked_at: null,
          ip: ip.slice(0, 64),
          user_agent: userAgent.slice(0, 512),
          client_id: row.client_id,
          client_scope: row.scope,
        })
        .execute();
    });
    return { access_token: accessToken, token_type: 'Bearer' as const, expires_in: Math.floor(this.config.sessionTtlMs / 1000), scope: row.scope };
  }

  /** 个人设置: the clients holding a live token of the user. */
  async myClients(user: UserRow) {
    const now = Date.now();
    const rows = await this.db
      .selectFrom('sessions')
      .innerJoin('oauth_clients', 'oauth_clients.client_id', 'sessions.client_id')
      .select(['sessions.client_id as clientId', 'oauth_clients.name as name', 'sessions.client_scope as scope', 'sessions.created_at as createdAt', 'sessions.last_seen_at as lastSeenAt'])
      .where('sessions.user_id', '=', user.id)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .orderBy('sessions.created_at', 'desc')
      .execute();
    const byClient = new Map<string, { clientId: string; name: string; scopes: Set<string>; authorizedAt: number; lastUsedAt: number }>();
    for (const r of rows) {
      const id = String(r.clientId);
      const entry = byClient.get(id) ?? { clientId: id, name: r.name, scopes: new Set<string>(), authorizedAt: Number(r.createdAt), lastUsedAt: 0 };
      for (const s of r.scope.split(' ')) if (isScope(s)) entry.scopes.add(SCOPES[s]);
      entry.lastUsedAt = Math.max(entry.lastUsedAt, Number(r.lastSeenAt));
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

  /** Ends every token of one client for the user. */
  async revokeClient(user: UserRow, clientId: string): Promise<{ revoked: number }> {
    const res = await this.db
      .updateTable('sessions')
      .set({ revoked_at: Date.now() })
      .where('user_id', '=', user.id)
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const revoked = Number(res.numUpdatedRows);
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
    await this.db.updateTable('sessions').set({ revoked_at: now }).where('client_id', '=', clientId).where('revoked_at', 'is', null).execute();
  }
}
