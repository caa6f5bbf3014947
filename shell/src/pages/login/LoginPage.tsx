// The sign-in page of 云文档: plain React and CSS, no antd and no router (it must load fast:
// StandaloneLogin renders it before the app, App's /login route within it).
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import {
  api,
  homePathOf,
  Messages,
  sessionStore,
  setSession,
  StorageKey,
  useRuntimeConfig,
  type LoginResult,
} from '@app/shared';
import { useBranding, useProductName } from '../../branding/branding';
import { enterSession } from '../../startup/startup';
import { Brand } from '../public/Brand';
import { browserExit } from './browserExit';
import { dingtalkReturn, dingtalkSignInUrl } from './dingtalk';
import { takeEarlyForm } from './earlyForm';
import { useLoginNavigation } from './loginNavigation';
import { errorText, stepOf } from './stepSubmit';
import '../public/public.css';

// what only some sign-ins need loads when it is needed: the second steps after an answer that
// asks for one, DingTalk's QR panel when it is opened
const SecondStep = lazy(() => import('./SecondStep'));
const DingtalkQrPanel = lazy(() => import('./DingtalkQrPanel').then((m) => ({ default: m.DingtalkQrPanel })));

export default function LoginPage() {
  const { navigate, params } = useLoginNavigation();
  const runtime = useRuntimeConfig();
  const branding = useBranding();
  // index.html's form, shown before the script arrived, is taken over with what it holds
  const [early] = useState(takeEarlyForm);
  const [userName, setUserName] = useState(early?.userName ?? '');
  const [password, setPassword] = useState(early?.password ?? '');
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(early?.pending === 'submit');
  const userRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  /** a second step in progress (password reset, TOTP binding, TOTP code) */
  const [step, setStep] = useState<LoginResult | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const productName = useProductName();
  const dingtalk = runtime?.dingtalk ?? null;

  /** 钉钉扫码 shown in the page (DINGTALK_LOGIN_MODE=qr) */
  const [qrOpen, setQrOpen] = useState(false);

  /** Signs in with the code DingTalk handed back, when its state is the one this tab sent. */
  function signInWithDingtalk(back: NonNullable<ReturnType<typeof dingtalkReturn>>, appId: string) {
    if (!back.ok) {
      setError('钉钉登录已失效，请重新点击“钉钉登录”');
      return;
    }
    setError('');
    setLoading(true);
    api
      .loginWithDingtalk(back.code, appId, { errorMode: 'none' })
      .then((result) => finish(result, back.authorize))
      .catch((err: unknown) => mounted.current && setError(errorText(err)))
      .finally(() => mounted.current && setLoading(false));
  }

  // back from DingTalk with a code: sign in with it (once; the query leaves the address bar)
  const returned = useRef(false);
  useEffect(() => {
    if (returned.current || !dingtalk) return;
    const back = dingtalkReturn(params);
    if (!back) return;
    returned.current = true;
    navigate(back.authorize ? `/login?authorize=${encodeURIComponent(back.authorize)}` : '/login', { replace: true });
    signInWithDingtalk(back, dingtalk.appId);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dingtalk]);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!loading) void signIn();
  }

  async function signIn() {
    const missing = !userName.trim() ? '请输入用户名' : !password ? '请输入密码' : '';
    if (missing) {
      setLoading(false);
      return setError(missing);
    }
    setError('');
    setLoading(true);
    try {
      const result = await api.login({ userName: userName.trim(), password }, { errorMode: 'none' });
      await finish(result);
    } catch (err) {
      if (mounted.current) setError(errorText(err));
    } finally {
      if (mounted.current) setLoading(false);
    }
  }

  /** A session goes on to the authorize page or home; a second step is shown. */
  async function finish(result: LoginResult, authorizeQuery: string | null = params.get('authorize')) {
    const user = setSession(result);
    if (!user) {
      if (!mounted.current) return;
      if (stepOf(result) && result.actionToken) {
        setStep(result);
        setPassword('');
      } else {
        setStep(null);
        setError(Messages.loginFailed);
      }
      return;
    }
    const authorize = authorizeQuery;
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
  }

  function openDingtalk() {
    if (!dingtalk) return;
    if (dingtalk.mode === 'qr') setQrOpen(true);
    else browserExit.leaveFor(dingtalkSignInUrl(dingtalk, params.get('authorize')));
  }

  // the cursor back where it was in index.html's form, before the first paint
  useLayoutEffect(() => {
    const focus = early?.pending ? null : early?.focus;
    if (!focus) return;
    const field = focus.field === 'userName' ? userRef.current : passwordRef.current;
    field?.focus();
    field?.setSelectionRange(focus.start, focus.end);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // a press of 登录 or 钉钉登录 made there before the script arrived is carried out now
  useEffect(() => {
    if (early?.pending === 'submit') void signIn();
    else if (early?.pending === 'dingtalk') openDingtalk();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const backToForm = (message?: string) => {
    setStep(null);
    setError(message ?? '');
  };

  const background = branding?.login_Background ? { backgroundImage: `url(${branding.login_Background})` } : undefined;

  return (
    <div className="yw-screen" style={background}>
      {branding?.logo_Dark_Large ? <img className="yw-screen__mark" src={branding.logo_Dark_Large} alt="" /> : null}
      <main className="yw-card" aria-labelledby="login-title">
        <Brand name={productName} logo={branding?.logo_Light || undefined} />
        <p className="yw-subtitle" id="login-title">
          企业云文档与文件工作区 · 账号登录
        </p>
        {step ? (
          <Suspense fallback={null}>
            <SecondStep step={step} onResult={(r) => void finish(r)} onBack={backToForm} />
          </Suspense>
        ) : (
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
              autoFocus={!early}
              ref={userRef}
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
              ref={passwordRef}
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
        )}
        {dingtalk && !step && qrOpen ? (
          <Suspense fallback={null}>
            <DingtalkQrPanel
              dingtalk={dingtalk}
              authorize={params.get('authorize')}
              onCode={(code, state) => {
                setQrOpen(false);
                const back = dingtalkReturn(new URLSearchParams({ authCode: code, state }));
                if (back) signInWithDingtalk(back, dingtalk.appId);
              }}
              onError={(message) => {
                setQrOpen(false);
                setError(message);
              }}
              onClose={() => setQrOpen(false)}
            />
          </Suspense>
        ) : dingtalk && !step ? (
          <button
            type="button"
            className="yw-button yw-button--ghost yw-button--dingtalk"
            disabled={loading}
            onClick={openDingtalk}
          >
            钉钉登录
          </button>
        ) : null}
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
