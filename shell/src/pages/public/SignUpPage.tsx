// /signUp, 申请注册: phone and its SMS code (resend after 60 seconds), user name, name,
// password under the policy, department and reason. The application waits for an
// administrator; the account exists only once it is approved. Plain React, like the login page.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { api, passwordChecks, type PasswordPolicy, type Registration } from '@app/shared';
import { PasswordChecklist } from '../login/PasswordChecklist';
import { errorText } from '../login/stepSubmit';
import { PublicFrame } from './PublicFrame';

const PHONE_RE = /^1[3-9]\d{9}$/;

interface Fields {
  phone: string;
  code: string;
  userName: string;
  nickName: string;
  password: string;
  confirm: string;
  department: string;
  reason: string;
}
const EMPTY: Fields = { phone: '', code: '', userName: '', nickName: '', password: '', confirm: '', department: '', reason: '' };

/** Seconds until another code may be asked for; counts down once a second. */
function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(t);
  }, [left]);
  return [left, setLeft];
}

function problemOf(f: Fields, policy: PasswordPolicy | null, agreed: boolean): string | null {
  if (!PHONE_RE.test(f.phone)) return '请输入正确的 11 位手机号';
  if (!/^\d{6}$/.test(f.code)) return '请输入 6 位短信验证码';
  if (!f.userName.trim()) return '请输入用户名';
  if (!f.nickName.trim()) return '请输入姓名';
  if (!f.password) return '请设置密码';
  if (policy && passwordChecks(policy, f.password).some((c) => !c.met)) return '密码不符合密码要求';
  if (f.password !== f.confirm) return '两次输入的密码不一致';
  if (!agreed) return '请先阅读并同意服务协议和隐私政策';
  return null;
}

export function SignUpPage() {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [policy, setPolicy] = useState<PasswordPolicy | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [sentTo, setSentTo] = useState('');
  const [done, setDone] = useState<Registration | null>(null);
  const [wait, setWait] = useCountdown();
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    api.getPasswordPolicy({ errorMode: 'none' }).then((p) => live.current && setPolicy(p), () => undefined);
    return () => {
      live.current = false;
    };
  }, []);

  const set = (key: keyof Fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));

  const sendCode = async () => {
    if (!PHONE_RE.test(fields.phone)) return setError('请输入正确的 11 位手机号');
    setError('');
    setSending(true);
    try {
      const r = await api.sendRegisterCode(fields.phone, { errorMode: 'none' });
      if (!live.current) return;
      setWait(r.resendAfter);
      setSentTo(fields.phone);
    } catch (err) {
      if (live.current) setError(errorText(err));
    } finally {
      if (live.current) setSending(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const problem = problemOf(fields, policy, agreed);
    if (problem) return setError(problem);
    setError('');
    setSubmitting(true);
    try {
      const body = {
        phone: fields.phone,
        code: fields.code,
        userName: fields.userName.trim(),
        nickName: fields.nickName.trim(),
        password: fields.password,
        department: fields.department.trim(),
        reason: fields.reason.trim(),
      };
      const r = await api.register(body, { errorMode: 'none' });
      if (live.current) setDone(r);
    } catch (err) {
      if (live.current) setError(errorText(err));
    } finally {
      if (live.current) setSubmitting(false);
    }
  };

  if (done) {
    return (
      <PublicFrame title="申请已提交" wide={false}>
        <p className="yw-note" role="status">
          您的注册申请已提交，正在等待管理员审批。批准后即可使用用户名“{done.userName}”和您设置的密码登录。
        </p>
        <p>
          申请人：{done.nickName}
          <br />
          手机号：{done.phone.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2')}
          <br />
          提交时间：{done.createdAt}
        </p>
      </PublicFrame>
    );
  }

  const busy = submitting;
  return (
    <PublicFrame title="申请注册" wide={false}>
      <p className="yw-subtitle">填写以下信息提交申请，管理员审批通过后账号即可使用。</p>
      <form className="yw-form" onSubmit={submit} noValidate>
        <div className="yw-field">
          <label htmlFor="signup-phone">手机号</label>
          <input id="signup-phone" className="yw-input" inputMode="tel" autoComplete="tel" maxLength={11} placeholder="11 位手机号" value={fields.phone} disabled={busy} onChange={set('phone')} />
        </div>
        <div className="yw-field">
          <label htmlFor="signup-code">短信验证码</label>
          <div className="yw-row">
            <input id="signup-code" className="yw-input" inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder="6 位数字" value={fields.code} disabled={busy} onChange={set('code')} />
            <button type="button" className="yw-button yw-button--ghost" disabled={sending || wait > 0 || busy} onClick={() => void sendCode()}>
              {wait > 0 ? `${wait} 秒后重新获取` : sentTo ? '重新获取' : '获取验证码'}
            </button>
          </div>
          {sentTo ? <small className="yw-hint">验证码已发送至 {sentTo.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2')}，10 分钟内有效</small> : null}
        </div>
        <div className="yw-field">
          <label htmlFor="signup-user">用户名</label>
          <input id="signup-user" className="yw-input" autoComplete="username" maxLength={64} placeholder="登录时使用，如 zhangsan" value={fields.userName} disabled={busy} onChange={set('userName')} />
        </div>
        <div className="yw-field">
          <label htmlFor="signup-name">姓名</label>
          <input id="signup-name" className="yw-input" autoComplete="name" maxLength={64} value={fields.nickName} disabled={busy} onChange={set('nickName')} />
        </div>
        <div className="yw-field">
          <label htmlFor="signup-password">密码</label>
          <input id="signup-password" className="yw-input" type="password" autoComplete="new-password" value={fields.password} disabled={busy} onChange={set('password')} />
        </div>
        {policy ? <PasswordChecklist policy={policy} password={fields.password} /> : null}
        <div className="yw-field">
          <label htmlFor="signup-confirm">确认密码</label>
          <input id="signup-confirm" className="yw-input" type="password" autoComplete="new-password" value={fields.confirm} disabled={busy} onChange={set('confirm')} />
        </div>
        <div className="yw-field">
          <label htmlFor="signup-dept">所在部门</label>
          <input id="signup-dept" className="yw-input" maxLength={128} placeholder="选填，供管理员开通时参考" value={fields.department} disabled={busy} onChange={set('department')} />
        </div>
        <div className="yw-field">
          <label htmlFor="signup-reason">申请理由</label>
          <textarea id="signup-reason" className="yw-input yw-textarea" maxLength={500} rows={3} placeholder="选填" value={fields.reason} disabled={busy} onChange={set('reason')} />
        </div>
        <label className="yw-check">
          <input type="checkbox" checked={agreed} disabled={busy} onChange={(e) => setAgreed(e.target.checked)} /> 我已阅读并同意
          <Link to="/service">《服务协议》</Link>和<Link to="/privacy">《隐私政策》</Link>
        </label>
        <p className="yw-error" role="alert" aria-live="assertive">
          {error}
        </p>
        <button type="submit" className="yw-button" disabled={busy} aria-busy={busy}>
          {busy ? '提交中…' : '提交申请'}
        </button>
      </form>
    </PublicFrame>
  );
}
