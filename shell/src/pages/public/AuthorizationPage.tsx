// /authorization, 客户端授权: a desktop or third-party client asks to act for the signed-in user.
// The page names the client, the account and what it may do; 授权 sends the browser to the
// client's registered address with a one-time code, 拒绝 with access_denied. Without a session
// the user signs in first and comes back here (spec sections 2 and 4).
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api, useToken, useUserInfo, type AuthorizeInfo } from '@app/shared';
import { browserExit } from '../login/browserExit';
import { errorText } from '../login/stepSubmit';
import { PublicFrame } from './PublicFrame';

export function AuthorizationPage() {
  const [params] = useSearchParams();
  const token = useToken();
  const user = useUserInfo();
  const request = params.get('authorize');
  const [info, setInfo] = useState<AuthorizeInfo | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!request || !token) return;
    let live = true;
    api
      .getAuthorizeRequest(request, { errorMode: 'none' })
      .then((i) => live && setInfo(i))
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [request, token]);

  const answer = async (approve: boolean) => {
    if (!request || busy) return;
    setBusy(true);
    setError('');
    try {
      const { redirectTo } = await api.answerAuthorize(request, approve, { errorMode: 'none' });
      browserExit.leaveFor(redirectTo);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  if (!request) {
    return (
      <PublicFrame title="客户端授权" wide={false}>
        <p className="yw-note">缺少授权请求。请从客户端重新发起登录。</p>
      </PublicFrame>
    );
  }
  if (!token) {
    return (
      <PublicFrame title="客户端授权" wide={false}>
        <p className="yw-note">请先登录，再决定是否授权。</p>
        <Link className="yw-button yw-button--link" to={`/login?authorize=${encodeURIComponent(request)}`}>
          登录
        </Link>
      </PublicFrame>
    );
  }
  return (
    <PublicFrame title="客户端授权" wide={false}>
      {info ? (
        <>
          <p>
            <strong>{info.clientName}</strong> 请求以你的身份使用云文档。
          </p>
          <p className="yw-step__who">当前账号：{user?.nickName || user?.userName}</p>
          <p>授权后它可以：</p>
          <ul aria-label="授权范围">
            {info.scopes.map((s) => (
              <li key={s.name}>{s.description}</li>
            ))}
          </ul>
          <p className="yw-hint">它不能修改你的密码、动态口令或登录设置。你可以随时在“个人设置 → 已授权的客户端”中撤销授权；修改密码后授权也会失效。</p>
          <div className="yw-actions">
            <button type="button" className="yw-button" disabled={busy} onClick={() => void answer(true)}>
              授权
            </button>
            <button type="button" className="yw-button yw-button--ghost" disabled={busy} onClick={() => void answer(false)}>
              拒绝
            </button>
          </div>
        </>
      ) : null}
      <p className="yw-error" role="alert" aria-live="assertive">
        {error}
      </p>
    </PublicFrame>
  );
}
