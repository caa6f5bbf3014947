// 钉钉扫码 inside the login page (DINGTALK_LOGIN_MODE=qr): DingTalk's own login script
// (DTFrameLogin, loaded from the address the server gives, only when the user asks for it)
// draws its QR code in a frame and hands back the authorization code and the state, which the
// login page checks and signs in with exactly as after a redirect.
import { useEffect, useRef } from 'react';
import { dingtalkRequest } from './dingtalk';

interface DTFrameLoginResult {
  redirectUrl: string;
  authCode: string;
  state: string;
}
type DTFrameLogin = (
  frame: { id: string; width: number; height: number },
  params: Record<string, string>,
  onSuccess: (result: DTFrameLoginResult) => void,
  onError: (message: string) => void,
) => void;
type WithDingtalk = Window & { DTFrameLogin?: DTFrameLogin };

const FRAME_ID = 'yw-dingtalk-qr';
let loading: Promise<void> | null = null;

/** Adds DingTalk's script once per page (again after a failure). */
function loadSdk(url: string): Promise<void> {
  if ((window as WithDingtalk).DTFrameLogin) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      loading = null;
      reject(new Error('sdk'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export interface DingtalkQrPanelProps {
  dingtalk: { appId: string; sdkUrl?: string };
  authorize: string | null;
  /** the code and state DingTalk handed back */
  onCode: (code: string, state: string) => void;
  onError: (message: string) => void;
  onClose: () => void;
}

export function DingtalkQrPanel({ dingtalk, authorize, onCode, onError, onClose }: DingtalkQrPanelProps) {
  const latest = useRef({ onCode, onError });
  latest.current = { onCode, onError };

  useEffect(() => {
    let live = true;
    loadSdk(dingtalk.sdkUrl ?? '')
      .then(() => {
        const draw = (window as WithDingtalk).DTFrameLogin;
        if (!live) return;
        if (!draw) throw new Error('sdk');
        const host = document.getElementById(FRAME_ID);
        if (host) host.innerHTML = '';
        const request = dingtalkRequest(dingtalk, authorize);
        draw(
          { id: FRAME_ID, width: 300, height: 300 },
          { ...request, redirect_uri: encodeURIComponent(request.redirect_uri) },
          (result) => live && latest.current.onCode(result.authCode, result.state),
          (message) => live && latest.current.onError(`钉钉扫码登录失败：${message || '请重试'}`),
        );
      })
      .catch(() => live && latest.current.onError('钉钉扫码组件加载失败，请检查网络，或改用账号密码登录'));
    return () => {
      live = false;
    };
  }, [dingtalk, authorize]);

  return (
    <section className="yw-dingtalk-qr" aria-label="钉钉扫码登录">
      <p className="yw-muted">请使用钉钉扫描二维码登录</p>
      <div id={FRAME_ID} className="yw-dingtalk-qr__frame" />
      <button type="button" className="yw-button yw-button--ghost" onClick={onClose}>
        返回账号密码登录
      </button>
    </section>
  );
}

/** Tests start with no script loaded. */
export function resetDingtalkSdkForTests(): void {
  loading = null;
  delete (window as WithDingtalk).DTFrameLogin;
}
