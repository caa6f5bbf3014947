// The people directly in the chosen department: each can be dragged onto the tree or moved
// through 调整部门; only the first page is listed.
import { useEffect, useState } from 'react';
import { Button, Empty, Spin, Tag, Typography } from 'antd';
import type { AdminDepartmentNode, AdminUser } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { personName } from '../personLabel';
import { startUserDrag } from './personDrag';

/** People listed directly under the chosen department. */
export const DEPARTMENT_PEOPLE_PAGE_SIZE = 50;

export function DepartmentPeople({
  dept,
  version,
  onMove,
}: {
  dept: AdminDepartmentNode;
  /** changes with every fresh tree: the list is read again */
  version: number;
  onMove: (person: AdminUser) => void;
}) {
  const [people, setPeople] = useState<{ data: AdminUser[]; total: number }>({ data: [], total: 0 });
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let live = true;
    setLoading(true);
    adminApi
      .getUsers({ deptId: dept.id, directOnly: true, pageSize: DEPARTMENT_PEOPLE_PAGE_SIZE })
      .then((page) => live && setPeople(page))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [dept.id, version]);

  if (loading && !people.data.length) return <Spin size="small" />;
  if (!people.data.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该部门下没有直属人员" />;
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        把人员拖到左侧的部门上即可调动，也可以点“调整部门”。
      </Typography.Paragraph>
      <div role="list" aria-label="直属人员" style={{ maxHeight: 320, overflow: 'auto' }}>
        {people.data.map((p) => (
          <div
            role="listitem"
            key={p.userId}
            draggable
            onDragStart={(e) => startUserDrag(e, p)}
            style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '4px 0', cursor: 'grab' }}
          >
            <span style={{ flex: 1, minWidth: 0 }}>
              {personName(p)}
              <Typography.Text type="secondary"> {p.userName}</Typography.Text>
              {p.disabled ? (
                <Tag style={{ marginLeft: 8 }} color="default">
                  已停用
                </Tag>
              ) : null}
            </span>
            <Button type="link" size="small" aria-label={`调整部门 ${personName(p)}`} onClick={() => onMove(p)}>
              调整部门
            </Button>
          </div>
        ))}
      </div>
      {people.total > people.data.length ? (
        <Typography.Text type="secondary">
          只列出前 {people.data.length} 人（共 {people.total} 人），其余人员请在“查看成员”中调整。
        </Typography.Text>
      ) : null}
    </>
  );
}
