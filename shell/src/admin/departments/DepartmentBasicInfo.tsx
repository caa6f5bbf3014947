// 基本信息 of the chosen department: its name, 负责人 (picked or cleared) and, for system
// administrators, its 部门管理员.
import { useEffect, useState } from 'react';
import { Button, Descriptions, Input, Space, Tag, Typography } from 'antd';
import type { AdminDepartmentNode, AdminUserRef, OrgUser } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { UserPicker, type UserPickerSelection } from '@app/shared/ui';
import { personLabel, personName } from '../personLabel';
import type { SaveDepartment } from './useDepartmentSave';

/** The picker wants organisation users; only the id matters for what is already picked. */
const refToOrgUser = (u: AdminUserRef): OrgUser => ({ ...u, deptId: null, deptName: '' });

export function DepartmentBasicInfo({
  dept,
  system,
  saving,
  save,
}: {
  dept: AdminDepartmentNode;
  /** a system administrator: the department administrators are shown and set */
  system: boolean;
  saving: string | null;
  save: SaveDepartment;
}) {
  const [name, setName] = useState(dept.name);
  // a fresh tree brings what was saved
  useEffect(() => setName(dept.name), [dept.name]);
  const [picker, setPicker] = useState<'leader' | 'admins' | null>(null);

  const pickLeader = async (sel: UserPickerSelection) => {
    const picked = sel.users[0];
    if (await save('leader', () => adminApi.updateDepartment(dept.id, { leaderId: picked?.userId ?? null }), picked ? `负责人已设为“${personName(picked)}”` : '已清除负责人'))
      setPicker(null);
  };
  const pickAdmins = async (sel: UserPickerSelection) => {
    if (await save('admins', () => adminApi.setDepartmentAdmins(dept.id, sel.users.map((u) => u.userId)), '部门管理员已保存')) setPicker(null);
  };

  const trimmed = name.trim();

  return (
    <>
      <Descriptions
        column={1}
        size="small"
        styles={{ label: { width: 110 } }}
        items={[
          {
            key: 'name',
            label: '名称',
            children: (
              <Space.Compact style={{ width: '100%', maxWidth: 360 }}>
                <Input aria-label="部门名称" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
                <Button
                  loading={saving === 'name'}
                  disabled={!trimmed || trimmed === dept.name}
                  onClick={() => void save('name', () => adminApi.updateDepartment(dept.id, { name: trimmed }), `已改名为“${trimmed}”`)}
                >
                  保存名称
                </Button>
              </Space.Compact>
            ),
          },
          {
            key: 'leader',
            label: '负责人',
            children: (
              <Space wrap>
                <span aria-label="负责人">{dept.leader ? personLabel(dept.leader) : <Typography.Text type="secondary">未设置</Typography.Text>}</span>
                <Button size="small" onClick={() => setPicker('leader')}>
                  选择负责人
                </Button>
                {dept.leader ? (
                  <Button
                    size="small"
                    loading={saving === 'leader'}
                    onClick={() => void save('leader', () => adminApi.updateDepartment(dept.id, { leaderId: null }), '已清除负责人')}
                  >
                    清除负责人
                  </Button>
                ) : null}
              </Space>
            ),
          },
          ...(system
            ? [
                {
                  key: 'admins',
                  label: '部门管理员',
                  children: (
                    <Space wrap>
                      {dept.admins.length ? (
                        dept.admins.map((a) => <Tag key={a.userId}>{personLabel(a)}</Tag>)
                      ) : (
                        <Typography.Text type="secondary">未设置</Typography.Text>
                      )}
                      <Button size="small" onClick={() => setPicker('admins')}>
                        设置部门管理员
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />

      <UserPicker
        open={picker === 'leader'}
        title="选择负责人"
        limitTypes={['user']}
        multiple={false}
        initialSelection={{ users: dept.leader ? [refToOrgUser(dept.leader)] : [] }}
        onOk={pickLeader}
        onCancel={() => setPicker(null)}
      />
      {system ? (
        <UserPicker
          open={picker === 'admins'}
          title="设置部门管理员"
          limitTypes={['user']}
          initialSelection={{ users: dept.admins.map(refToOrgUser) }}
          onOk={pickAdmins}
          onCancel={() => setPicker(null)}
        />
      ) : null}
    </>
  );
}
