// 云文档 个人设置 calls (docs/integration.md, "Account"): security state, TOTP binding by the
// user, sessions, avatar.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { readFilePart } from '../../lib/upload-part';
import { AVATAR_MAX_BYTES } from './avatars';
import {
  AvatarResultSchema,
  MySessionSchema,
  SecuritySchema,
  SessionIdParamsSchema,
  TotpConfirmBodySchema,
  TotpRemoveBodySchema,
  TotpSetupSchema,
  UserIdParamsSchema,
} from './schemas';

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { account, auth } = app.services;
  const tags = ['账号'];
  const client = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4, parts: 5 } });

  app.get(
    '/account/Security',
    { schema: { tags, summary: '账号安全状态', response: { 200: Envelope(SecuritySchema) } } },
    async (req) => ok(await account.security(req.user())),
  );

  app.post(
    '/account/Totp/Begin',
    {
      schema: {
        tags,
        summary: '开始绑定动态口令',
        description: '返回新密钥的 otpauth 地址与 actionToken；用身份验证器的第一个动态口令确认后才生效（已绑定的旧密钥随之替换）。',
        response: { 200: Envelope(TotpSetupSchema) },
      },
    },
    async (req) => ok(await auth.beginTotp(req.user())),
  );

  app.post(
    '/account/Totp/Confirm',
    {
      config: { oplog: { action: 'auth.totp', detail: () => ({ change: '绑定' }) } },
      schema: {
        tags,
        summary: '确认绑定动态口令',
        description: '口令错误 HTTP 400；错 5 次后须重新开始。',
        body: TotpConfirmBodySchema,
        response: { 200: Envelope(Type.Null()) },
      },
    },
    async (req) => {
      await auth.confirmTotp(req.user(), req.body, client(req));
      return ok(null);
    },
  );

  app.post(
    '/account/Totp/Remove',
    {
      config: { oplog: { action: 'auth.totp', detail: () => ({ change: '解除' }) } },
      schema: {
        tags,
        summary: '解除动态口令',
        description: '须输入当前动态口令；管理员要求使用动态口令时 HTTP 403。',
        body: TotpRemoveBodySchema,
        response: { 200: Envelope(Type.Null()) },
      },
    },
    async (req) => {
      await auth.removeTotp(req.user(), req.body.code, client(req));
      return ok(null);
    },
  );

  app.get(
    '/account/Sessions',
    { schema: { tags, summary: '我的会话', description: '仍然有效的登录，最近使用的在前。', response: { 200: Envelope(Type.Array(MySessionSchema)) } } },
    async (req) => ok(await account.sessions(req.user(), req.auth!.session)),
  );

  app.delete(
    '/account/Sessions/:id',
    {
      schema: {
        tags,
        summary: '结束一个会话',
        description: '该会话随即失效（HTTP 401）。不是自己的或已结束的会话 HTTP 404。',
        params: SessionIdParamsSchema,
        response: { 200: Envelope(Type.Null()) },
      },
    },
    async (req) => {
      await account.endSession(req.user(), req.params.id);
      return ok(null);
    },
  );

  app.put(
    '/account/avatar',
    {
      schema: {
        tags,
        summary: '更换头像',
        description: 'multipart/form-data，文件字段 file：JPG、PNG、WebP 或 GIF，不超过 5 MB；服务端裁成 256×256 的 WebP 重新编码后保存。',
        response: { 200: Envelope(AvatarResultSchema) },
      },
    },
    async (req) => {
      const bytes = await readFilePart(req, {
        notMultipart: '请以 multipart/form-data 上传头像（字段 file）',
        missing: '缺少头像图片（表单字段 file）',
        tooLarge: '头像图片不能超过 5 MB',
      });
      return ok(await account.setAvatar(req.user(), bytes));
    },
  );

  app.get(
    '/User/Avatar/:userId',
    {
      schema: { tags, summary: '用户头像', description: 'image/webp；没有上传头像的用户 HTTP 404。', params: UserIdParamsSchema },
    },
    async (req, reply) => {
      const stream = await account.avatarFile(req.params.userId);
      reply.type('image/webp').header('cache-control', 'private, max-age=31536000, immutable');
      return reply.send(stream);
    },
  );
};
