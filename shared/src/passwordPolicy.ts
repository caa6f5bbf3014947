// The password policy as a checklist (the forced change at sign-in and 修改密码): one line per
// rule the administrator switched on, each ticked while the typed password meets it. The
// server checks the same rules (and the history rule, which only it can).
import type { PasswordPolicy } from './api/types';

export interface PasswordCheck {
  key: 'length' | 'letter' | 'mixedCase' | 'digit' | 'symbol';
  label: string;
  met: boolean;
}

export function passwordChecks(policy: PasswordPolicy, password: string): PasswordCheck[] {
  const checks: PasswordCheck[] = [{ key: 'length', label: `至少 ${policy.minLength} 位`, met: [...password].length >= policy.minLength }];
  if (policy.requireMixedCase) {
    checks.push({ key: 'mixedCase', label: '包含大写和小写字母', met: /\p{Lu}/u.test(password) && /\p{Ll}/u.test(password) });
  } else if (policy.requireLetter) {
    checks.push({ key: 'letter', label: '包含字母', met: /\p{L}/u.test(password) });
  }
  if (policy.requireDigit) checks.push({ key: 'digit', label: '包含数字', met: /\p{Nd}/u.test(password) });
  if (policy.requireSymbol) checks.push({ key: 'symbol', label: '包含符号（如 ! @ # -）', met: /[^\p{L}\p{Nd}\s]/u.test(password) });
  return checks;
}

/** The rules a password need not be told about in a list, as one sentence (history, expiry). */
export function passwordPolicyNotes(policy: PasswordPolicy): string[] {
  const notes: string[] = [];
  if (policy.historyCount > 0) notes.push(`不能与最近 ${policy.historyCount} 次使用过的密码相同`);
  if (policy.expiryDays > 0) notes.push(`密码每 ${policy.expiryDays} 天须修改一次`);
  return notes;
}
