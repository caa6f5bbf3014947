// 云文档 personal space use and quota (spec section 7: GET /api/Account/PersonalRootUsed and
// /PersonalRootPolicy), and the data volume's free space for administrators.
import { Type, type Static } from 'typebox';

export const PersonalUsageSchema = Type.Object(
  {
    used: Type.Integer({ description: '个人空间中文件占用的字节数（含回收站）' }),
    recycleBin: Type.Integer({ description: '其中回收站占用的字节数' }),
    uploading: Type.Integer({ description: '未完成的上传预留的字节数' }),
  },
  { title: '个人空间用量' },
);
export type PersonalUsage = Static<typeof PersonalUsageSchema>;

export const PersonalPolicySchema = Type.Object(
  {
    quota: Type.Integer({ description: '个人空间容量（字节），0 表示不限' }),
    unlimited: Type.Boolean(),
  },
  { title: '个人空间容量策略' },
);
export type PersonalPolicy = Static<typeof PersonalPolicySchema>;

export const DiskStatusSchema = Type.Object(
  {
    total: Type.Integer({ description: '数据目录所在卷的总字节数' }),
    free: Type.Integer({ description: '可用字节数' }),
    minFree: Type.Integer({ description: '上传不会占用的保留空间（UPLOAD_MIN_FREE_MB）' }),
    level: Type.Union([Type.Literal('ok'), Type.Literal('low'), Type.Literal('full')], { description: 'ok 充足；low 不足，应尽快清理或扩容；full 已到保留空间，新的上传被拒绝' }),
  },
  { title: '存储空间' },
);
