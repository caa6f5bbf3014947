// The 所有者 filter of the advanced search: one user, chosen in the shared user picker (its
// 用户 tab only), shown by name and clearable. A form control (value / onChange).
import { useState } from 'react';
import { Button, Input, Space } from 'antd';
import { CloseCircleFilled } from '@ant-design/icons';
import type { OrgUser } from '@app/shared';
import { UserPicker } from '@app/shared/ui';
import type { OwnerChoice } from './searchInfo';

export interface OwnerFieldProps {
  id?: string;
  value?: OwnerChoice | null;
  onChange?: (value: OwnerChoice | null) => void;
}

/** The picked owner as the picker expects it (only its id and name are kept). */
const asOrgUser = (o: OwnerChoice): OrgUser => ({ userId: o.userId, userName: o.name, nickName: o.name, deptId: null, deptName: '' });

export function OwnerField({ id, value, onChange }: OwnerFieldProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          id={id}
          readOnly
          aria-label="所有者"
          placeholder="全部"
          value={value?.name ?? ''}
          onClick={() => setOpen(true)}
          suffix={
            value ? (
              <CloseCircleFilled
                role="button"
                aria-label="清除所有者"
                style={{ color: 'rgba(0, 0, 0, 0.25)', cursor: 'pointer' }}
                onClick={(e) => {
                  e.stopPropagation();
                  onChange?.(null);
                }}
              />
            ) : (
              <span />
            )
          }
        />
        <Button onClick={() => setOpen(true)}>选择</Button>
      </Space.Compact>
      <UserPicker
        open={open}
        title="选择所有者"
        limitTypes={['user']}
        multiple={false}
        initialSelection={value ? { users: [asOrgUser(value)] } : undefined}
        onCancel={() => setOpen(false)}
        onOk={({ users: [user] }) => {
          onChange?.(user ? { userId: user.userId, name: user.nickName || user.userName } : null);
          setOpen(false);
        }}
      />
    </>
  );
}
