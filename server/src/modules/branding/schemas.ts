// Schemas of the 云文档 branding calls (docs/integration.md, "Branding and agreements").
import { Type, type Static } from 'typebox';

export const BRANDING_IMAGE_KINDS = ['favicon', 'logoLight', 'logoDark', 'logoDarkLarge', 'loginBackground'] as const;
export type BrandingImageKind = (typeof BRANDING_IMAGE_KINDS)[number];

export const BrandingImageKindParamsSchema = Type.Object({
  kind: Type.Union(
    BRANDING_IMAGE_KINDS.map((k) => Type.Literal(k)),
    { description: 'favicon 网站图标、logoLight 浅色 Logo、logoDark 深色 Logo、logoDarkLarge 深色大 Logo、loginBackground 登录页背景' },
  ),
});

export const BrandingImageNameParamsSchema = Type.Object({ name: Type.String({ maxLength: 64 }) });

export const BrandingNameBodySchema = Type.Object({
  systemName_Client: Type.String({ maxLength: 200, description: '系统名称，1–30 个字符；显示在登录页、浏览器标题与菜单栏' }),
});
export type BrandingNameBody = Static<typeof BrandingNameBodySchema>;
