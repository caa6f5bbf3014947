// The sign-in page of 云文档: plain React and CSS, no antd (it must load fast).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  api,
  APP_NAME,
  homePathOf,
  isApiError,
  Messages,
  sessionStore,
  setSession,
  StorageKey,
  useRuntimeConfig,
  type ClientBranding,
} from '@app/shared';
import { enterSession } from '../../startup/startup';
import { Brand } from '../public/Brand';
import '../public/public.css';

function secondStepMessage(r: { passwordReset?: boolean; totpBind?: boolean; totpCode?: boolean }): string {
  if (r.passwordReset) return '该账号需要先重置密码，请联系管理员处理后再登录';
  if (r.totpBind || r.totpCode) return '该账号已开启两步验证，请联系管理员处理后再登录';
  return Messages.loginFailed;
}

export default function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const runtime = useRuntimeConfig();
  const [branding, setBranding] = useState<ClientBranding | null>(null);
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    api
      .getBranding({ errorMode: 'none' })
      .then((b) => mounted.current && setBranding(b))
      .catch(() => undefined);
    return () => {
      mounted.current = false;
    };
  }, []);

  const productName = branding?.systemName_Client || runtime?.appTitle || APP_NAME;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    if (!userName.trim()) return setError('请输入用户名');
    if (!password) return setError('请输入密码');
    setError('');
    setLoading(true);
    try {
      const result = await api.login({ userName: userName.trim(), password }, { errorMode: 'none' });
      const user = setSession(result);
      if (!user) {
        if (mounted.current) setError(secondStepMessage(result));
        return;
      }
      const authorize = params.get('authorize');
      if (authorize) {
        sessionStore.set(StorageKey.AuthorizeLogin, result);
        navigate(`/authorization?authorize=${encodeURIComponent(authorize)}`, { replace: true });
        return;
      }
      let target = '/';
      try {
        const home = await enterSession();
        target = homePathOf(home.menus, home.baseHome);
      } catch {
        /* the layout loads the menus again */
      }
      navigate(target, { replace: true });
    } catch (err) {
      if (!mounted.current) return;
      // the server's message; a timeout or network failure says so; else 登录失败，请稍后重试
      if (isApiError(err)) setError(err.serverMessage || (err.code === 0 && !err.canceled ? err.message : Messages.loginFailed));
      else setError(Messages.loginFailed);
    } finally {
      if (mounted.current) setLoading(false);
    }
  }

  const background = branding?.login_Background ? { backgroundImage: `url(${branding.login_Background})` } : undefined;

  return (
    <div className="yw-screen" style={background}>
      <main className="yw-card" aria-labelledby="login-title">
        <Brand name={productName} logo={branding?.logo_Light || undefined} />
        <p className="yw-subtitle" id="login-title">
          企业云文档与文件工作区 · 账号登录
        </p>
        <form className="yw-form" onSubmit={onSubmit} noValidate>
          <div className="yw-field">
            <label htmlFor="login-user">用户名</label>
            <input
              id="login-user"
              className="yw-input"
              name="userName"
              autoComplete="username"
              placeholder="请输入用户名"
              value={userName}
              disabled={loading}
              autoFocus
              onChange={(e) => setUserName(e.target.value)}
            />
          </div>
          <div className="yw-field">
            <label htmlFor="login-password">密码</label>
            <input
              id="login-password"
              className="yw-input"
              name="password"
              type="password"
              autoComplete="current-password"
              placeholder="请输入密码"
              value={password}
              disabled={loading}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          <p className="yw-error" role="alert" aria-live="assertive">
            {error}
          </p>
          <button type="submit" className="yw-button" disabled={loading} aria-busy={loading}>
            {loading ? (
              <>
                <span className="yw-spinner" aria-hidden="true" />
                登录中…
              </>
            ) : (
              '登录'
            )}
          </button>
        </form>
        <nav className="yw-links" aria-label="其他链接">
          <a href="/signUp" onClick={(e) => (e.preventDefault(), navigate('/signUp'))}>
            申请注册
          </a>
          <a href="/service" onClick={(e) => (e.preventDefault(), navigate('/service'))}>
            服务协议
          </a>
          <a href="/privacy" onClick={(e) => (e.preventDefault(), navigate('/privacy'))}>
            隐私政策
          </a>
        </nav>
        <p className="yw-footer">© {new Date().getFullYear()} {productName}</p>
      </main>
    </div>
  );
}
