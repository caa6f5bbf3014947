// DingTalk's open API for 云文档 sign-in (docs/integration.md, "DingTalk"): the browser signs in
// at DingTalk and comes back with an authorization code; the server exchanges it for a user
// access token (POST /v1.0/oauth2/userAccessToken) and reads who it is
// (GET /v1.0/contact/users/me). Any error of DingTalk's signs nobody in.
import type { DingTalkConfig } from '../../config';
import { AppError } from '../../lib/errors';

export interface DingTalkUser {
  unionId: string;
  nick: string;
  mobile: string;
  email: string;
}

const TIMEOUT_MS = 10_000;

/** HTTP 502, code 50201: DingTalk refused or could not be reached; its own message is kept. */
const dingtalkFailed = (detail: string) => new AppError(502, 50201, `钉钉登录失败：${detail}`.slice(0, 300));

export class DingTalkClient {
  constructor(private readonly config: DingTalkConfig) {}

  private async call(path: string, init: RequestInit): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(`${this.config.apiBase}${path}`, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      throw dingtalkFailed('无法连接钉钉服务，请稍后重试');
    }
    let body: Record<string, unknown> = {};
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    if (!res.ok) {
      const message = typeof body.message === 'string' && body.message ? body.message : `HTTP ${res.status}`;
      throw dingtalkFailed(message);
    }
    return body;
  }

  /** The user behind an authorization code. */
  async userOf(code: string): Promise<DingTalkUser> {
    const token = await this.call('/v1.0/oauth2/userAccessToken', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: this.config.appKey, clientSecret: this.config.appSecret, code, grantType: 'authorization_code' }),
    });
    if (typeof token.accessToken !== 'string' || !token.accessToken) throw dingtalkFailed('钉钉未返回访问令牌');
    const me = await this.call('/v1.0/contact/users/me', { headers: { 'x-acs-dingtalk-access-token': token.accessToken } });
    if (typeof me.unionId !== 'string' || !me.unionId) throw dingtalkFailed('钉钉未返回用户标识');
    const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
    return { unionId: me.unionId, nick: text(me.nick), mobile: text(me.mobile).replace(/^\+?86-?/, ''), email: text(me.email).toLowerCase() };
  }
}
