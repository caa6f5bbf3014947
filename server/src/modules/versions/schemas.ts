// 云文档 file versions (docs/integration.md, "Versions").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';

export const VersionSchema = Type.Object(
  {
    id: IdString(),
    fileId: IdString(),
    version: Type.Integer({ description: '版本号，从 1 开始' }),
    size: Type.Integer({ description: '字节数' }),
    md5: Type.Union([Type.String(), Type.Null()], { description: '内容的 MD5（十六进制）；空文件为 null' }),
    isMaster: Type.Boolean({ description: '是否为主版本（即文件当前的内容）' }),
    creatorId: IdString(),
    creatorName: Type.String(),
    createdAt: Type.String({ description: 'YYYY-MM-DD HH:mm:ss' }),
  },
  { title: '文件版本' },
);
export type Version = Static<typeof VersionSchema>;

export const VersionListSchema = Type.Array(VersionSchema);

export const FileIdParamsSchema = Type.Object({ id: IdString('文件 id') });
export const RollbackParamsSchema = Type.Object({ fileId: IdString('文件 id'), id: IdString('版本 id') });
export const VersionIdParamsSchema = Type.Object({ id: IdString('版本 id') });

export const SetMasterQuerySchema = Type.Object({
  isMaster: Type.Optional(Type.Boolean({ default: true, description: 'true 设为主版本；主版本不能设为 false' })),
});
