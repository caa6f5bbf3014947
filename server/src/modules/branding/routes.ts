// 云文档 branding calls: administrators set the system name and pictures; the pictures are
// served to everyone (the login page has no session).
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { readFilePart } from '../../lib/upload-part';
import { BrandingSchema } from '../settings/schemas';
import { assertSystemAdmin } from '../users/service';
import { BrandingImageKindParamsSchema, BrandingImageNameParamsSchema, BrandingNameBodySchema } from './schemas';
import { BRANDING_IMAGE_MAX_BYTES } from './service';

export const brandingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const branding = app.services.branding;
  const tags = ['设置'];
  const only = '仅系统管理员；其他用户得到 HTTP 403、code 40301。';

  await app.register(multipart, { limits: { fileSize: BRANDING_IMAGE_MAX_BYTES, files: 1, fields: 4, parts: 5 } });

  app.put(
    '/Admin/Branding',
    {
      preValidation: async (req) => void assertSystemAdmin(req.user()),
      schema: { tags, summary: '设置系统名称', description: only, body: BrandingNameBodySchema, response: { 200: Envelope(BrandingSchema) } },
    },
    async (req) => ok(await branding.setName(req.body)),
  );

  app.put(
    '/Admin/Branding/Images/:kind',
    {
      preValidation: async (req) => void assertSystemAdmin(req.user()),
      schema: {
        tags,
        summary: '上传品牌图片',
        description: `multipart/form-data，文件字段 file：JPG、PNG、WebP 或 GIF，不超过 10 MB；服务端重新编码（网站图标 64×64 PNG，Logo 与背景缩放后存为 WebP）。${only}`,
        params: BrandingImageKindParamsSchema,
        response: { 200: Envelope(BrandingSchema) },
      },
    },
    async (req) => {
      const bytes = await readFilePart(req, {
        notMultipart: '请以 multipart/form-data 上传图片（字段 file）',
        missing: '缺少图片（表单字段 file）',
        tooLarge: '图片不能超过 10 MB',
      });
      return ok(await branding.setImage(req.params.kind, bytes));
    },
  );

  app.delete(
    '/Admin/Branding/Images/:kind',
    {
      preValidation: async (req) => void assertSystemAdmin(req.user()),
      schema: { tags, summary: '恢复默认品牌图片', description: only, params: BrandingImageKindParamsSchema, response: { 200: Envelope(BrandingSchema) } },
    },
    async (req) => ok(await branding.clearImage(req.params.kind)),
  );

  app.get(
    '/Client/Branding/Images/:name',
    {
      config: { public: true },
      schema: { tags, summary: '品牌图片', description: '不需要登录；换图后地址随之改变，可长期缓存。', security: [], params: BrandingImageNameParamsSchema },
    },
    async (req, reply) => {
      const { stream, type } = await branding.imageFile(req.params.name);
      reply.type(type).header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff');
      return reply.send(stream);
    },
  );
};
