// Router helpers of the 云文档 shell that stay free of antd.
import { useEffect, useLayoutEffect } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { homePathOf, setNavigate, useHome } from '@app/shared';

/** Lets non-React code (sign-out, the jump helper) use the router. */
export function NavigationBridge() {
  const navigate = useNavigate();
  useLayoutEffect(() => {
    setNavigate((to, options) => navigate(to, options));
    return () => setNavigate(null);
  }, [navigate]);
  return null;
}

/** Scrolls to the top on every navigation. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    const el = document.scrollingElement ?? document.documentElement;
    if (el) el.scrollTop = 0;
  }, [pathname]);
  return null;
}

/** The signed-in user's home path: first shown menu entry, else not found. */
export function useHomePath(): string | null {
  const home = useHome();
  return home ? homePathOf(home.menus, home.baseHome) : null;
}

/** /redirect/<path>: re-mounts <path> (used to refresh a page or a tab). */
export function RedirectRoute() {
  const params = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${params['*'] ?? ''}${search}`} replace />;
}

export function PageFallback() {
  return <div style={{ padding: 48, textAlign: 'center', color: '#8f959e' }}>加载中…</div>;
}
