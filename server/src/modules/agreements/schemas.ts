// Schemas of the 云文档 agreement calls (docs/integration.md, "Branding and agreements").
import { Type, type Static } from 'typebox';

export const AGREEMENT_MAX_CHARS = 20_000;

export const AgreementKindParamsSchema = Type.Object({
  kind: Type.Union([Type.Literal('service'), Type.Literal('privacy')], { description: 'service 服务协议，privacy 隐私政策' }),
});
export type AgreementKind = Static<typeof AgreementKindParamsSchema>['kind'];

export const AgreementSchema = Type.Object(
  {
    kind: Type.String(),
    title: Type.String(),
    content: Type.String({
      description: '正文：空行分段；以“# ”开头的行是小标题，以“- ”开头的行是列表项；按纯文本显示，不解释 HTML',
    }),
    updatedAt: Type.Union([Type.Integer(), Type.Null()], { description: '管理员最后修改的时间（毫秒）；null 为内置文本' }),
  },
  { title: '协议' },
);
export type Agreement = Static<typeof AgreementSchema>;

export const AgreementBodySchema = Type.Object({
  content: Type.String({ maxLength: 100_000, description: `正文，1–${AGREEMENT_MAX_CHARS} 个字符；空字符串恢复内置文本` }),
});
export type AgreementBody = Static<typeof AgreementBodySchema>;
