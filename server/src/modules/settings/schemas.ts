// 云文档 settings: feature policy, environment configuration, branding, password policy, home.
import { Type, type Static } from 'typebox';

export const FeaturePolicySchema = Type.Object(
  {
    personalSpace: Type.Boolean({ description: '个人空间' }),
    publicSpace: Type.Boolean({ description: '企业空间' }),
    workflow: Type.Boolean({ description: '流程' }),
    ferrySpaces: Type.Boolean({ description: '交换空间（文件摆渡）' }),
  },
  { title: '功能策略' },
);
export type FeaturePolicy = Static<typeof FeaturePolicySchema>;

export const EnvironmentConfigSchema = Type.Object(
  {
    personalFolderName: Type.String({ description: '个人空间根目录名称' }),
    publicFolderName: Type.String({ description: '企业空间根目录名称' }),
  },
  { title: '环境配置' },
);
export type EnvironmentConfig = Static<typeof EnvironmentConfigSchema>;

export const BrandingSchema = Type.Object(
  {
    systemName_Client: Type.String({ description: '系统名称' }),
    favroiteIcon: Type.String(),
    login_Background: Type.String(),
    logo_Dark: Type.String(),
    logo_Dark_Large: Type.String(),
    logo_Light: Type.String(),
  },
  { title: '客户端品牌' },
);
export type Branding = Static<typeof BrandingSchema>;

export const PasswordPolicySchema = Type.Object(
  {
    minLength: Type.Integer({ minimum: 6, maximum: 64, description: '最短长度（6–64）' }),
    requireDigit: Type.Boolean({ description: '必须包含数字' }),
    requireLetter: Type.Boolean({ description: '必须包含字母' }),
    requireSymbol: Type.Boolean({ description: '必须包含符号' }),
    requireMixedCase: Type.Boolean({ description: '必须同时包含大写和小写字母' }),
    historyCount: Type.Integer({ minimum: 0, maximum: 24, description: '不能与最近几次用过的密码相同（0–24，0 为不限制）' }),
    expiryDays: Type.Integer({ minimum: 0, maximum: 3650, description: '密码有效天数，过期后登录须先修改密码（0 为永不过期）' }),
    lockoutThreshold: Type.Integer({ minimum: 0, maximum: 100, description: '连续输错几次后锁定账号（0 为不锁定）' }),
    lockoutMinutes: Type.Integer({ minimum: 1, maximum: 1440, description: '锁定多少分钟' }),
    totpRequired: Type.Boolean({ description: '所有用户登录都须输入动态口令（TOTP）' }),
    webdavAccountPassword: Type.Optional(
      Type.Boolean({ description: '允许未使用动态口令的用户以登录密码连接 WebDAV（默认 false：只接受应用密码）；省略时保持原值' }),
    ),
  },
  { title: '密码策略' },
);
export type PasswordPolicy = Static<typeof PasswordPolicySchema>;

export const UploadPolicySchema = Type.Object(
  {
    rapidUploadOrganization: Type.Boolean({
      description: '秒传范围：false（默认）仅限调用者已能查看的文件；true 全组织范围内已有的内容都可秒传',
    }),
    personalQuota: Type.Integer({ minimum: 0, description: '每个用户个人空间的容量（字节），0 表示不限（默认）' }),
    chunkCheck: Type.Boolean({
      description:
        '分片校验：true 时客户端为每个分片计算 MD5 并随分片发送（ChunkHash），服务端逐片校验；false（默认）时只在完成上传时校验整个文件的 MD5，上传更快',
    }),
    rapidUpload: Type.Boolean({ description: '秒传：false 时每个文件都完整上传（默认 true）' }),
    maxFileSize: Type.Integer({ minimum: 1024 * 1024, maximum: 1024 ** 4, description: '单个文件大小上限（字节）：大于或等于它的文件不能上传（默认 5 GB）' }),
    maxFileCount: Type.Integer({ minimum: 1, maximum: 10000, description: '一次选择的文件数超过它时提示（仅提示，默认 500）' }),
  },
  { title: '上传策略' },
);
export type UploadPolicy = Static<typeof UploadPolicySchema>;

/** PUT /Admin/UploadPolicy: chunkCheck, rapidUpload, maxFileSize and maxFileCount left out keep their current values. */
export const UploadPolicyBodySchema = Type.Object(
  {
    rapidUploadOrganization: UploadPolicySchema.properties.rapidUploadOrganization,
    personalQuota: UploadPolicySchema.properties.personalQuota,
    chunkCheck: Type.Optional(UploadPolicySchema.properties.chunkCheck),
    rapidUpload: Type.Optional(UploadPolicySchema.properties.rapidUpload),
    maxFileSize: Type.Optional(UploadPolicySchema.properties.maxFileSize),
    maxFileCount: Type.Optional(UploadPolicySchema.properties.maxFileCount),
  },
  { title: '修改上传策略' },
);
export type UploadPolicyBody = Static<typeof UploadPolicyBodySchema>;

export const MENU_NAMES = ['file', 'workflow', 'swapSpace', 'ferry', 'setting'] as const;
export type MenuName = (typeof MENU_NAMES)[number];

export const MenuEntrySchema = Type.Object({
  name: Type.Union([
    Type.Literal('file'),
    Type.Literal('workflow'),
    Type.Literal('swapSpace'),
    Type.Literal('ferry'),
    Type.Literal('setting'),
  ]),
  path: Type.String(),
  title: Type.String(),
  isShow: Type.Boolean(),
});
export type MenuEntry = Static<typeof MenuEntrySchema>;

export const HomeSchema = Type.Object(
  {
    baseHome: Type.String({ description: '首个可见菜单的路径；没有可见菜单时为 /404' }),
    roles: Type.Object({ personalSpace: Type.Boolean(), publicSpace: Type.Boolean() }),
    menus: Type.Array(MenuEntrySchema),
  },
  { title: '首页与菜单' },
);
export type Home = Static<typeof HomeSchema>;

/** GET/PUT /Admin/PreviewPolicy */
export const PreviewPolicySchema = Type.Object(
  {
    watermark: Type.Boolean({ description: '预览企业文件时在内容上方显示查看者姓名与时间的水印（默认开启）' }),
  },
  { title: '预览策略' },
);
export type PreviewPolicy = Static<typeof PreviewPolicySchema>;
