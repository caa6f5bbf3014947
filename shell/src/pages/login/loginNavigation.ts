// How the sign-in page moves on: through the router once the app is loaded (App's /login
// route), or on its own before that (StandaloneLogin: the first page a signed-out visitor sees
// loads without the router).
import { createContext, useContext } from 'react';

export interface LoginNavigation {
  navigate(to: string, options?: { replace?: boolean }): void;
  /** the page's query (authorize, DingTalk's code and state) */
  params: URLSearchParams;
}

export const LoginNavigationContext = createContext<LoginNavigation | null>(null);

export function useLoginNavigation(): LoginNavigation {
  const nav = useContext(LoginNavigationContext);
  if (!nav) throw new Error('the sign-in page is rendered without its navigation');
  return nav;
}
