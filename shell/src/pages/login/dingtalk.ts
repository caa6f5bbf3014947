// 钉钉登录 from the login page: the browser goes to DingTalk with a random state (kept in
// session storage with the authorize query, if any) and comes back to /login with an
// authorization code (`authCode`, or `code` from older apps) and the same state.
import { sessionStore, StorageKey } from '@app/shared';

interface Pending {
  state: string;
  authorize: string | null;
}

/** The query DingTalk's sign-in needs, with a fresh state kept in session storage (with the authorize query, if any). */
export function dingtalkRequest(dingtalk: { appId: string }, authorize: string | null): Record<string, string> {
  const state = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  sessionStore.set<Pending>(StorageKey.DingTalkState, { state, authorize });
  return {
    redirect_uri: `${window.location.origin}/login`,
    response_type: 'code',
    client_id: dingtalk.appId,
    scope: 'openid',
    state,
    prompt: 'consent',
  };
}

export function dingtalkSignInUrl(dingtalk: { appId: string; authorizeUrl: string }, authorize: string | null): string {
  return `${dingtalk.authorizeUrl}?${new URLSearchParams(dingtalkRequest(dingtalk, authorize)).toString()}`;
}

/**
 * The code DingTalk sent back, when the query holds one: `ok` false when its state is not the
 * one this tab sent (an old or forged link). The kept state is used once.
 */
export function dingtalkReturn(params: URLSearchParams): { ok: boolean; code: string; authorize: string | null } | null {
  const code = params.get('authCode') || params.get('code');
  const state = params.get('state');
  if (!code || state === null) return null;
  const pending = sessionStore.get<Pending>(StorageKey.DingTalkState);
  sessionStore.remove(StorageKey.DingTalkState);
  return { ok: Boolean(pending && pending.state === state), code, authorize: pending?.authorize ?? null };
}
