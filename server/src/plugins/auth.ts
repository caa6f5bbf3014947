// 云文档 authentication: `Authorization: Bearer <token>` on every call, or the cookie
// `token` (= jwtId) for browser navigations that cannot carry a header (GET and HEAD).
// Routes are private unless their config says `public: true`.
import type { FastifyRequest } from 'fastify';
import type { SessionRow, UserRow } from '../db/types';
import { accountDisabled, forbidden, unauthorized } from '../lib/errors';
import { clientMayCall } from '../modules/oauth/scopes';
import { readCookie } from '../lib/cookies';
import { globalPlugin } from '../lib/plugin';
import { TOKEN_COOKIE } from '../modules/auth/routes';
import type { CredentialKind } from '../modules/auth/repository';

export interface RequestAuth {
  user: UserRow;
  session: SessionRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the caller's live session, null for anonymous calls */
    auth: RequestAuth | null;
    /** the signed-in caller; throws 401 when there is none */
    user(): UserRow;
  }
  interface FastifyContextConfig {
    /** callable without a session */
    public?: boolean;
    /** a public route that still resolves a session when one is sent (sign-out) */
    optionalAuth?: boolean;
  }
}

function credentialOf(req: FastifyRequest, allowCookie: boolean): { kind: CredentialKind; secret: string } | null {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return { kind: 'bearer', secret: m ? m[1] : '' };
  }
  const cookie = readCookie(req, TOKEN_COOKIE);
  if (allowCookie && cookie) return { kind: 'cookie', secret: cookie };
  return null;
}

export const authPlugin = globalPlugin('yunwendang-auth', async (app) => {
  app.decorateRequest('auth', null);
  app.decorateRequest('user', function (this: FastifyRequest) {
    if (!this.auth) throw unauthorized();
    return this.auth.user;
  });

  app.addHook('onRequest', async (req) => {
    if (req.is404) return;
    const config = req.routeOptions.config ?? {};
    if (config.public && !config.optionalAuth) return;
    const allowCookie = req.method === 'GET' || req.method === 'HEAD' || config.optionalAuth === true;
    const credential = credentialOf(req, allowCookie);
    if (!credential) {
      if (config.public) return;
      throw unauthorized();
    }
    const outcome = await app.services.auth.authenticate(credential.kind, credential.secret);
    if (outcome.status === 'ok' || (outcome.status === 'disabled' && config.public)) {
      // a client's token does only what its scopes allow (modules/oauth/scopes.ts)
      const session = outcome.session;
      if (session.client_id && !clientMayCall(session.client_scope, req.method, req.routeOptions.url ?? '')) {
        throw forbidden('该客户端未获授权执行此操作');
      }
      req.auth = { user: outcome.user, session };
      return;
    }
    if (config.public) return;
    if (outcome.status === 'disabled' || outcome.status === 'ended') throw accountDisabled();
    throw unauthorized();
  });
});
