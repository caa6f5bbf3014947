// The department tree of 系统管理 › 部门, searched by name. A department dragged onto another
// moves under it (after a confirmation), with its sub-departments and people; a person dragged
// from the people list onto a department moves there. Departments only passed through on the
// way to a managed subtree are greyed and accept nothing.
import { useMemo, useRef, useState, type Key } from 'react';
import { App as AntApp, Empty, Input, Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import { notify, type AdminDepartmentNode } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { departmentMoveText, isInSubtree, planDepartmentDrop, SELF_DROP_ERROR } from './drop';
import { hasUserDrag, USER_DRAG_TYPE } from './personDrag';
import { allIds, filterDepartments, toTreeData } from './visibleDepartments';

export function DepartmentTree({
  tree,
  index,
  selectedId,
  onSelect,
  expandedKeys,
  onExpandedChange,
  onDepartmentMoved,
  onPersonMoved,
}: {
  tree: AdminDepartmentNode[];
  index: Map<string, AdminDepartmentNode>;
  selectedId: string | null;
  onSelect: (id: string) => void;
  expandedKeys: Key[];
  onExpandedChange: (keys: Key[]) => void;
  /** a department was moved under `parentId` */
  onDepartmentMoved: (parentId: string) => void;
  /** a person was moved to another department */
  onPersonMoved: () => void;
}) {
  const { modal } = AntApp.useApp();
  const [keyword, setKeyword] = useState('');
  const [personDropTarget, setPersonDropTarget] = useState<string | null>(null);
  /** the department being dragged in the tree */
  const draggingDept = useRef<string | null>(null);
  /** the drop in progress was already refused (the tree itself ignores drops into the dragged subtree) */
  const dropRefused = useRef(false);

  const shown = useMemo(() => filterDepartments(tree, keyword.trim()), [tree, keyword]);
  const treeData = useMemo(() => toTreeData(shown), [shown]);

  const moveDepartment = (dragId: string, dropId: string, dropToGap: boolean) => {
    const plan = planDepartmentDrop(tree, dragId, dropId, dropToGap);
    if ('error' in plan) {
      notify.warning(plan.error);
      return;
    }
    const drag = index.get(dragId);
    const parent = index.get(plan.parentId);
    if (!drag || !parent) return;
    modal.confirm({
      title: '移动部门',
      content: departmentMoveText(drag.name, parent.name),
      okText: '移动',
      cancelText: '取消',
      onOk: async () => {
        try {
          await adminApi.updateDepartment(drag.id, { parentId: parent.id });
          notify.success(`已将“${drag.name}”移动到“${parent.name}”下`);
          onDepartmentMoved(parent.id);
        } catch {
          /* shown by the http client */
        }
      },
    });
  };

  const dropPerson = (userId: string, fallbackName: string, dept: AdminDepartmentNode) => {
    const name = fallbackName || userId;
    if (selectedId === dept.id) {
      notify.info(`“${name}”已在“${dept.name}”`);
      return;
    }
    modal.confirm({
      title: '调整部门',
      content: `将“${name}”调到“${dept.name}”？`,
      okText: '调整',
      cancelText: '取消',
      onOk: async () => {
        try {
          await adminApi.updateUser(userId, { deptId: dept.id });
          notify.success(`已将“${name}”调到“${dept.name}”`);
          onPersonMoved();
        } catch {
          /* shown by the http client */
        }
      },
    });
  };

  const renderTitle = (node: TreeDataNode) => {
    const dept = index.get(String(node.key));
    if (!dept) return null;
    const acceptsPeople = dept.manageable;
    return (
      <span
        data-dept-id={dept.id}
        style={{
          display: 'inline-block',
          width: '100%',
          color: dept.manageable ? undefined : 'rgba(0, 0, 0, 0.45)',
          outline: personDropTarget === dept.id ? '1px dashed #1f6feb' : undefined,
        }}
        onDragEnter={(e) => {
          if (!acceptsPeople || !hasUserDrag(e)) return;
          e.preventDefault();
          e.stopPropagation();
        }}
        onDragOver={(e) => {
          if (!acceptsPeople || !hasUserDrag(e)) return;
          e.preventDefault();
          e.stopPropagation();
          e.dataTransfer.dropEffect = 'move';
          if (personDropTarget !== dept.id) setPersonDropTarget(dept.id);
        }}
        onDragLeave={(e) => {
          if (!hasUserDrag(e)) return;
          e.stopPropagation();
          setPersonDropTarget((t) => (t === dept.id ? null : t));
        }}
        onDrop={(e) => {
          if (!hasUserDrag(e)) {
            // a department dropped on itself or a sub-department: the tree ignores it silently
            const drag = draggingDept.current ? index.get(draggingDept.current) : undefined;
            if (drag && isInSubtree(drag, dept.id)) {
              dropRefused.current = true;
              notify.warning(SELF_DROP_ERROR);
            }
            return;
          }
          e.preventDefault();
          e.stopPropagation();
          setPersonDropTarget(null);
          const userId = e.dataTransfer.getData(USER_DRAG_TYPE);
          if (acceptsPeople && userId) dropPerson(userId, e.dataTransfer.getData('text/plain'), dept);
        }}
      >
        {dept.name}
        <Typography.Text type="secondary" style={{ marginLeft: 6, fontSize: 12 }} aria-label={`${dept.userCount} 人`}>
          {dept.userCount}
        </Typography.Text>
      </span>
    );
  };

  return (
    <>
      <Input.Search
        allowClear
        aria-label="搜索部门"
        placeholder="按名称搜索部门"
        style={{ marginBottom: 8 }}
        onChange={(e) => {
          const value = e.target.value;
          setKeyword(value);
          if (value.trim()) onExpandedChange(allIds(filterDepartments(tree, value.trim())));
        }}
      />
      {treeData.length ? (
        <Tree
          aria-label="部门树"
          blockNode
          showLine
          treeData={treeData}
          expandedKeys={expandedKeys}
          onExpand={(keys) => onExpandedChange(keys)}
          selectedKeys={selectedId ? [selectedId] : []}
          onSelect={(keys) => {
            if (keys.length) onSelect(String(keys[0]));
          }}
          draggable={{ icon: false, nodeDraggable: (node) => !!index.get(String(node.key))?.manageable }}
          onDragStart={(info) => {
            draggingDept.current = String(info.node.key);
            dropRefused.current = false;
          }}
          onDragEnd={() => {
            draggingDept.current = null;
          }}
          onDrop={(info) => {
            const refused = dropRefused.current;
            dropRefused.current = false;
            draggingDept.current = null;
            if (!refused) moveDepartment(String(info.dragNode.key), String(info.node.key), info.dropToGap);
          }}
          titleRender={renderTitle}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={keyword.trim() ? '没有匹配的部门' : '暂无部门'} />
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, fontSize: 12 }}>
        拖动部门到另一部门上即可调整上下级。
      </Typography.Paragraph>
    </>
  );
}
