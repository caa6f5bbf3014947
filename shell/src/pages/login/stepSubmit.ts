// One submit of a sign-in step: loading, the server's message on failure, and the way back to
// the sign-in form when the step is over (expired, or too many wrong codes).
import { useRef, useState } from 'react';
import { isApiError, Messages, type LoginResult } from '@app/shared';

/** Which second step a sign-in answer asks for. */
export function stepOf(r: LoginResult): 'passwordReset' | 'totpBind' | 'totpCode' | null {
  if (r.passwordReset) return 'passwordReset';
  if (r.totpBind) return 'totpBind';
  if (r.totpCode) return 'totpCode';
  return null;
}

/** The server ends a step with a message that asks to sign in again. */
export const STEP_OVER = /请重新登录/;

export function errorText(err: unknown): string {
  if (isApiError(err)) return err.serverMessage || (err.code === 0 && !err.canceled ? err.message : Messages.loginFailed);
  return Messages.loginFailed;
}

export function useStepSubmit(onResult: (r: LoginResult) => void, onOver: (message: string) => void) {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const busy = useRef(false);

  const run = async (call: () => Promise<LoginResult>) => {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    setError('');
    try {
      const result = await call();
      onResult(result);
    } catch (err) {
      const text = errorText(err);
      if (STEP_OVER.test(text)) onOver(text);
      else setError(text);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  };
  return { loading, error, setError, run };
}
