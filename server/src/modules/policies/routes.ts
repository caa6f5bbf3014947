// 云文档 access policy calls (docs/integration.md, "Rights: levels and how they are found").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import {
  CalcBodySchema,
  FileIdQuerySchema,
  FolderIdQuerySchema,
  PermissionSchema,
  PoliciesQuerySchema,
  PolicyListSchema,
  PolicyParamsSchema,
  SetPoliciesBodySchema,
} from './schemas';

export const policiesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const policies = app.services.policies;
  const tags = ['文件'];

  app.get(
    '/User/FileAccessPolicies/FilePermissions',
    {
      schema: {
        tags,
        summary: '当前用户对文件或文件夹的权限',
        querystring: FileIdQuerySchema,
        response: { 200: Envelope(PermissionSchema) },
      },
    },
    async (req) => ok(await policies.filePermissions(req.user(), req.query.fileId)),
  );

  app.get(
    '/User/FileAccessPolicies/FolderPermission',
    {
      schema: {
        tags,
        summary: '当前用户对文件夹的权限',
        description: '不是文件夹时返回 404。',
        querystring: FolderIdQuerySchema,
        response: { 200: Envelope(PermissionSchema) },
      },
    },
    async (req) => ok(await policies.folderPermission(req.user(), req.query.folderId)),
  );

  app.get(
    '/User/FileAccessPolicies/:id/Policies',
    {
      schema: {
        tags,
        summary: '访问策略列表（需要管理权限）',
        description: 'validOnly 为 true（默认）时返回生效的列表（自己的或继承的），为 false 时只返回该项自己的列表。个人空间返回 HTTP 403、code 40301。',
        params: PolicyParamsSchema,
        querystring: PoliciesQuerySchema,
        response: { 200: Envelope(PolicyListSchema) },
      },
    },
    async (req) => ok(await policies.policies(req.user(), req.params.id, req.query)),
  );

  app.post(
    '/User/FileAccessPolicies/Policies',
    {
      config: { oplog: { action: 'file.policy', items: (req) => (req.body as { fileId: string }).fileId, detail: (req) => ({ policies: (req.body as { policies: unknown[] }).policies }) } },
      schema: {
        tags,
        summary: '设置访问策略（替换该项自己的列表，需要管理权限）',
        description:
          '空列表表示恢复继承。权限对象不存在、重复、级别不在 0–4 之间，或会移除自己的管理权限时返回 HTTP 400、code 40001；个人空间返回 HTTP 403、code 40301。',
        body: SetPoliciesBodySchema,
        response: { 200: Envelope(PolicyListSchema) },
      },
    },
    async (req) => ok(await policies.setPolicies(req.user(), req.body)),
  );

  app.post(
    '/User/FileAccessPolicies/Calc',
    {
      schema: {
        tags,
        summary: '批量计算权限',
        description: '按请求顺序返回；计算其他用户的权限需要对每一项都有管理权限。',
        body: CalcBodySchema,
        response: { 200: Envelope(Type.Array(PermissionSchema)) },
      },
    },
    async (req) => ok(await policies.calc(req.user(), req.body)),
  );
};
