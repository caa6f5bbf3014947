// 云文档 organisation: the department tree.
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';
import { Paging } from '../../lib/paging';

export const DepartmentNodeSchema = Type.Object(
  {
    id: IdString(),
    parentId: Type.Union([IdString(), Type.Null()]),
    name: Type.String(),
    path: Type.String({ description: '从根部门到本部门的 id，以 / 分隔' }),
    children: Type.Array(Type.Unknown(), { description: '下级部门（结构同本节点）' }),
  },
  { title: '部门' },
);

export interface DepartmentNode {
  id: string;
  parentId: string | null;
  name: string;
  path: string;
  children: DepartmentNode[];
}

export type DepartmentNodeStatic = Static<typeof DepartmentNodeSchema>;

export const DepartmentSchema = Type.Object(
  {
    id: IdString(),
    parentId: Type.Union([IdString(), Type.Null()]),
    name: Type.String(),
    path: Type.String({ description: '从根部门到本部门的 id，以 / 分隔' }),
    leaderId: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: '部门负责人的用户 id' })),
  },
  { title: '部门（不含下级）' },
);
export type Department = Static<typeof DepartmentSchema>;

export const OrgUserSchema = Type.Object(
  {
    userId: IdString(),
    userName: Type.String(),
    nickName: Type.String(),
    deptId: Type.Union([IdString(), Type.Null()]),
    deptName: Type.String({ description: '部门名称，无部门时为空' }),
  },
  { title: '组织中的用户' },
);
export type OrgUser = Static<typeof OrgUserSchema>;

export const OrgUserPageSchema = Type.Object({ data: Type.Array(OrgUserSchema), total: Type.Integer() }, { title: '用户分页' });
export type OrgUserPage = Static<typeof OrgUserPageSchema>;

export const GroupMemberSchema = Type.Object(
  {
    ...OrgUserSchema.properties,
    disabled: Type.Boolean({ description: '已停用：不能登录，也不计入成员数，但仍是该用户组的成员' }),
  },
  { title: '用户组成员（含已停用）' },
);
export type GroupMember = Static<typeof GroupMemberSchema>;

export const GroupMemberPageSchema = Type.Object({ data: Type.Array(GroupMemberSchema), total: Type.Integer() }, { title: '用户组成员分页' });
export type GroupMemberPage = Static<typeof GroupMemberPageSchema>;

const OrgPaging = Paging(20, 1000);

export const OrgUsersQuerySchema = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 64, description: '按用户名或昵称筛选（包含即可，不区分大小写）' })),
  deptId: Type.Optional(Type.Union([IdString('部门 id：只列出该部门及其下级部门的用户'), Type.Literal('')])),
  ...OrgPaging,
});
export type OrgUsersQuery = Static<typeof OrgUsersQuerySchema>;

export const PagingQuerySchema = Type.Object(OrgPaging);
export type PagingQuery = Static<typeof PagingQuerySchema>;

export const GroupSchema = Type.Object(
  {
    id: IdString(),
    name: Type.String(),
    memberCount: Type.Integer({ description: '已启用的成员数' }),
  },
  { title: '用户组' },
);
export type Group = Static<typeof GroupSchema>;

export const GroupIdParamsSchema = Type.Object({ id: IdString('用户组 id') });
