// 绑定动态口令 at sign-in: scan the QR code (or type the key) into an authenticator app, then
// prove it with the first code.
import { lazy, Suspense, useState } from 'react';
import { api } from '@app/shared';
import type { StepProps } from './PasswordResetStep';
import { StepFrame } from './StepFrame';
import { codeProblem, TotpCodeField } from './TotpCodeField';
import { useStepSubmit } from './stepSubmit';

const TotpQr = lazy(() => import('./TotpQr'));

/** The key in groups of four, as authenticator apps show it. */
export const groupedKey = (key: string) => key.replace(/(.{4})/g, '$1 ').trim();

export function TotpBindStep({ step, onResult, onBack }: StepProps) {
  const [code, setCode] = useState('');
  const { loading, error, setError, run } = useStepSubmit(onResult, onBack);
  const key = step.totpSecret || (step.totpUri ? (new URL(step.totpUri).searchParams.get('secret') ?? '') : '');
  const submit = () => {
    const problem = codeProblem(code);
    if (problem) return setError(problem);
    void run(() => api.totpBind({ actionToken: step.actionToken ?? '', code }, { errorMode: 'none' }));
  };
  return (
    <StepFrame title="绑定动态口令" who={step.nickName || step.userName || ''} error={error} loading={loading} submitText="绑定并登录" onSubmit={submit} onBack={() => onBack()}>
      <p className="yw-note">管理员要求登录时使用动态口令。请用手机上的身份验证器扫描二维码（或手动输入密钥），再输入它显示的 6 位动态口令。</p>
      <div className="yw-qr">
        {step.totpUri ? (
          <Suspense fallback={<span className="yw-spinner" aria-label="二维码加载中" />}>
            <TotpQr value={step.totpUri} />
          </Suspense>
        ) : null}
      </div>
      <p className="yw-key">
        手动输入密钥：<code aria-label="密钥">{groupedKey(key)}</code>
      </p>
      <TotpCodeField value={code} onChange={setCode} disabled={loading} />
    </StepFrame>
  );
}
