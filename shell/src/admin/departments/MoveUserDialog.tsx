// 调整部门 of one person: the department they move to, picked from the tree.
import { useEffect, useMemo, useState } from 'react';
import { Form, Modal, TreeSelect, Typography } from 'antd';
import { notify, type AdminDepartmentNode, type AdminUser } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { toTreeSelectData } from '../departmentTree';
import { personName } from '../personLabel';
import { indexDepartments } from './drop';

export function MoveUserDialog({
  person,
  tree,
  onClose,
}: {
  person: AdminUser | null;
  tree: AdminDepartmentNode[];
  onClose: (moved: boolean) => void;
}) {
  const [deptId, setDeptId] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const options = useMemo(() => toTreeSelectData(tree), [tree]);
  useEffect(() => setDeptId(undefined), [person]);
  const index = useMemo(() => indexDepartments(tree), [tree]);
  const move = async () => {
    if (!person || !deptId) return;
    setSaving(true);
    try {
      await adminApi.updateUser(person.userId, { deptId });
      notify.success(`已将“${personName(person)}”调到“${index.get(deptId)?.name ?? ''}”`);
      onClose(true);
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={person !== null}
      title={person ? `调整“${personName(person)}”的部门` : '调整部门'}
      okText="调整"
      cancelText="取消"
      okButtonProps={{ disabled: !deptId || deptId === person?.deptId }}
      confirmLoading={saving}
      onOk={() => void move()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      {person ? (
        <Form layout="vertical">
          <Typography.Paragraph>当前部门：{person.deptName || '未分配'}</Typography.Paragraph>
          <Form.Item label="调到部门">
            <TreeSelect
              aria-label="调到部门"
              showSearch
              treeNodeFilterProp="title"
              treeDefaultExpandAll
              placeholder="请选择部门"
              value={deptId}
              onChange={(v: string) => setDeptId(v)}
              treeData={options}
            />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}
