// Schemas of 应用密码 (个人设置 → WebDAV): listed without the secret, shown once when created.
import { Type, type Static } from 'typebox';
import { IdString, Nullable } from '../../lib/schema';

export const APP_PASSWORD_NAME_MAX = 50;
/** live application passwords one person may hold */
export const APP_PASSWORDS_MAX = 50;

export const AppPasswordScopeSchema = Type.Union([Type.Literal('readOnly'), Type.Literal('readWrite')], {
  description: 'readOnly 只读；readWrite 读写（仍受文件权限限制）',
});

export const AppPasswordSchema = Type.Object(
  {
    id: IdString(),
    name: Type.String({ description: '名称，例如“家里的电脑”' }),
    scope: AppPasswordScopeSchema,
    createdAt: Type.String({ description: '创建时间' }),
    lastUsedAt: Nullable(Type.String({ description: '最近使用时间；从未使用为 null' })),
    lastUsedIp: Type.String({ description: '最近使用的地址' }),
  },
  { title: '应用密码' },
);
export type AppPassword = Static<typeof AppPasswordSchema>;

export const NewAppPasswordSchema = Type.Object(
  {
    ...AppPasswordSchema.properties,
    password: Type.String({ description: '应用密码本身：只在创建时返回这一次，服务端只保存其摘要' }),
    userName: Type.String({ description: 'WebDAV 登录时使用的用户名' }),
  },
  { title: '新建的应用密码' },
);
export type NewAppPassword = Static<typeof NewAppPasswordSchema>;

export const CreateAppPasswordBodySchema = Type.Object({
  name: Type.String({ maxLength: 200, description: `名称，1 至 ${APP_PASSWORD_NAME_MAX} 个字符` }),
  scope: AppPasswordScopeSchema,
});
export type CreateAppPasswordBody = Static<typeof CreateAppPasswordBodySchema>;

export const AppPasswordIdParamsSchema = Type.Object({ id: IdString('应用密码 id') });
