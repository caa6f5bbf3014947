// 云文档 preview (api-contract.md, "Preview"; docs/integration.md, "Preview").
import { Type, type Static } from 'typebox';
import { IdString, Nullable } from '../../lib/schema';

export const PreviewBodySchema = Type.Object({
  fileId: IdString('文件 id'),
  versionId: Type.Optional(Type.String({ maxLength: 20, description: '版本 id；不传时预览主版本（通过分享时不可用）' })),
  shareId: Type.Optional(Type.String({ maxLength: 64, description: '通过内部分享（与我共享）或外链分享预览时的分享 id；外链分享的提取码放在请求头 accessKey 中' })),
});
export type PreviewBody = Static<typeof PreviewBodySchema>;

export const PreviewSourceSchema = Type.Union(
  [Type.Literal('image'), Type.Literal('pdf'), Type.Literal('video'), Type.Literal('audio'), Type.Literal('text'), Type.Literal('office')],
  { description: '查看器：image 图片、pdf、video 视频、audio 音频、text 文本与代码、office（转换为 PDF 后显示）' },
);

export const PreviewPayloadSchema = Type.Object(
  {
    fileId: Type.String(),
    source: PreviewSourceSchema,
    data: Type.Object({
      name: Type.String(),
      extension: Type.String(),
      size: Type.Integer(),
      updatedAt: Type.String(),
      versionId: Nullable(Type.String()),
      shareId: Nullable(Type.String()),
      url: Type.String({ description: '查看器加载的地址（Cookie 认证；外链分享另加 accessKey 查询参数）：图片、PDF、音视频为内容本身（支持 Range），文本为 TextPreview，Office 为转换后的 PDF' }),
      conversionUrl: Nullable(Type.String({ description: 'Office 文档：查询转换进度（PreviewConversion）' })),
      thumbnailUrl: Nullable(Type.String({ description: '图片的缩略图（256 像素 WebP）；没有时为 null' })),
      downloadUrl: Nullable(Type.String({ description: '可下载时为下载地址；只能预览时为 null' })),
      watermark: Nullable(Type.String({ description: '显示在预览内容上方的水印文字' })),
    }),
    permissionVo: Type.Object({
      level: Type.Integer({ description: '1 预览、2 下载、3 上传编辑、4 管理' }),
      download: Type.Boolean(),
    }),
    PreviewActions: Type.Object({ previewable: Type.Boolean() }),
  },
  { title: '预览数据' },
);
export type PreviewPayload = Static<typeof PreviewPayloadSchema>;

export const PreviewParamsSchema = Type.Object({ fileId: IdString('文件 id') });
export type PreviewParams = Static<typeof PreviewParamsSchema>;

export const PreviewQuerySchema = Type.Object({
  versionId: PreviewBodySchema.properties.versionId,
  shareId: PreviewBodySchema.properties.shareId,
  accessKey: Type.Optional(Type.String({ maxLength: 64, description: '外链分享的提取码（也可放在请求头 accessKey 中）' })),
});
export type PreviewQuery = Static<typeof PreviewQuerySchema>;

export const TextPreviewSchema = Type.Object(
  {
    text: Type.String(),
    encoding: Type.Union([Type.Literal('utf-8'), Type.Literal('gb18030')]),
    size: Type.Integer({ description: '文件的字节数' }),
    truncated: Type.Boolean({ description: 'true 时只返回了开头的 2 MB' }),
  },
  { title: '文本预览' },
);

export const PreviewConversionSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('converting'), Type.Literal('failed')]),
    message: Type.String(),
  },
  { title: 'Office 文档的转换进度' },
);
