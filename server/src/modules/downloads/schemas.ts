// 云文档 downloads (docs/integration.md, "Download (issue 4)").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';

export const DownloadParamsSchema = Type.Object({ fileId: IdString('文件 id') });

export const DownloadQuerySchema = Type.Object({
  versionId: Type.Optional(Type.String({ maxLength: 20, description: '版本 id；不传或为空时下载主版本' })),
  shareId: Type.Optional(Type.String({ maxLength: 64, description: '通过“与我共享”下载时的分享 id' })),
});

export const DownloadTaskQuerySchema = Type.Object({
  shareId: Type.Optional(Type.String({ maxLength: 64, description: '通过“与我共享”打包下载时的分享 id' })),
});

export const MAX_TASK_ITEMS = 1000;

export const DownloadTaskBodySchema = Type.Array(IdString(), {
  minItems: 1,
  maxItems: MAX_TASK_ITEMS,
  description: '要打包下载的文件和文件夹的 id',
});

export const DownloadTaskSchema = Type.Object({ taskId: Type.String({ description: '下载任务 id' }) }, { title: '下载任务' });

export const TaskParamsSchema = Type.Object({ taskId: Type.String({ maxLength: 64, description: '下载任务 id' }) });

export const DownloadStatusSchema = Type.Object(
  {
    percent: Type.Integer({ minimum: 0, maximum: 100, description: '打包进度；压缩包完整写好后才为 100' }),
    downloadUrl: Type.String({ description: '压缩包的下载地址（从站点根开始的路径）；percent 为 100 之前为空字符串' }),
    state: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('ready'), Type.Literal('failed')], {
      description: 'queued 排队中，running 打包中，ready 可下载，failed 打包失败（见 error）',
    }),
    error: Type.Union([Type.String(), Type.Null()], { description: '打包失败的原因；其余情况为 null' }),
  },
  { title: '下载任务状态' },
);
export type DownloadStatus = Static<typeof DownloadStatusSchema>;
