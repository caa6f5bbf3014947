// Start-up of the 云文档 shell (spec section 4 "Start-up" and section 2 access rules).
import {
  appStore,
  applyTemporaryToken,
  loadUserContext,
  runtimeConfigAtom,
  startupRedirect,
  tokenAtom,
  type HomeInfo,
  type RuntimeConfig,
} from '@app/shared';

/** Simple (ferry-only) mode: runtime mode simple, or a home path containing "ferry". */
export function isSimpleMode(config: RuntimeConfig | null, home: HomeInfo | null): boolean {
  return config?.mode === 'simple' || !!home?.baseHome?.includes('ferry');
}

/**
 * Applies simple mode and registers the remotes that mode and feature policy allow
 * (modeAndRemotes.ts, loaded here on demand: the sign-in page does not need it).
 */
export async function applyModeAndRemotesLater(): Promise<void> {
  const { applyModeAndRemotes } = await import('./modeAndRemotes');
  applyModeAndRemotes();
}

/** Loads home, menus and feature policy of the signed-in user, then applies mode and remotes. */
export async function enterSession(): Promise<HomeInfo> {
  const home = await loadUserContext();
  await applyModeAndRemotesLater();
  return home;
}

/**
 * Hash entries of older links: `#/login?authorize=…` is the authorize-login entry and
 * `#/authorization…` the authorization page. Returns the path to use instead, or null.
 */
export function hashEntry(hash: string): string | null {
  if (hash.startsWith('#/login?authorize=')) return hash.slice(1);
  if (hash.startsWith('#/authorization')) return hash.slice(1);
  return null;
}

/**
 * Whether a start at this address begins with the sign-in page alone (StandaloneLogin): signed
 * out at /login, or at / (which the app would send to /login).
 */
export function startsWithSignIn(pathname: string, signedIn: boolean): boolean {
  return !signedIn && (pathname === '/login' || pathname === '/');
}

export interface StartupResult {
  /** the URL (path + search + hash) the router should start at, when it must change */
  replaceWith: string | null;
}

/**
 * Runs the start-up rules; every failure is swallowed (the user then simply signs in).
 */
export async function startUp(config: RuntimeConfig, location: Pick<Location, 'pathname' | 'search' | 'hash'>): Promise<StartupResult> {
  appStore.set(runtimeConfigAtom, config);
  if (config.appTitle && typeof document !== 'undefined') document.title = config.appTitle;
  let replaceWith: string | null = null;
  try {
    const fromHash = hashEntry(location.hash);
    if (fromHash) return { replaceWith: fromHash };
    const path = location.pathname;
    if (path.startsWith('/preview') || path.startsWith('/s/')) {
      await applyModeAndRemotesLater();
      return { replaceWith: null };
    }
    applyTemporaryToken();
    if (appStore.get(tokenAtom)) {
      try {
        const home = await enterSession();
        const target = startupRedirect(path, home.menus, home.baseHome, true);
        if (target) replaceWith = target;
      } catch {
        /* swallowed: the layout retries, or the session expiry sends the user to login */
      }
    }
    // the sign-in page alone needs no remotes: the app registers them when it loads
    if (!startsWithSignIn(path, !!appStore.get(tokenAtom))) await applyModeAndRemotesLater();
  } catch {
    /* any start-up failure is swallowed */
  }
  return { replaceWith };
}
