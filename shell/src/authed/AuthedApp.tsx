// The signed-in part of 云文档 (a lazy chunk: antd loads only after sign-in): providers,
// the menus and menus' data, the layout, and the routes that mount the remotes.
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Button, Result, Spin } from 'antd';
import {
  logout,
  startupRedirect,
  useFeaturePolicy,
  useHome,
  useSimpleMode,
  useToken,
  type RemoteName,
} from '@app/shared';
import { AppProviders } from '@app/shared/ui';
import { isRemoteRegistered } from '../federation/remotes';
import { RemoteArea } from '../federation/RemoteArea';
import { isSectionEnabled, type SectionKey } from '../layout/menuModel';
import { MainLayout } from '../layout/MainLayout';
import { useHomePath } from '../routing/helpers';
import { applyModeAndRemotes } from '../startup/modeAndRemotes';
import { enterSession } from '../startup/startup';
import { ErrorLogPage } from './ErrorLogPage';
import { NotFoundPage } from './NotFoundPage';
import { ReadingOverlay } from './ReadingOverlay';

const AccountPage = lazy(() => import('../account/AccountPage'));
const AdminPage = lazy(() => import('../admin/AdminPage'));

/** Loads home, menus and feature policy when they are not in the store yet. */
function SessionLoader({ children }: { children: ReactNode }) {
  const token = useToken();
  const home = useHome();
  const policy = useFeaturePolicy();
  const ready = Boolean(home && policy);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // Registration is synchronous and idempotent: done before the routes below render, so
  // that the gates see the remotes the mode and the feature policy allow.
  if (ready) applyModeAndRemotes();

  useEffect(() => {
    if (ready) return;
    let live = true;
    setFailed(false);
    enterSession().catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [ready, token, attempt]);

  if (ready) return <>{children}</>;
  if (failed) {
    return (
      <Result
        status="warning"
        title="无法加载账号信息"
        subTitle="请检查网络后重试。"
        extra={[
          <Button key="retry" type="primary" onClick={() => setAttempt((a) => a + 1)}>
            重新加载
          </Button>,
          <Button key="logout" onClick={() => void logout()}>
            退出登录
          </Button>,
        ]}
      />
    );
  }
  return (
    <div style={{ padding: 96, textAlign: 'center' }}>
      <Spin size="large" description="正在加载…">
        <div style={{ minHeight: 40 }} />
      </Spin>
    </div>
  );
}

/**
 * Shows a section's page only when the menu and the feature policy allow it: a menu entry
 * flagged not shown sends the user to the base home (spec section 2); otherwise 页面不存在.
 */
function SectionGate({ section, remote, children }: { section: SectionKey; remote: RemoteName; children: ReactNode }) {
  const { pathname } = useLocation();
  const home = useHome();
  const policy = useFeaturePolicy();
  const simple = useSimpleMode();
  const homePath = useHomePath();
  const redirect = home ? startupRedirect(pathname, home.menus, homePath ?? home.baseHome, true) : null;
  if (redirect && !pathname.startsWith(redirect)) return <Navigate to={redirect} replace />;
  const enabled = section === 'file' && pathname.startsWith('/setting') ? !simple : isSectionEnabled(section, policy, home, simple);
  if (!enabled || !isRemoteRegistered(remote)) {
    if (homePath && homePath !== '/404' && !pathname.startsWith(homePath)) return <Navigate to={homePath} replace />;
    return <NotFoundPage />;
  }
  return <>{children}</>;
}

function HomeRedirect() {
  const homePath = useHomePath();
  return <Navigate to={homePath ?? '/404'} replace />;
}

const remoteRoute = (section: SectionKey, remote: RemoteName, id: string, props?: Record<string, unknown>) => (
  <SectionGate section={section} remote={remote}>
    <RemoteArea id={id} props={props} />
  </SectionGate>
);

export function AuthedRoutes() {
  const simple = useSimpleMode();
  return (
    <Routes>
      <Route index element={<HomeRedirect />} />
      <Route path="404" element={<NotFoundPage />} />
      <Route path="error-log/list" element={<ErrorLogPage />} />
      <Route
        path="account"
        element={
          <Suspense fallback={<Spin style={{ display: 'block', padding: 48 }} />}>
            <AccountPage />
          </Suspense>
        }
      />
      <Route
        path="admin"
        element={
          <Suspense fallback={<Spin style={{ display: 'block', padding: 48 }} />}>
            <AdminPage />
          </Suspense>
        }
      />
      {simple ? (
        <>
          <Route path="ferry" element={<Navigate to="/ferry/file" replace />} />
          <Route path="ferry/*" element={remoteRoute('ferry', 'ferry', 'ferry/App')} />
        </>
      ) : (
        <>
          <Route path="file" element={<Navigate to="/file/personal" replace />} />
          <Route path="file/sharelist" element={remoteRoute('file', 'share', 'share/App')} />
          <Route path="file/shareme" element={remoteRoute('file', 'share', 'share/App')} />
          <Route path="file/*" element={remoteRoute('file', 'files', 'files/App', { section: 'file' })} />
          <Route path="setting" element={<Navigate to="/setting/tag" replace />} />
          <Route path="setting/*" element={remoteRoute('file', 'files', 'files/App', { section: 'setting' })} />
          <Route path="workflow" element={<Navigate to="/workflow/list" replace />} />
          <Route path="workflow/*" element={remoteRoute('workflow', 'workflow', 'workflow/App')} />
          <Route path="swapSpace" element={<Navigate to="/swapSpace/myFerry/processing" replace />} />
          <Route path="swapSpace/*" element={remoteRoute('swapSpace', 'swapspace', 'swapspace/App')} />
        </>
      )}
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

export default function AuthedApp() {
  return (
    <AppProviders>
      <SessionLoader>
        <MainLayout>
          <AuthedRoutes />
        </MainLayout>
      </SessionLoader>
      <ReadingOverlay />
    </AppProviders>
  );
}
