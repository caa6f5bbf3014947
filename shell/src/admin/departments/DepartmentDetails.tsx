// The chosen department: its name, the way to it and how many people it holds; for those who
// manage it, the actions and the sections (基本信息, and for system administrators the default
// quota and the feature switches) and the people directly in it.
import type { ReactNode } from 'react';
import { Space, Typography } from 'antd';
import type { AdminDepartmentNode, AdminScope, AdminUser } from '@app/shared';
import { DepartmentActions } from './DepartmentActions';
import { DepartmentBasicInfo } from './DepartmentBasicInfo';
import { DepartmentFeatureSwitches } from './DepartmentFeatureSwitches';
import { DepartmentPeople } from './DepartmentPeople';
import { DepartmentQuota } from './DepartmentQuota';
import { useDepartmentSave } from './useDepartmentSave';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} style={{ marginBottom: 20 }}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

export function DepartmentDetails({
  dept,
  version,
  index,
  scope,
  onChanged,
  onDeleted,
  onCreateChild,
  onMovePerson,
  onShowUsers,
}: {
  dept: AdminDepartmentNode;
  /** changes with every fresh tree */
  version: number;
  index: Map<string, AdminDepartmentNode>;
  scope: AdminScope;
  onChanged: () => void;
  onDeleted: (parentId: string | null) => void;
  onCreateChild: () => void;
  onMovePerson: (person: AdminUser) => void;
  onShowUsers?: (deptId: string) => void;
}) {
  const { saving, save } = useDepartmentSave(onChanged);

  const pathNames = dept.path
    .split('/')
    .filter(Boolean)
    .map((id) => index.get(id)?.name)
    .filter((n): n is string => !!n);

  const header = (
    <Space orientation="vertical" size={4} style={{ width: '100%', marginBottom: 16 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {dept.name}
      </Typography.Title>
      {pathNames.length > 1 ? <Typography.Text type="secondary">{pathNames.join(' / ')}</Typography.Text> : null}
      <Space wrap>
        <Typography.Text>直属人员 {dept.userCount} 人</Typography.Text>
        {onShowUsers && dept.manageable ? (
          <Typography.Link onClick={() => onShowUsers(dept.id)}>查看成员</Typography.Link>
        ) : null}
      </Space>
    </Space>
  );

  if (!dept.manageable) {
    return (
      <div>
        {header}
        <Typography.Paragraph type="secondary">你只能看到该部门在组织中的位置，无权管理。</Typography.Paragraph>
      </div>
    );
  }

  return (
    <div>
      {header}
      <DepartmentActions
        dept={dept}
        parent={dept.parentId ? index.get(dept.parentId) : undefined}
        onCreateChild={onCreateChild}
        onDeleted={onDeleted}
      />

      <Section title="基本信息">
        <DepartmentBasicInfo dept={dept} system={scope.system} saving={saving} save={save} />
      </Section>

      {scope.system ? (
        <Section title="个人空间默认配额">
          <DepartmentQuota dept={dept} saving={saving} save={save} />
        </Section>
      ) : null}

      {scope.system ? (
        <Section title="功能策略">
          <DepartmentFeatureSwitches dept={dept} saving={saving} save={save} />
        </Section>
      ) : null}

      <Section title="直属人员">
        <DepartmentPeople dept={dept} version={version} onMove={onMovePerson} />
      </Section>
    </div>
  );
}
