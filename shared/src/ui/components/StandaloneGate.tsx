import { useEffect, useState, type ReactNode } from 'react';
import { Button, Result, Spin } from 'antd';
import { APP_NAME, LOGIN_PATH, loadUserContext, useToken } from '@app/shared';

/** Where a remote served alone sends the user to sign in: 云文档 on the server's default port. */
function defaultLoginUrl(): string {
  if (typeof window === 'undefined') return LOGIN_PATH;
  const { protocol, hostname } = window.location;
  return `${protocol}//${hostname}:8080${LOGIN_PATH}`;
}

export interface StandaloneGateProps {
  children: ReactNode;
  /** the sign-in page of 云文档 (default: this host, port 8080, /login) */
  loginUrl?: string;
}

/**
 * Used only by a remote's own standalone page (bootstrap.tsx): with the session token kept
 * in localStorage it loads the user context (roles, feature policy, folder names) and shows
 * the remote; without one it explains that 云文档 must be signed in first.
 */
export function StandaloneGate({ children, loginUrl }: StandaloneGateProps) {
  const token = useToken();
  const [loadedFor, setLoadedFor] = useState<string | null>(null);

  useEffect(() => {
    if (!token) return;
    let live = true;
    // a failure here is not fatal: the pages fall back to their defaults and show their own errors
    loadUserContext()
      .catch(() => undefined)
      .finally(() => {
        if (live) setLoadedFor(token);
      });
    return () => {
      live = false;
    };
  }, [token]);

  if (!token) {
    return (
      <Result
        status="warning"
        title="尚未登录"
        subTitle={`此模块单独运行时需要已登录的会话，请先通过${APP_NAME}登录后再打开本页面。`}
        extra={
          <Button type="primary" href={loginUrl ?? defaultLoginUrl()}>
            前往{APP_NAME}登录
          </Button>
        }
      />
    );
  }
  if (loadedFor !== token) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin description="加载中">
          <div style={{ height: 48 }} />
        </Spin>
      </div>
    );
  }
  return <>{children}</>;
}
