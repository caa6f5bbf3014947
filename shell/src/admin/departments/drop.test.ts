// Where a dragged department lands in the 部门 tree, and the moves refused before any call.
import type { AdminDepartmentNode } from '@app/shared';
import { departmentMoveText, planDepartmentDrop } from './drop';

const dept = (id: string, name: string, parentId: string | null, path: string, children: AdminDepartmentNode[] = [], manageable = true): AdminDepartmentNode => ({
  id,
  parentId,
  name,
  path,
  leader: null,
  admins: [],
  userCount: 0,
  quota: null,
  featurePolicy: { personalSpace: null, publicSpace: null, workflow: null, ferrySpaces: null },
  manageable,
  children,
});

// 总公司 ─┬─ 研发中心 ─┬─ 前端组 ── 组件小组
//         │           └─ 后端组
//         └─ 市场部
const tree = [
  dept('1', '总公司', null, '1', [
    dept('2', '研发中心', '1', '1/2', [
      dept('3', '前端组', '2', '1/2/3', [dept('5', '组件小组', '3', '1/2/3/5')]),
      dept('4', '后端组', '2', '1/2/4'),
    ]),
    dept('6', '市场部', '1', '1/6'),
  ]),
];

describe('planDepartmentDrop', () => {
  it('dropped on a department: moves under it', () => {
    expect(planDepartmentDrop(tree, '6', '3', false)).toEqual({ parentId: '3' });
    expect(planDepartmentDrop(tree, '4', '6', false)).toEqual({ parentId: '6' });
  });

  it('dropped into the gap beside a department: moves under that department’s parent', () => {
    expect(planDepartmentDrop(tree, '5', '4', true)).toEqual({ parentId: '2' });
    expect(planDepartmentDrop(tree, '3', '6', true)).toEqual({ parentId: '1' });
  });

  it('refuses a move onto itself or under one of its own sub-departments', () => {
    expect(planDepartmentDrop(tree, '2', '2', false)).toEqual({ error: '不能把部门移到它自己或它的下级部门下' });
    expect(planDepartmentDrop(tree, '2', '3', false)).toEqual({ error: '不能把部门移到它自己或它的下级部门下' });
    expect(planDepartmentDrop(tree, '2', '5', false)).toEqual({ error: '不能把部门移到它自己或它的下级部门下' });
    // beside its own grandchild: under its own child
    expect(planDepartmentDrop(tree, '2', '5', true)).toEqual({ error: '不能把部门移到它自己或它的下级部门下' });
  });

  it('refuses the top level and a move that changes nothing', () => {
    expect(planDepartmentDrop(tree, '6', '1', true)).toEqual({ error: '不能把部门移到最顶层' });
    expect(planDepartmentDrop(tree, '1', '6', false)).toEqual({ error: '根部门不能移动' });
    expect(planDepartmentDrop(tree, '3', '2', false)).toEqual({ error: '“前端组”已在“研发中心”下' });
    expect(planDepartmentDrop(tree, '3', '4', true)).toEqual({ error: '“前端组”已在“研发中心”下' });
  });

  it('a department administrator moves only within what they manage', () => {
    // manages 研发中心's subtree only
    const scoped = [
      dept('1', '总公司', null, '1', [
        dept('2', '研发中心', '1', '1/2', [dept('3', '前端组', '2', '1/2/3'), dept('4', '后端组', '2', '1/2/4')]),
        dept('6', '市场部', '1', '1/6', [], false),
      ], false),
    ];
    expect(planDepartmentDrop(scoped, '3', '4', false)).toEqual({ parentId: '4' });
    expect(planDepartmentDrop(scoped, '3', '6', false)).toEqual({ error: '你无权管理“市场部”，不能移入' });
    expect(planDepartmentDrop(scoped, '6', '3', false)).toEqual({ error: '你无权移动“市场部”' });
    // their own topmost department stays put
    expect(planDepartmentDrop(scoped, '2', '4', true)).toEqual({ error: '不能移动你所管理的最上级部门' });
  });

  it('an unknown department (the tree changed meanwhile) is refused', () => {
    expect(planDepartmentDrop(tree, '99', '3', false)).toEqual({ error: '找不到该部门，请刷新后重试' });
  });

  it('asks in the words the administrator sees', () => {
    expect(departmentMoveText('前端组', '市场部')).toBe('将“前端组”移动到“市场部”下？其下级部门和人员随之移动。');
  });
});
