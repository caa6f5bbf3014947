// 云文档 organisation calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { DepartmentNodeSchema, GroupIdParamsSchema, GroupSchema, OrgUserPageSchema, OrgUsersQuerySchema, PagingQuerySchema } from './schemas';

export const organizationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const organizations = app.services.organizations;
  const tags = ['组织'];

  app.get(
    '/User/Organizations/Departments/Tree',
    { schema: { tags, summary: '部门树', response: { 200: Envelope(Type.Array(DepartmentNodeSchema)) } } },
    async () => ok(await organizations.departmentTree()),
  );

  app.get(
    '/User/Organizations/Users',
    {
      schema: {
        tags,
        summary: '查找用户',
        description: '只列出已启用的用户，按用户名排序；deptId 包含其全部下级部门。',
        querystring: OrgUsersQuerySchema,
        response: { 200: Envelope(OrgUserPageSchema) },
      },
    },
    async (req) => ok(await organizations.searchUsers(req.query)),
  );

  app.get(
    '/User/Organizations/Groups',
    { schema: { tags, summary: '用户组列表', response: { 200: Envelope(Type.Array(GroupSchema)) } } },
    async () => ok(await organizations.groups()),
  );

  app.get(
    '/User/Organizations/Groups/:id/Members',
    {
      schema: {
        tags,
        summary: '用户组成员',
        description: '只列出已启用的成员，按用户名排序；含已停用成员的完整名单见 GET /api/Admin/Groups/{id}/Members（仅系统管理员）。',
        params: GroupIdParamsSchema,
        querystring: PagingQuerySchema,
        response: { 200: Envelope(OrgUserPageSchema) },
      },
    },
    async (req) => ok(await organizations.groupMembers(req.params.id, req.query)),
  );
};
