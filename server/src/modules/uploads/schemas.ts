// 云文档 upload calls (api-contract.md "Upload"; docs/integration.md "Upload (issue 4)").
import { Type, type Static } from 'typebox';
import { Nullable } from '../../lib/schema';
import { UploadPolicyBodySchema, UploadPolicySchema } from '../settings/schemas';

export const FileUploadOptionsSchema = Type.Object(
  {
    chunkCheck: Type.Boolean({ description: '是否逐片校验：true 时每个分片须带 ChunkHash（由管理员的上传策略决定，默认 false）' }),
    chunkCheckAlgorithm: Type.String({ description: '分片校验算法：MD5' }),
    chunkSize: Type.Integer({ description: '分片大小（字节）' }),
    maxFileCount: Type.Integer({ description: '一次选择的文件数超过它时提示（仅提示）' }),
    maxFileSize: Type.Integer({ description: '大于或等于该大小（字节）的文件不能上传' }),
    rapidUpload: Type.Boolean({ description: '是否支持秒传' }),
  },
  { title: '上传选项' },
);
export type FileUploadOptions = Static<typeof FileUploadOptionsSchema>;

export const CheckAndCreateBodySchema = Type.Object(
  {
    folderId: Type.String({ maxLength: 32, description: '目标文件夹 id' }),
    fileName: Type.String({ maxLength: 1024, description: '文件名；重命名（strategy 2）时为新名称' }),
    size: Type.Integer({ minimum: 0, description: '文件大小（字节）' }),
    type: Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 64 }), Type.Null()])),
    // one schema with a type list: Ajv's type coercion would turn null into 0 in a union's first branch
    strategy: Type.Optional(
      Type.Unsafe<0 | 1 | 2 | 3 | null>({
        type: ['integer', 'null'],
        enum: [0, 1, 2, 3, null],
        description: 'null 首次；0 新版本，1 覆盖，2 重命名，3 跳过（客户端以 null 表示跳过且不上传）',
      }),
    ),
    relativePath: Type.Optional(Nullable(Type.String({ maxLength: 4096, description: '拖入文件夹内的路径（含文件名）' }))),
    taskId: Type.String({ minLength: 1, maxLength: 200, description: '客户端生成的上传任务 id；同一任务再次提交时续传' }),
    shareId: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    // a type list, as for strategy: in a union, Ajv's coercion would turn 0 into null
    chunkSize: Type.Optional(
      Type.Unsafe<number | null>({
        type: ['integer', 'null'],
        minimum: 1,
        description:
          '希望的分片大小（字节），可不传：大文件用更大的分片、更少的请求。服务端在上传选项的分片大小与 32 MB 之间采用，结果中的 chunkSize 为本任务实际的分片大小；不传时为上传选项的分片大小',
      }),
    ),
  },
  { title: '创建上传任务' },
);
export type CheckAndCreateBody = Static<typeof CheckAndCreateBodySchema>;

/** Empty folders of a dropped folder: at most this many paths in one call. */
export const MAX_FOLDER_PATHS = 1000;

export const CreateFoldersBodySchema = Type.Object(
  {
    folderId: Type.String({ maxLength: 32, description: '目标文件夹 id' }),
    paths: Type.Array(Type.String({ maxLength: 4096 }), {
      maxItems: MAX_FOLDER_PATHS,
      description: '拖入的文件夹中的空文件夹路径（以拖入文件夹的名称开头，以 / 分隔）；已有的同名文件夹沿用',
    }),
  },
  { title: '创建上传的空文件夹' },
);
export type CreateFoldersBody = Static<typeof CreateFoldersBodySchema>;

export const CreateFoldersResultSchema = Type.Object(
  {
    created: Type.Integer({ description: '新建的文件夹个数' }),
    failed: Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), { description: '未能创建的路径及原因' }),
  },
  { title: '空文件夹创建结果' },
);
export type CreateFoldersResult = Static<typeof CreateFoldersResultSchema>;

export const StrategyOptionSchema = Type.Object({
  name: Type.String(),
  value: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
});

export const CheckAndCreateResultSchema = Type.Object(
  {
    conflictType: Type.Integer({ description: '0 无冲突（已建上传任务）；1 已有同名文件；2 已有同名文件夹或快捷方式' }),
    conflictStrategies: Type.Array(StrategyOptionSchema),
    fileInfo: Type.Union([Type.Object({ fileId: Type.String(), fileName: Type.String() }), Type.Null()]),
    uploadedChunks: Type.Array(Type.Integer()),
    batchNumber: Type.Union([Type.String(), Type.Null()], { description: '外部分享上传：分片调用路径中的批次号' }),
    rapidPossible: Type.Optional(
      Type.Boolean({
        description:
          '已建上传任务时给出：false 表示调用者可用的文件中没有同样大小的，秒传不可能成功，客户端可以边计算 MD5 边上传分片；true 时先算 MD5 再请求秒传',
      }),
    ),
    chunkSize: Type.Optional(
      Type.Integer({ description: '已建上传任务时给出：本任务的分片大小（字节），各分片按它切分（续传时为任务创建时的大小）' }),
    ),
  },
  { title: '上传任务' },
);
export type CheckAndCreateResult = Static<typeof CheckAndCreateResultSchema>;

export const RapidBodySchema = Type.Object({
  fileId: Type.String({ maxLength: 64 }),
  fileHash: Type.String({ maxLength: 64, description: '整个文件的 MD5（十六进制）' }),
});
export type RapidBody = Static<typeof RapidBodySchema>;
export const RapidResultSchema = Type.Object({ success: Type.Boolean() });

export const MergeBodySchema = Type.Object({
  fileId: Type.String({ maxLength: 64 }),
  relativePath: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
  fileHash: Type.String({ maxLength: 64 }),
});
export type MergeBody = Static<typeof MergeBodySchema>;

export const ChunkQuerySchema = Type.Object({
  fileId: Type.String({ maxLength: 64 }),
  ChunkHash: Type.Optional(Type.String({ maxLength: 64, description: '本分片的 MD5（十六进制）' })),
  RelativePath: Type.Optional(Type.String({ maxLength: 4096 })),
  timestamp: Type.Optional(Type.String()),
  shareId: Type.Optional(Type.String({ maxLength: 64, description: '通过“与我共享”上传时的分享 id' })),
});
export type ChunkQuery = Static<typeof ChunkQuerySchema>;

export const ShareQuerySchema = Type.Object({
  shareId: Type.Optional(Type.String({ maxLength: 64, description: '通过“与我共享”上传时的分享 id（分享权限须为上传和编辑）' })),
});

export const ChunkResultSchema = Type.Object({
  chunkNumber: Type.Integer(),
  uploadedChunks: Type.Array(Type.Integer()),
});

export const ShareParamsSchema = Type.Object({ shareId: Type.String({ maxLength: 200 }) });
export const BatchParamsSchema = Type.Object({ batchNumber: Type.String({ maxLength: 200 }) });

export { UploadPolicyBodySchema, UploadPolicySchema };

export const SessionParamsSchema = Type.Object({ fileId: Type.String({ maxLength: 64, description: '上传任务（CheckAndCreateFileInfo 返回的 fileInfo.fileId）' }) });
export const AbandonResultSchema = Type.Object({ removed: Type.Boolean({ description: '是否删除了一个未完成的上传' }) });
