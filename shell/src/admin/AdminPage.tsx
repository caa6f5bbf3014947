// /admin, 系统管理: a system administrator manages people, departments, groups, the feature
// policy, quotas, the upload policy, sign-in (password policy and TOTP, registrations,
// authorized clients), 系统公告, branding and agreements; a department administrator manages the people
// and departments of their subtree; an audit administrator reads the record of administrators'
// actions. Reached from the user menu (only they see the entry); the server refuses every call
// outside the caller's scope, and the page says so to anyone else.
import { Result, Tabs, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useUserInfo } from '@app/shared';
import { ActionsTab } from './actions/ActionsTab';
import { OperationLogTab } from './oplog/OperationLogTab';
import { AgreementsTab } from './AgreementsTab';
import { AnnouncementsTab } from './announcements/AnnouncementsTab';
import { BrandingTab } from './BrandingTab';
import { ClientsTab } from './ClientsTab';
import { DepartmentsTab } from './departments/DepartmentsTab';
import { DirectoryTab } from './directory/DirectoryTab';
import { GroupsTab } from './groups/GroupsTab';
import { FeaturePolicyTab } from './policy/FeaturePolicyTab';
import { NoticesTab } from './notices/NoticesTab';
import { PasswordPolicyTab } from './PasswordPolicyTab';
import { QuotaTab } from './quota/QuotaTab';
import { RegistrationsTab } from './RegistrationsTab';
import { UploadPolicyTab } from './upload/UploadPolicyTab';
import { UsersTab } from './UsersTab';

type Who = 'system' | 'dept' | 'audit';

interface TabDef {
  key: string;
  label: string;
  for: Who[];
  render: (go: (tab: string, extra?: Record<string, string>) => void, params: URLSearchParams) => ReactNode;
}

const TABS: TabDef[] = [
  { key: 'users', label: '用户', for: ['system', 'dept'], render: (_go, params) => <UsersTab initialDeptId={params.get('dept') ?? undefined} /> },
  { key: 'departments', label: '部门', for: ['system', 'dept'], render: (go) => <DepartmentsTab onShowUsers={(deptId) => go('users', { dept: deptId })} /> },
  { key: 'groups', label: '用户组', for: ['system'], render: () => <GroupsTab /> },
  { key: 'directory', label: '目录同步', for: ['system'], render: () => <DirectoryTab /> },
  { key: 'features', label: '功能策略', for: ['system'], render: () => <FeaturePolicyTab /> },
  { key: 'quota', label: '空间与配额', for: ['system'], render: () => <QuotaTab /> },
  { key: 'upload', label: '上传策略', for: ['system'], render: () => <UploadPolicyTab /> },
  { key: 'policy', label: '密码与动态口令', for: ['system'], render: () => <PasswordPolicyTab /> },
  { key: 'registrations', label: '注册申请', for: ['system'], render: () => <RegistrationsTab /> },
  { key: 'announcements', label: '系统公告', for: ['system'], render: () => <AnnouncementsTab /> },
  { key: 'clients', label: '客户端授权', for: ['system'], render: () => <ClientsTab /> },
  { key: 'notices', label: '通知', for: ['system'], render: () => <NoticesTab /> },
  { key: 'branding', label: '品牌', for: ['system'], render: () => <BrandingTab /> },
  { key: 'agreements', label: '协议', for: ['system'], render: () => <AgreementsTab /> },
  { key: 'actions', label: '管理日志', for: ['system', 'audit'], render: () => <ActionsTab /> },
  { key: 'oplog', label: '操作日志', for: ['system', 'audit', 'dept'], render: () => <OperationLogTab /> },
];

export default function AdminPage() {
  const user = useUserInfo();
  const [params, setParams] = useSearchParams();
  const roles = new Set<Who>([...(user?.isAdmin ? ['system' as const] : []), ...(user?.isDeptAdmin ? ['dept' as const] : []), ...(user?.isAuditAdmin ? ['audit' as const] : [])]);
  const tabs = TABS.filter((t) => t.for.some((w) => roles.has(w)));
  if (!tabs.length) return <Result status="403" title="无权访问" subTitle="只有系统管理员、部门管理员或审计管理员可以进入系统管理。" />;
  const go = (tab: string, extra: Record<string, string> = {}) => setParams({ tab, ...extra }, { replace: true });
  const active = tabs.some((t) => t.key === params.get('tab')) ? (params.get('tab') as string) : tabs[0].key;
  return (
    <div style={{ maxWidth: 1280 }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        系统管理
      </Typography.Title>
      <Tabs
        activeKey={active}
        onChange={(key) => go(key)}
        items={tabs.map((t) => ({ key: t.key, label: t.label, children: t.render(go, params) }))}
        destroyOnHidden
      />
    </div>
  );
}
