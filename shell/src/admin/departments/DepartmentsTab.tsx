// 系统管理 › 部门: the organisation's department tree (searched by name; a department dragged
// onto another moves under it, with its sub-departments and people) and the chosen department's
// settings: name, 负责人, 部门管理员, default personal quota, feature switches, sub-departments,
// deletion, and the people directly in it, moved to another department by dragging them onto
// the tree or through 调整部门. Department administrators see the way to their subtrees and
// manage only those; quota, switches and administrators are for system administrators.
import { useEffect, useMemo, useState, type Key } from 'react';
import { Button, Empty, Result, Spin } from 'antd';
import type { AdminDepartmentNode, AdminScope, AdminUser } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { CreateDepartmentDialog } from './CreateDepartmentDialog';
import { DepartmentDetails } from './DepartmentDetails';
import { DepartmentTree } from './DepartmentTree';
import { indexDepartments } from './drop';
import { MoveUserDialog } from './MoveUserDialog';
import { initialExpanded } from './visibleDepartments';

export { FEATURE_SWITCHES } from '../featureChoice';
export { DEPARTMENT_PEOPLE_PAGE_SIZE } from './DepartmentPeople';
export { USER_DRAG_TYPE } from './personDrag';

export interface DepartmentsTabProps {
  /** 查看成员: show the 用户 tab filtered by this department */
  onShowUsers?: (deptId: string) => void;
}

export function DepartmentsTab({ onShowUsers }: DepartmentsTabProps) {
  const [scope, setScope] = useState<AdminScope | null>(null);
  const [tree, setTree] = useState<AdminDepartmentNode[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  /** bumped to load the tree again */
  const [attempt, setAttempt] = useState(0);
  /** bumped when a tree arrives: the people list is read again */
  const [loaded, setLoaded] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const [creatingUnder, setCreatingUnder] = useState<AdminDepartmentNode | null>(null);
  const [movingPerson, setMovingPerson] = useState<AdminUser | null>(null);

  /** bumped by 重试 after a failed first load */
  const [boot, setBoot] = useState(0);

  const reload = () => setAttempt((a) => a + 1);
  /** Opens a department in the tree (its new sub-department or the department moved is seen). */
  const expandTo = (id: string) => setExpanded((keys) => [...new Set([...(keys ?? []), id])]);

  useEffect(() => {
    let live = true;
    adminApi
      .getScope()
      .then((s) => live && setScope(s))
      .catch(() => live && setStatus('error'));
    return () => {
      live = false;
    };
  }, [boot]);

  useEffect(() => {
    let live = true;
    adminApi
      .getDepartments()
      .then((list) => {
        if (!live) return;
        setTree(list);
        setLoaded((n) => n + 1);
        setStatus('ready');
        setExpanded((keys) => keys ?? initialExpanded(list));
        const index = indexDepartments(list);
        setSelectedId((id) => {
          if (id && index.has(id)) return id;
          const first = [...index.values()].find((d) => d.manageable);
          return first?.id ?? list[0]?.id ?? null;
        });
      })
      .catch(() => live && setStatus((s) => (s === 'ready' ? s : 'error')));
    return () => {
      live = false;
    };
  }, [attempt, boot]);

  const index = useMemo(() => indexDepartments(tree), [tree]);
  const selected = selectedId ? index.get(selectedId) ?? null : null;

  if (status === 'error')
    return (
      <Result
        status="warning"
        title="部门加载失败"
        extra={
          <Button
            onClick={() => {
              setStatus('loading');
              setBoot((b) => b + 1);
            }}
          >
            重试
          </Button>
        }
      />
    );
  if (status === 'loading' || !scope) return <Spin />;

  return (
    <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start' }}>
      <div style={{ width: 300, flex: 'none' }}>
        <DepartmentTree
          tree={tree}
          index={index}
          selectedId={selectedId}
          onSelect={setSelectedId}
          expandedKeys={expanded ?? []}
          onExpandedChange={setExpanded}
          onDepartmentMoved={(parentId) => {
            expandTo(parentId);
            reload();
          }}
          onPersonMoved={reload}
        />
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>
        {selected ? (
          <DepartmentDetails
            key={selected.id}
            dept={selected}
            version={loaded}
            index={index}
            scope={scope}
            onChanged={reload}
            onDeleted={(parentId) => {
              setSelectedId(parentId);
              reload();
            }}
            onCreateChild={() => setCreatingUnder(selected)}
            onMovePerson={setMovingPerson}
            onShowUsers={onShowUsers}
          />
        ) : (
          <Empty description="请在左侧选择部门" />
        )}
      </div>
      <CreateDepartmentDialog
        parent={creatingUnder}
        onClose={(createdId) => {
          const parent = creatingUnder;
          setCreatingUnder(null);
          if (createdId && parent) {
            expandTo(parent.id);
            reload();
          }
        }}
      />
      <MoveUserDialog
        person={movingPerson}
        tree={tree}
        onClose={(moved) => {
          setMovingPerson(null);
          if (moved) reload();
        }}
      />
    </div>
  );
}
