// 新建下级部门 and 删除 of the chosen department; 删除 stays disabled, with the reason, while the
// department is the root or the topmost one managed, or still holds people or sub-departments.
import { App as AntApp, Button, Space, Tooltip } from 'antd';
import { notify, type AdminDepartmentNode } from '@app/shared';
import { adminApi } from '@app/shared/admin';

/** Why a department cannot be deleted, or null. */
export function deleteBlocker(dept: AdminDepartmentNode, parent: AdminDepartmentNode | undefined): string | null {
  if (dept.parentId === null) return '根部门不能删除';
  if (parent && !parent.manageable) return '不能删除你所管理的最上级部门';
  if (dept.userCount > 0) return `该部门下还有 ${dept.userCount} 名用户，不能删除`;
  if (dept.children?.length) return '该部门下还有下级部门，不能删除';
  return null;
}

export function DepartmentActions({
  dept,
  parent,
  onCreateChild,
  onDeleted,
}: {
  dept: AdminDepartmentNode;
  parent: AdminDepartmentNode | undefined;
  onCreateChild: () => void;
  onDeleted: (parentId: string | null) => void;
}) {
  const { modal } = AntApp.useApp();
  const blocker = deleteBlocker(dept, parent);

  const remove = () =>
    modal.confirm({
      title: '删除部门',
      content: `确定删除“${dept.name}”吗？`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await adminApi.deleteDepartment(dept.id);
          notify.success(`已删除“${dept.name}”`);
          onDeleted(dept.parentId);
        } catch {
          /* the reason (people or sub-departments left) is shown by the http client */
        }
      },
    });

  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Button onClick={onCreateChild}>新建下级部门</Button>
      {blocker ? (
        <Tooltip title={blocker}>
          <Button danger disabled aria-label="删除部门" aria-describedby={`delete-blocker-${dept.id}`}>
            删除
          </Button>
        </Tooltip>
      ) : (
        <Button danger aria-label="删除部门" onClick={remove}>
          删除
        </Button>
      )}
      {blocker ? (
        <span id={`delete-blocker-${dept.id}`} hidden>
          {blocker}
        </span>
      ) : null}
    </Space>
  );
}
