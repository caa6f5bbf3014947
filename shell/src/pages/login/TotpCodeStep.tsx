// 动态口令 at sign-in: the code the user's authenticator app shows now.
import { useState } from 'react';
import { api } from '@app/shared';
import type { StepProps } from './PasswordResetStep';
import { StepFrame } from './StepFrame';
import { codeProblem, TotpCodeField } from './TotpCodeField';
import { useStepSubmit } from './stepSubmit';

export function TotpCodeStep({ step, onResult, onBack }: StepProps) {
  const [code, setCode] = useState('');
  const { loading, error, setError, run } = useStepSubmit(onResult, onBack);
  const submit = () => {
    const problem = codeProblem(code);
    if (problem) return setError(problem);
    void run(() => api.totpCode({ actionToken: step.actionToken ?? '', code }, { errorMode: 'none' }));
  };
  return (
    <StepFrame title="两步验证" who={step.nickName || step.userName || ''} error={error} loading={loading} submitText="验证并登录" onSubmit={submit} onBack={() => onBack()}>
      <p className="yw-note">请打开手机上的身份验证器（如 Google Authenticator、Microsoft Authenticator 或 FreeOTP），输入“云文档”显示的 6 位动态口令。</p>
      <TotpCodeField value={code} onChange={setCode} disabled={loading} autoFocus />
    </StepFrame>
  );
}
