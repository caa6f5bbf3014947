// What 云文档 serves besides /api: the runtime configuration of the web shell.
import { Type, type Static } from 'typebox';

export const RemoteEntrySchema = Type.Object({
  name: Type.Union([
    Type.Literal('files'),
    Type.Literal('workflow'),
    Type.Literal('swapspace'),
    Type.Literal('ferry'),
    Type.Literal('share'),
  ]),
  entry: Type.String({ description: '该模块 mf-manifest.json 的地址' }),
});

export const RuntimeConfigSchema = Type.Object(
  {
    mode: Type.Union([Type.Literal('full'), Type.Literal('simple')]),
    appTitle: Type.String(),
    apiUrl: Type.String(),
    apiUrlPrefix: Type.String(),
    fileUrl: Type.String(),
    workflowFileNumber: Type.Integer(),
    remotes: Type.Array(RemoteEntrySchema),
    dingtalk: Type.Union(
      [
        Type.Object({
          appId: Type.String(),
          authorizeUrl: Type.String({ description: '浏览器前往登录的钉钉地址' }),
          mode: Type.Union([Type.Literal('redirect'), Type.Literal('qr')], { description: 'redirect：跳转到钉钉登录；qr：在登录页内显示钉钉扫码' }),
          sdkUrl: Type.Optional(Type.String({ description: 'qr 时：钉钉登录脚本（DTFrameLogin）的地址' })),
        }),
        Type.Null(),
      ],
      { description: '启用钉钉登录时给出，登录页据此显示“钉钉登录”' },
    ),
  },
  { title: '运行时配置' },
);
export type RuntimeConfig = Static<typeof RuntimeConfigSchema>;
