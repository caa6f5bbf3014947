// The password policy as a checklist that ticks while the user types (sign-in's 设置新密码 and
// 个人设置's 修改密码).
import { passwordChecks, passwordPolicyNotes, type PasswordPolicy } from '@app/shared';
import '../public/public.css';

export function PasswordChecklist({ policy, password }: { policy: PasswordPolicy; password: string }) {
  return (
    <ul className="yw-checklist" aria-label="密码要求">
      {passwordChecks(policy, password).map((c) => (
        <li key={c.key} className={c.met ? 'yw-checklist__met' : undefined} aria-checked={c.met} role="checkbox">
          <span aria-hidden="true">{c.met ? '✓' : '○'}</span> {c.label}
        </li>
      ))}
      {passwordPolicyNotes(policy).map((n) => (
        <li key={n} className="yw-checklist__note">
          <span aria-hidden="true">·</span> {n}
        </li>
      ))}
    </ul>
  );
}
