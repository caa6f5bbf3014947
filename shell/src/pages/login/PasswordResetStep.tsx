// 设置新密码 at sign-in: the administrator set the password, or it expired. The policy is shown
// as a checklist that ticks while the user types; the server also refuses recent passwords.
import { useEffect, useState } from 'react';
import { api, passwordChecks, type LoginResult, type PasswordPolicy } from '@app/shared';
import { PasswordChecklist } from './PasswordChecklist';
import { StepFrame } from './StepFrame';
import { useStepSubmit } from './stepSubmit';

export interface StepProps {
  step: LoginResult;
  onResult: (r: LoginResult) => void;
  onBack: (message?: string) => void;
}

export function PasswordResetStep({ step, onResult, onBack }: StepProps) {
  const [policy, setPolicy] = useState<PasswordPolicy | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { loading, error, setError, run } = useStepSubmit(onResult, onBack);

  useEffect(() => {
    let live = true;
    api
      .getPasswordPolicy({ errorMode: 'none' })
      .then((p) => live && setPolicy(p))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const submit = () => {
    if (!password) return setError('请输入新密码');
    if (policy && passwordChecks(policy, password).some((c) => !c.met)) return setError('新密码不符合密码要求');
    if (password !== confirm) return setError('两次输入的密码不一致');
    void run(() => api.resetPassword({ actionToken: step.actionToken ?? '', password }, { errorMode: 'none' }));
  };

  return (
    <StepFrame title="设置新密码" who={step.nickName || step.userName || ''} error={error} loading={loading} submitText="确认并登录" onSubmit={submit} onBack={() => onBack()}>
      <p className="yw-note">{step.message || '请先设置新密码再登录'}</p>
      <div className="yw-field">
        <label htmlFor="reset-password">新密码</label>
        <input
          id="reset-password"
          className="yw-input"
          type="password"
          autoComplete="new-password"
          placeholder="请输入新密码"
          value={password}
          disabled={loading}
          autoFocus
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      {policy ? <PasswordChecklist policy={policy} password={password} /> : null}
      <div className="yw-field">
        <label htmlFor="reset-confirm">确认新密码</label>
        <input
          id="reset-confirm"
          className="yw-input"
          type="password"
          autoComplete="new-password"
          placeholder="请再次输入新密码"
          value={confirm}
          disabled={loading}
          onChange={(e) => setConfirm(e.target.value)}
        />
      </div>
    </StepFrame>
  );
}
