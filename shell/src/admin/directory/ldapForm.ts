// The LDAP settings as the form holds them, and the body of 保存: the bind password is never
// shown, and sent only when one was typed.
import type { LdapSettings, LdapSettingsBody } from '@app/shared';

export type LdapFormValues = Omit<LdapSettings, 'hasBindPassword'> & { bindPassword?: string };

export const isLdaps = (url: string | undefined) => (url ?? '').trim().toLowerCase().startsWith('ldaps://');

/** The body of 保存: every setting, and the bind password only when one was typed. */
export function toBody(v: LdapFormValues): LdapSettingsBody {
  const url = (v.url ?? '').trim();
  const body: LdapSettingsBody = {
    enabled: Boolean(v.enabled),
    url,
    startTls: isLdaps(url) ? false : Boolean(v.startTls),
    tlsVerify: Boolean(v.tlsVerify),
    bindDn: (v.bindDn ?? '').trim(),
    baseDn: (v.baseDn ?? '').trim(),
    userFilter: (v.userFilter ?? '').trim(),
    attributes: {
      userName: v.attributes.userName.trim(),
      displayName: v.attributes.displayName.trim(),
      mail: v.attributes.mail.trim(),
      mobile: v.attributes.mobile.trim(),
      employeeNo: v.attributes.employeeNo.trim(),
    },
    departmentsFrom: v.departmentsFrom,
    departmentAttribute: (v.departmentAttribute ?? '').trim(),
    intervalMinutes: v.intervalMinutes,
    maxDisablePercent: v.maxDisablePercent,
  };
  if (v.bindPassword) body.bindPassword = v.bindPassword;
  return body;
}

/** The form's values for saved settings: the password box is left empty. */
export function toValues(s: LdapSettings): LdapFormValues {
  const { hasBindPassword: _saved, ...rest } = s;
  return { ...rest, attributes: { ...s.attributes }, bindPassword: '' };
}
