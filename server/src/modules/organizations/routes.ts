// 云文档 organisation calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { DepartmentNodeSchema } from './schemas';

export const organizationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/User/Organizations/Departments/Tree',
    { schema: { tags: ['组织'], summary: '部门树', response: { 200: Envelope(Type.Array(DepartmentNodeSchema)) } } },
    async () => ok(await app.services.organizations.departmentTree()),
  );
};
