// The sign-in form that index.html shows before any script has arrived (earlySignIn.inline.js):
// LoginPage takes it over once, with what was typed into it, where the cursor was, and a press
// of 登录 or 钉钉登录 still waiting.

/** What index.html's inline script keeps on window while its form is shown. */
interface EarlySignInState {
  pending: 'submit' | 'dingtalk' | null;
  /** set when the page's script has taken the form over: the inline script's handlers stop */
  taken: boolean;
}

declare global {
  interface Window {
    __ywEarlySignIn?: EarlySignInState;
  }
}

export interface EarlyForm {
  userName: string;
  password: string;
  /** the field that had the focus, with its selection */
  focus: { field: 'userName' | 'password'; start: number; end: number } | null;
  /** a press made before the script arrived, to be carried out now */
  pending: EarlySignInState['pending'];
}

/** Whether index.html's sign-in form is on the page, not yet taken over. */
export function earlyFormShown(): boolean {
  const state = window.__ywEarlySignIn;
  return !!state && !state.taken;
}

/** Takes the form over (once): what it holds now. null when there is none, or it was taken. */
export function takeEarlyForm(): EarlyForm | null {
  const state = window.__ywEarlySignIn;
  if (!state || state.taken) return null;
  state.taken = true;
  const user = document.getElementById('login-user') as HTMLInputElement | null;
  const password = document.getElementById('login-password') as HTMLInputElement | null;
  if (!user || !password) return null;
  const active = document.activeElement;
  const field = active === user ? 'userName' : active === password ? 'password' : null;
  const focused = field === 'userName' ? user : password;
  return {
    userName: user.value,
    password: password.value,
    focus: field ? { field, start: focused.selectionStart ?? focused.value.length, end: focused.selectionEnd ?? focused.value.length } : null,
    pending: state.pending,
  };
}
