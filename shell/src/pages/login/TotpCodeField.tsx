// The six digits of an authenticator app.
export function TotpCodeField({ value, onChange, disabled, autoFocus }: { value: string; onChange: (v: string) => void; disabled: boolean; autoFocus?: boolean }) {
  return (
    <div className="yw-field">
      <label htmlFor="totp-code">动态口令</label>
      <input
        id="totp-code"
        className="yw-input yw-input--code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder="6 位数字"
        value={value}
        disabled={disabled}
        autoFocus={autoFocus}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, 6))}
      />
    </div>
  );
}

export const codeProblem = (code: string) => (/^\d{6}$/.test(code) ? null : '请输入 6 位动态口令');
