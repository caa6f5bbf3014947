// Public pages of 云文档 reachable without signing in (spec section 2). Plain React: no antd.
// The agreements are the texts the administrator wrote in 系统管理 (built-in ones until then).
import { useEffect, useState } from 'react';
import { api, type Agreement } from '@app/shared';
import { AgreementText } from './AgreementText';
import { PublicFrame } from './PublicFrame';
import './public.css';

export { SignUpPage } from './SignUpPage';

function AgreementPage({ kind, title }: { kind: Agreement['kind']; title: string }) {
  const [agreement, setAgreement] = useState<Agreement | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setAgreement(null);
    setFailed(false);
    api
      .getAgreement(kind, { errorMode: 'none' })
      .then((a) => live && setAgreement(a))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [kind]);
  return (
    <PublicFrame title={title}>
      {agreement ? (
        <AgreementText content={agreement.content} />
      ) : failed ? (
        <p role="alert">{title}暂时无法加载，请稍后刷新重试。</p>
      ) : (
        <p className="yw-muted">正在加载…</p>
      )}
    </PublicFrame>
  );
}

export function ServicePage() {
  return <AgreementPage kind="service" title="服务协议" />;
}

export function PrivacyPage() {
  return <AgreementPage kind="privacy" title="隐私政策" />;
}

export { AuthorizationPage } from './AuthorizationPage';
