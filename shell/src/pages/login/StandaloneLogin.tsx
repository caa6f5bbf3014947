// The sign-in page before the app: a signed-out visitor of / or /login gets the form with
// React, jotai and @app/shared only; the router, the layout and antd load when the page moves
// on (signed in, or a link followed), and the app then takes over at the new address.
import { useMemo, useState } from 'react';
import { Provider as JotaiProvider } from 'jotai';
import { appStore, navigateTo, setNavigate, tokenAtom } from '@app/shared';
import LoginPage from './LoginPage';
import { LoginNavigationContext, type LoginNavigation } from './loginNavigation';

const go = (to: string, options?: { replace?: boolean }) => {
  if (options?.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
};

/**
 * Renders the sign-in page; `handOver` loads the app and renders it in its place (called once).
 * Returns the element to render.
 */
export function standaloneLogin(handOver: () => void) {
  let handedOver = false;
  const leave = () => {
    if (handedOver) return;
    handedOver = true;
    unsubscribe();
    handOver();
  };
  // code outside React (a session ending, say) navigates the same way until the router is there
  setNavigate((to, options) => {
    go(to, options);
    leave();
  });
  // signed in here or in another tab: the app's /login route sends the session home
  const unsubscribe = appStore.sub(tokenAtom, () => {
    if (appStore.get(tokenAtom)) leave();
  });

  function Page() {
    const [search, setSearch] = useState(window.location.search);
    const nav = useMemo<LoginNavigation>(
      () => ({
        params: new URLSearchParams(search),
        navigate(to, options) {
          if (handedOver) return navigateTo(to, options);
          go(to, options);
          // still the sign-in page (DingTalk's code taken out of the address): stay
          if (window.location.pathname === '/login') setSearch(window.location.search);
          else leave();
        },
      }),
      [search],
    );
    return (
      <LoginNavigationContext.Provider value={nav}>
        <LoginPage />
      </LoginNavigationContext.Provider>
    );
  }

  return (
    <JotaiProvider store={appStore}>
      <Page />
    </JotaiProvider>
  );
}
