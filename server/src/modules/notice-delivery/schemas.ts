// The calls of 通知设置 (/api/Account/NoticeSettings) and 系统管理 › 通知 (/api/Admin/MailSettings,
// /api/Admin/NoticePolicy, /api/Admin/NoticeDeliveries).
import { Type, type Static } from 'typebox';
import { PagingFilled } from '../../lib/paging';

const Security = Type.Union([Type.Literal('none'), Type.Literal('starttls'), Type.Literal('tls')], { description: 'none 不加密；starttls 连接后用 STARTTLS 加密（通常 587 端口）；tls 全程 TLS（通常 465 端口）' });

const mailFields = {
  enabled: Type.Boolean({ description: '启用邮件通知' }),
  host: Type.String({ maxLength: 255, description: '邮件服务器（SMTP）地址' }),
  port: Type.Integer({ minimum: 1, maximum: 65535, description: '端口' }),
  security: Security,
  tlsVerify: Type.Boolean({ description: '校验服务器证书' }),
  user: Type.String({ maxLength: 255, description: '登录账号（为空时不登录）' }),
  from: Type.String({ maxLength: 255, description: '发件人地址' }),
  fromName: Type.String({ maxLength: 100, description: '发件人名称（为空时使用系统名称）' }),
  externalUrl: Type.String({ maxLength: 500, description: '外部访问地址（如 https://docs.example.com）：邮件中的链接由它与页面路径组成' }),
};

export const MailSettingsSchema = Type.Object({ ...mailFields, hasPassword: Type.Boolean({ description: '已保存密码（密码不会返回）' }) }, { title: '邮件服务器设置' });

export const MailSettingsBodySchema = Type.Partial(
  Type.Object({ ...mailFields, password: Type.String({ maxLength: 500, description: '密码：加密保存，不会返回；不给出时保持原值，空字符串为清除' }) }),
  { title: '保存邮件服务器设置' },
);

export const MailTestBodySchema = Type.Object({ to: Type.String({ minLength: 1, maxLength: 255, description: '收件邮箱地址' }) });
export const MailTestResultSchema = Type.Object({ message: Type.String() });

const Cell = Type.Object({ enabled: Type.Boolean(), fixed: Type.Boolean({ description: '由管理员设定（不能修改）' }) });
const ChannelKey = Type.String({ description: 'inApp 站内消息；mail 邮件；dingtalk 钉钉（仅当服务器配置了钉钉工作通知 DINGTALK_AGENT_ID）' });
const DigestSchema = Type.Union([Type.Literal('hourly'), Type.Literal('daily')], { description: 'hourly 每小时汇总；daily 每天汇总' });

export const NoticeSettingsSchema = Type.Object(
  {
    kinds: Type.Array(Type.String(), { description: '全部通知类型' }),
    channels: Type.Array(
      Type.Object({
        key: ChannelKey,
        name: Type.String(),
        available: Type.Boolean({ description: '能否通过该渠道收到（邮件：管理员已启用且本人有邮箱；钉钉：本人已绑定钉钉）' }),
        note: Type.String({ description: '不可用的原因' }),
      }),
    ),
    rows: Type.Array(
      Type.Object({
        kind: Type.String(),
        urgent: Type.Boolean({ description: '立即发送（其他类型按汇总频率发送邮件和钉钉消息）' }),
        channels: Type.Record(Type.String(), Cell),
      }),
    ),
    digest: DigestSchema,
    dailyHour: Type.Integer({ description: '每天汇总的发送时间（点）' }),
    email: Type.String({ description: '本人的邮箱地址（为空时只能收到站内消息）' }),
  },
  { title: '通知设置' },
);

export const NoticeSettingsBodySchema = Type.Object(
  {
    settings: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Boolean()), { description: '{ 通知类型: { 渠道: 开或关 } }；未给出的保持原值' })),
    digest: Type.Optional(DigestSchema),
  },
  { title: '保存通知设置' },
);

const Mode = Type.Union([Type.Literal('user'), Type.Literal('on'), Type.Literal('off')], { description: 'user 用户自选；on 强制开启；off 强制关闭' });

export const NoticePolicySchema = Type.Object(
  {
    kinds: Type.Array(Type.String()),
    channels: Type.Array(Type.Object({ key: ChannelKey, name: Type.String() })),
    rules: Type.Record(Type.String(), Type.Record(Type.String(), Mode), { description: '{ 通知类型: { 渠道: 规则 } }' }),
    dailyHour: Type.Integer({ minimum: 0, maximum: 23, description: '每天汇总的发送时间（点，服务器时区）' }),
    urgentKinds: Type.Array(Type.String(), { description: '立即发送邮件和钉钉消息的类型；其他类型按各人的汇总频率发送' }),
  },
  { title: '通知策略' },
);

export const NoticePolicyBodySchema = Type.Object(
  {
    rules: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Mode), { description: '未给出的保持原值' })),
    dailyHour: Type.Optional(Type.Integer({ minimum: 0, maximum: 23 })),
  },
  { title: '保存通知策略' },
);

export const DeliveriesQuerySchema = Type.Object({
  ...PagingFilled(20, 100),
  status: Type.Union([Type.Literal('failed'), Type.Literal('skipped')], { default: 'failed', description: 'failed 发送失败（含钉钉回报未送达）；skipped 未发送（如没有邮箱地址、未绑定钉钉）' }),
});
export type DeliveriesQueryType = Static<typeof DeliveriesQuerySchema>;

export const DeliveryPageSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      userId: Type.String(),
      userName: Type.String(),
      nickName: Type.String(),
      email: Type.String(),
      kind: Type.String(),
      title: Type.String(),
      channel: Type.String({ description: 'mail 或 dingtalk' }),
      channelName: Type.String({ description: '邮件、钉钉' }),
      recipient: Type.String({ description: '发送到的邮箱地址或钉钉 userid（未发出时为空）' }),
      status: Type.String(),
      reason: Type.String(),
      attempts: Type.Integer(),
      createdAt: Type.String({ description: '通知产生的时间' }),
      updatedAt: Type.String({ description: '失败或跳过的时间' }),
    }),
  ),
  total: Type.Integer(),
});
