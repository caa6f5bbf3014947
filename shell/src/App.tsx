// The one router of 云文档. Public routes and the sign-in page stay free of antd; the
// signed-in app, the public share page and the preview page are lazy chunks.
import { lazy, Suspense, useMemo } from 'react';
import { Provider as JotaiProvider } from 'jotai';
import { BrowserRouter, Navigate, Route, Routes, useNavigate, useSearchParams } from 'react-router-dom';
import { appStore, useToken } from '@app/shared';
import { LoginNavigationContext, type LoginNavigation } from './pages/login/loginNavigation';
import { NavigationBridge, PageFallback, RedirectRoute, ScrollToTop, useHomePath } from './routing/helpers';
import { UploadRoot } from './upload/UploadRoot';

const LoginPage = lazy(() => import('./pages/login/LoginPage'));
const AuthedApp = lazy(() => import('./authed/AuthedApp'));
const SharePageHost = lazy(() => import('./authed/SharePageHost'));
const PreviewHost = lazy(() => import('./authed/PreviewHost'));
const publicPage = (name: keyof typeof import('./pages/public/PublicPages')) =>
  lazy(() => import('./pages/public/PublicPages').then((m) => ({ default: m[name] })));
const ServicePage = publicPage('ServicePage');
const PrivacyPage = publicPage('PrivacyPage');
const SignUpPage = publicPage('SignUpPage');
const AuthorizationPage = publicPage('AuthorizationPage');

function LoginRoute() {
  const token = useToken();
  const home = useHomePath();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const nav = useMemo<LoginNavigation>(() => ({ navigate: (to, options) => void navigate(to, options), params }), [navigate, params]);
  // signed in: a client's authorize request goes on to /authorization (spec sections 2 and 4), else home
  const authorize = params.get('authorize');
  if (token) return <Navigate to={authorize ? `/authorization?authorize=${encodeURIComponent(authorize)}` : (home ?? '/')} replace />;
  return (
    <LoginNavigationContext.Provider value={nav}>
      <LoginPage />
    </LoginNavigationContext.Provider>
  );
}

function Protected() {
  const token = useToken();
  if (!token) return <Navigate to="/login" replace />;
  return <AuthedApp />;
}

export function ShellRoutes() {
  return (
    <>
      <NavigationBridge />
      <ScrollToTop />
      <Suspense fallback={<PageFallback />}>
        <Routes>
          <Route path="/login" element={<LoginRoute />} />
          <Route path="/s/:shareId" element={<SharePageHost />} />
          <Route path="/mobilityPreview" element={<PreviewHost mobile />} />
          <Route path="/previewVideo" element={<PreviewHost />} />
          <Route path="/preview/:previewData" element={<PreviewHost />} />
          <Route path="/authorization" element={<AuthorizationPage />} />
          <Route path="/signUp" element={<SignUpPage />} />
          <Route path="/service" element={<ServicePage />} />
          <Route path="/privacy" element={<PrivacyPage />} />
          <Route path="/agreement" element={<Navigate to="/service" replace />} />
          <Route path="/redirect/*" element={<RedirectRoute />} />
          <Route path="*" element={<Protected />} />
        </Routes>
      </Suspense>
      <UploadRoot />
    </>
  );
}

export default function App() {
  return (
    <JotaiProvider store={appStore}>
      <BrowserRouter>
        <ShellRoutes />
      </BrowserRouter>
    </JotaiProvider>
  );
}
