// /admin, 系统管理: what a system administrator sets for sign-in and for the login page —
// password policy and TOTP, users' TOTP, registration applications, authorized clients, branding
// and agreements. Reached from the user menu (only administrators see the entry); every call is
// refused by the server for anyone else, and the page says so.
import { Result, Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { useUserInfo } from '@app/shared';
import { AgreementsTab } from './AgreementsTab';
import { BrandingTab } from './BrandingTab';
import { ClientsTab } from './ClientsTab';
import { PasswordPolicyTab } from './PasswordPolicyTab';
import { RegistrationsTab } from './RegistrationsTab';
import { UsersTab } from './UsersTab';

const TABS = [
  { key: 'policy', label: '密码与动态口令', children: <PasswordPolicyTab /> },
  { key: 'users', label: '用户动态口令', children: <UsersTab /> },
  { key: 'registrations', label: '注册申请', children: <RegistrationsTab /> },
  { key: 'clients', label: '客户端授权', children: <ClientsTab /> },
  { key: 'branding', label: '品牌', children: <BrandingTab /> },
  { key: 'agreements', label: '协议', children: <AgreementsTab /> },
];

export default function AdminPage() {
  const user = useUserInfo();
  const [params, setParams] = useSearchParams();
  if (!user?.isAdmin) return <Result status="403" title="无权访问" subTitle="只有系统管理员可以进入系统管理。" />;
  const active = TABS.some((t) => t.key === params.get('tab')) ? (params.get('tab') as string) : 'policy';
  return (
    <div style={{ maxWidth: 1100 }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        系统管理
      </Typography.Title>
      <Tabs activeKey={active} onChange={(key) => setParams({ tab: key }, { replace: true })} items={TABS} destroyOnHidden />
    </div>
  );
}
