// The frame of a sign-in step: its title, who is signing in, the error line, the submit
// button and 返回登录.
import type { FormEvent, ReactNode } from 'react';

export interface StepFrameProps {
  title: string;
  who: string;
  error: string;
  loading: boolean;
  submitText: string;
  onSubmit: () => void;
  onBack: () => void;
  children: ReactNode;
}

export function StepFrame({ title, who, error, loading, submitText, onSubmit, onBack, children }: StepFrameProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!loading) onSubmit();
  };
  return (
    <section aria-labelledby="login-step-title">
      <h2 className="yw-step__title" id="login-step-title">
        {title}
      </h2>
      <p className="yw-step__who">账号：{who}</p>
      <form className="yw-form" onSubmit={submit} noValidate>
        {children}
        <p className="yw-error" role="alert" aria-live="assertive">
          {error}
        </p>
        <button type="submit" className="yw-button" disabled={loading} aria-busy={loading}>
          {loading ? (
            <>
              <span className="yw-spinner" aria-hidden="true" />
              请稍候…
            </>
          ) : (
            submitText
          )}
        </button>
        <button type="button" className="yw-button yw-button--ghost" onClick={onBack} disabled={loading}>
          返回登录
        </button>
      </form>
    </section>
  );
}
