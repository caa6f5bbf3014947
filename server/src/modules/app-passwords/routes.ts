// 个人设置 → WebDAV 与应用密码: the person's application passwords (issue 29). A client token
// (client authorization) never reaches these calls (oauth/scopes.ts: /api/account is the browser's).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import type { OplogObject } from '../oplog/repository';
import { AppPasswordIdParamsSchema, AppPasswordSchema, CreateAppPasswordBodySchema, NewAppPasswordSchema } from './schemas';

const SCOPE_NAMES = { readOnly: '只读', readWrite: '读写' } as const;

export const appPasswordsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const appPasswords = app.services.appPasswords;
  const tags = ['账号'];
  const objectOf = (r: { id?: string; name?: string } | undefined): OplogObject | null => (r?.id ? { type: 'apppassword', id: r.id, name: r.name ?? '' } : null);

  app.get(
    '/Account/AppPasswords',
    {
      schema: {
        tags,
        summary: '我的应用密码',
        description: '用于 WebDAV（/dav/）登录的应用密码，仍然有效的，新建的在前；从不返回密码本身。',
        response: { 200: Envelope(Type.Array(AppPasswordSchema)) },
      },
    },
    async (req) => ok(await appPasswords.list(req.user())),
  );

  app.post(
    '/Account/AppPasswords',
    {
      config: {
        oplog: {
          action: 'auth.apppassword.create',
          resultObject: (r) => objectOf(r),
          detail: (req) => {
            const body = req.body as { name?: unknown; scope?: unknown } | undefined;
            return { name: String(body?.name ?? '').slice(0, 100), scope: SCOPE_NAMES[body?.scope as keyof typeof SCOPE_NAMES] ?? String(body?.scope ?? '') };
          },
        },
      },
      schema: {
        tags,
        summary: '新建应用密码',
        description:
          '返回的 password 只出现这一次（服务端只保存摘要），WebDAV 客户端以登录用户名加该密码做 HTTP Basic 认证。' +
          'scope：readOnly 只读，readWrite 读写（仍受文件权限限制）。修改或重置账号密码、停用账号后全部失效。每人最多 50 个。',
        body: CreateAppPasswordBodySchema,
        response: { 200: Envelope(NewAppPasswordSchema) },
      },
    },
    async (req) => ok(await appPasswords.create(req.user(), req.body)),
  );

  app.delete(
    '/Account/AppPasswords/:id',
    {
      config: { oplog: { action: 'auth.apppassword.revoke', resultObject: (r) => objectOf(r), object: (req) => ({ type: 'apppassword', id: (req.params as { id: string }).id, name: '' }) } },
      schema: {
        tags,
        summary: '撤销应用密码',
        description: '随即失效（使用它的 WebDAV 客户端得到 HTTP 401）。不是自己的或已撤销的 HTTP 404。',
        params: AppPasswordIdParamsSchema,
        response: { 200: Envelope(AppPasswordSchema) },
      },
    },
    async (req) => ok(await appPasswords.revoke(req.user(), req.params.id)),
  );
};
