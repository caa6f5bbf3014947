// /account, 个人设置: avatar, password, TOTP, the user's sessions, 通知设置, authorized clients and
// WebDAV's application passwords. Part of the signed-in shell (the shell owns the session), so it
// works in the simple mode as well.
import { useCallback, useEffect, useState } from 'react';
import { Space, Typography } from 'antd';
import { api, type AccountSecurity, type MySession } from '@app/shared';
import { AppPasswordsCard } from './AppPasswordsCard';
import { AvatarCard } from './AvatarCard';
import { ClientsCard } from './ClientsCard';
import { NoticeSettingsCard } from './NoticeSettingsCard';
import { PasswordCard } from './PasswordCard';
import { SessionsCard } from './SessionsCard';
import { SignInsCard } from './SignInsCard';
import { TotpCard } from './TotpCard';

export default function AccountPage() {
  const [security, setSecurity] = useState<AccountSecurity | null>(null);
  const [sessions, setSessions] = useState<MySession[]>([]);
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const reload = useCallback(() => setAttempt((a) => a + 1), []);

  useEffect(() => {
    let live = true;
    setLoading(true);
    Promise.all([api.getSecurity(), api.getMySessions()])
      .then(([s, list]) => {
        if (!live) return;
        setSecurity(s);
        setSessions(list);
      })
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [attempt]);

  return (
    <div style={{ maxWidth: 920 }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        个人设置
      </Typography.Title>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <AvatarCard />
        <PasswordCard security={security} onChanged={reload} />
        <TotpCard security={security} onChanged={reload} />
        <SessionsCard sessions={sessions} loading={loading} onChanged={reload} />
        <SignInsCard />
        <NoticeSettingsCard />
        <ClientsCard attempt={attempt} />
        <AppPasswordsCard security={security} />
      </Space>
    </div>
  );
}
