// 通知设置 (everyone, their own) and 系统管理 › 通知 (system administrators only): mail and DingTalk.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import {
  DeliveriesQuerySchema,
  DeliveryPageSchema,
  MailSettingsBodySchema,
  MailSettingsSchema,
  MailTestBodySchema,
  MailTestResultSchema,
  NoticePolicyBodySchema,
  NoticePolicySchema,
  NoticeSettingsBodySchema,
  NoticeSettingsSchema,
} from './schemas';

export const noticeDeliveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { noticeMail, noticePreferences } = app.services;
  const only = '仅系统管理员；其他用户得到 HTTP 403、code 40301。';

  app.get(
    '/Account/NoticeSettings',
    {
      schema: {
        tags: ['消息'],
        summary: '我的通知设置',
        description: '每种通知在各渠道（站内消息、邮件；配置了钉钉工作通知时还有钉钉）是否接收，管理员设定的项 fixed 为 true；邮件和钉钉消息的汇总频率。',
        response: { 200: Envelope(NoticeSettingsSchema) },
      },
    },
    async (req) => ok(await noticePreferences.settingsOf(req.user())),
  );

  app.put(
    '/Account/NoticeSettings',
    {
      schema: {
        tags: ['消息'],
        summary: '保存我的通知设置',
        description: '未给出的项保持原值；管理员设定的项可以保存，但以管理员的设定为准。站内消息关闭的类型不出现在消息中心。',
        body: NoticeSettingsBodySchema,
        response: { 200: Envelope(NoticeSettingsSchema) },
      },
    },
    async (req) => ok(await noticePreferences.setSettings(req.user(), req.body)),
  );

  const tags = ['管理'];

  app.get(
    '/Admin/MailSettings',
    { schema: { tags, summary: '邮件服务器设置', description: `密码不会返回，hasPassword 表示已保存。${only}`, response: { 200: Envelope(MailSettingsSchema) } } },
    async (req) => ok(await noticeMail.get(req.user())),
  );

  app.put(
    '/Admin/MailSettings',
    {
      schema: {
        tags,
        summary: '保存邮件服务器设置',
        description: `未给出的项保持原值；password 为空字符串时清除密码。启用时须填写服务器、发件人和外部访问地址。${only}`,
        body: MailSettingsBodySchema,
        response: { 200: Envelope(MailSettingsSchema) },
      },
    },
    async (req) => ok(await noticeMail.set(req.user(), req.body)),
  );

  app.post(
    '/Admin/MailSettings/Test',
    {
      schema: {
        tags,
        summary: '发送测试邮件',
        description: `用已保存的设置立即发送一封测试邮件；邮件服务器拒绝或无法连接时返回 HTTP 502、code 50201，message 说明原因（连接被拒绝、登录失败、加密连接失败等）。${only}`,
        body: MailTestBodySchema,
        response: { 200: Envelope(MailTestResultSchema) },
      },
    },
    async (req) => ok(await noticeMail.test(req.user(), req.body.to)),
  );

  app.get(
    '/Admin/NoticePolicy',
    {
      schema: {
        tags,
        summary: '通知策略',
        description: `每种通知在各渠道的规则：user 用户自选，on 强制开启，off 强制关闭；每天汇总的发送时间。${only}`,
        response: { 200: Envelope(NoticePolicySchema) },
      },
    },
    async (req) => ok(await noticePreferences.policy(req.user())),
  );

  app.put(
    '/Admin/NoticePolicy',
    {
      schema: { tags, summary: '保存通知策略', description: `未给出的项保持原值。${only}`, body: NoticePolicyBodySchema, response: { 200: Envelope(NoticePolicySchema) } },
    },
    async (req) => ok(await noticePreferences.setPolicy(req.user(), req.body)),
  );

  app.get(
    '/Admin/NoticeDeliveries',
    {
      schema: {
        tags,
        summary: '未送达的通知',
        description: `邮件和钉钉消息。status=failed：重试后仍发送失败，或钉钉回报未送达（超出每日发送上限、用户不存在或已离职等）；status=skipped：未发送（没有邮箱地址、未绑定钉钉、通知设置已关闭、账号已停用等）。最新的在前。${only}`,
        querystring: DeliveriesQuerySchema,
        response: { 200: Envelope(DeliveryPageSchema) },
      },
    },
    async (req) => ok(await noticePreferences.deliveries(req.user(), req.query)),
  );
};
