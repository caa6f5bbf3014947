// Start-up of the 云文档 shell: loading screen (index.html's, until start-up takes long),
// runtime configuration, session rules, then the app. A signed-out visitor of / or /login
// gets the sign-in page with react, jotai and @app/shared (antd-free) only; the router and
// the app load when it moves on. index.html has already shown that visitor its sign-in form,
// which the page takes over (pages/login/earlyForm.ts): no loading screen then.
import { createRoot, type Root } from 'react-dom/client';
import { appendErrorLog, appStore, startSessionSync, tokenAtom } from '@app/shared';
import { REMOTE_ERROR_EVENT, type RemoteErrorDetail } from './federation/events';
import { installLazyNotifier } from './notifier/lazyNotifier';
import { ConfigErrorScreen, fillStaticLoadingScreen, LoadingScreen } from './pages/LoadingScreen';
import { earlyFormShown } from './pages/login/earlyForm';
import { hasCachedClientConfig, loadRuntimeConfig } from './startup/runtimeConfig';
import { fetchRuntimeConfig } from './startup/runtimeConfigRequest';
import { startsWithSignIn, startUp } from './startup/startup';
import { startVersionCheck } from './version/versionCheck';

function captureErrors(): void {
  window.addEventListener('error', (event) => {
    const target = event.target as (HTMLElement & { src?: string; href?: string }) | null;
    if (target && target !== (window as unknown) && (target.src || target.href)) {
      appendErrorLog({ type: 'resource', message: '资源加载失败', url: target.src || target.href });
      return;
    }
    appendErrorLog({ type: 'script', message: event.message || '脚本错误', url: event.filename });
  }, true);
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason as { message?: string; name?: string } | undefined;
    if (reason && reason.name === 'ApiError') return; // already logged by the HTTP client
    appendErrorLog({ type: 'promise', message: reason?.message || String(event.reason) });
  });
  window.addEventListener(REMOTE_ERROR_EVENT, (event) => {
    const { id, lifecycle, message } = (event as CustomEvent<RemoteErrorDetail>).detail;
    appendErrorLog({ type: 'remote', message, url: id, detail: lifecycle });
  });
}

/** How long index.html's loading screen stands still before React takes it over, its bar ticking. */
const LOADING_TAKEOVER_MS = 100;

/**
 * The loading screen through start-up (spec section 2). index.html shows it from the first
 * paint, before any script has run; it is full at once when a client configuration is cached.
 * React takes it over, its bar gaining 1 % every 30 ms, only when start-up takes longer than
 * LOADING_TAKEOVER_MS.
 */
function loadingScreen(root: Root, container: HTMLElement) {
  const immediate = hasCachedClientConfig();
  if (immediate) fillStaticLoadingScreen(container);
  let complete = () => {};
  const done = new Promise<void>((resolve) => {
    complete = resolve;
  });
  let takenOver = false;
  const takeOver = window.setTimeout(() => {
    takenOver = true;
    root.render(<LoadingScreen immediate={immediate} onComplete={complete} />);
  }, LOADING_TAKEOVER_MS);
  return {
    /**
     * Start-up has fetched (and so cached) the client configuration: the bar fills at once, and
     * stays full while the page's own code finishes loading. Resolves when the page may replace
     * the screen.
     */
    finish(): Promise<void> {
      window.clearTimeout(takeOver);
      if (!takenOver) {
        fillStaticLoadingScreen(container);
        return Promise.resolve();
      }
      root.render(<LoadingScreen immediate={immediate} configCached onComplete={complete} />);
      return done;
    },
    /** start-up failed: another screen replaces this one */
    cancel(): void {
      window.clearTimeout(takeOver);
    },
  };
}

/** index.html's sign-in form stands, usable, while start-up runs: no loading screen. */
const earlyFormWaiting: ReturnType<typeof loadingScreen> = { finish: () => Promise.resolve(), cancel: () => {} };

async function main(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) return;
  const root = createRoot(container);
  captureErrors();
  installLazyNotifier();
  const loading = earlyFormShown() ? earlyFormWaiting : loadingScreen(root, container);
  // what comes next is fetched while the runtime configuration is: the sign-in page for a
  // signed-out visitor of / or /login, else the app (start-up may still choose the other)
  const signInLikely = startsWithSignIn(window.location.pathname, !!appStore.get(tokenAtom));
  const early = signInLikely
    ? { login: import(/* webpackChunkName: "sign-in" */ './pages/login/StandaloneLogin') }
    : { app: import(/* webpackChunkName: "app" */ './App') };
  early.login?.catch(() => undefined);
  early.app?.catch(() => undefined);

  const result = await loadRuntimeConfig(fetchRuntimeConfig);
  if (!result.ok) {
    loading.cancel();
    root.render(<ConfigErrorScreen errors={result.errors} />);
    return;
  }
  const { replaceWith } = await startUp(result.config, window.location);
  if (replaceWith) window.history.replaceState(null, '', replaceWith);
  startSessionSync();
  // the sign-in page registered no remotes: the app does before it renders
  const renderApp = () =>
    void Promise.all([import(/* webpackChunkName: "app" */ './App'), import('./startup/modeAndRemotes')]).then(
      ([{ default: App }, { applyModeAndRemotes }]) => {
        applyModeAndRemotes();
        root.render(<App />);
      },
    );
  if (startsWithSignIn(window.location.pathname, !!appStore.get(tokenAtom))) {
    if (window.location.pathname !== '/login') window.history.replaceState(null, '', '/login');
    const login = early.login ?? import(/* webpackChunkName: "sign-in" */ './pages/login/StandaloneLogin');
    await loading.finish();
    root.render((await login).standaloneLogin(renderApp));
  } else {
    const app = early.app ?? import(/* webpackChunkName: "app" */ './App');
    await loading.finish();
    const { default: App } = await app;
    root.render(<App />);
  }
  startVersionCheck();
}

void main();
