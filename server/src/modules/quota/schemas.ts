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

export const QuotaOverviewSchema = Type.Object(
  {
    defaultQuota: Type.Integer({ description: '默认个人空间配额（字节，0 为不限）' }),
    totals: Type.Object({
      personal: Type.Integer({ description: '个人空间中的文件（含回收站）' }),
      public: Type.Integer({ description: '企业空间中的文件（含回收站）' }),
      recycleBin: Type.Integer({ description: '其中回收站' }),
      uploading: Type.Integer({ description: '未完成的上传预留' }),
    }),
    dedup: Type.Object({
      logical: Type.Integer({ description: '全部文件版本的大小之和' }),
      stored: Type.Integer({ description: '实际存储的内容（相同内容只存一份）' }),
      saved: Type.Integer({ description: '去重节省的字节数' }),
    }),
    largestUsers: Type.Array(
      Type.Object({ userId: Type.String(), userName: Type.String(), nickName: Type.String(), used: Type.Integer(), quota: Type.Integer({ description: '生效的配额，0 为不限' }) }),
    ),
    largestFolders: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        space: Type.Union([Type.Literal('personal'), Type.Literal('public')]),
        ownerName: Type.String(),
        size: Type.Integer({ description: '其中未删除文件的大小之和' }),
      }),
    ),
  },
  { title: '空间与配额概况' },
);
export type QuotaOverview = Static<typeof QuotaOverviewSchema>;
