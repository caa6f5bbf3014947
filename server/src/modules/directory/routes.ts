// 云文档 目录同步 calls (system administrators only), and the scheduler's beat.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { DingtalkSyncBodySchema, DingtalkSyncSchema, LdapSettingsBodySchema, RunIdParamsSchema, RunSchema, SourceQuerySchema } from './schemas';

const TICK_MS = 60_000;

export const directoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const directory = app.services.directory;
  const tags = ['目录同步'];
  const only = '仅系统管理员；其他用户得到 HTTP 403、code 40301。';

  app.get('/Admin/Directory/Ldap', { schema: { tags, summary: 'LDAP 设置', description: `绑定密码不会返回，hasBindPassword 表示已保存。${only}` } }, async (req) =>
    ok(await directory.settings(req.user())),
  );

  app.put(
    '/Admin/Directory/Ldap',
    { schema: { tags, summary: '保存 LDAP 设置', description: `未给出的项保持原值。${only}`, body: LdapSettingsBodySchema } },
    async (req) => ok(await directory.setSettings(req.user(), req.body)),
  );

  app.post('/Admin/Directory/Ldap/Test', { schema: { tags, summary: '测试连接', description: `用已保存的设置绑定并查找用户（分页），返回人数和前几个用户。${only}` } }, async (req) =>
    ok(await directory.test(req.user())),
  );

  app.post(
    '/Admin/Directory/Ldap/Sync',
    {
      schema: {
        tags,
        summary: '立即同步（生成计划）',
        description: `读取目录并与已有账号比较，返回新增、更新、调动、停用的人数和前几行，不写入；确认后调用应用。目录没有返回任何用户、或将停用的人数超过设定比例时，计划为 refused。${only}`,
        response: { 200: Envelope(RunSchema) },
      },
    },
    async (req) => ok(await directory.run('ldap', 'manual', req.user(), false)),
  );

  app.get(
    '/Admin/Directory/Dingtalk',
    {
      schema: {
        tags,
        summary: '钉钉通讯录同步设置',
        description: `自动同步、间隔、停用比例上限、根部门；configured 表示是否已配置钉钉（DINGTALK_APP_KEY、DINGTALK_APP_SECRET），AppSecret 不会返回。${only}`,
        response: { 200: Envelope(DingtalkSyncSchema) },
      },
    },
    async (req) => ok(await directory.dingtalkSettings(req.user())),
  );

  app.put(
    '/Admin/Directory/Dingtalk',
    {
      schema: {
        tags,
        summary: '保存钉钉通讯录同步设置',
        description: `未给出的项保持原值；未配置钉钉时不能开启自动同步。${only}`,
        body: DingtalkSyncBodySchema,
        response: { 200: Envelope(DingtalkSyncSchema) },
      },
    },
    async (req) => ok(await directory.setDingtalkSettings(req.user(), req.body)),
  );

  app.post(
    '/Admin/Directory/Dingtalk/Sync',
    {
      schema: {
        tags,
        summary: '钉钉通讯录同步（生成计划）',
        description: `配置了钉钉登录（DINGTALK_APP_KEY）时可用：逐个部门分页读取全部成员，与来自钉钉的账号比较，返回计划，确认后调用应用。安全规则与 LDAP 相同：钉钉没有返回任何用户、或将停用的人数超过设置中的停用比例上限（默认 10%）时，计划为 refused。${only}`,
        response: { 200: Envelope(RunSchema) },
      },
    },
    async (req) => ok(await directory.run('dingtalk', 'manual', req.user(), false)),
  );

  app.get(
    '/Admin/Directory/Runs',
    { schema: { tags, summary: '同步记录', description: `最近 20 次，最新的在前；source 默认为 ldap，all 为全部来源。${only}`, querystring: SourceQuerySchema, response: { 200: Envelope(Type.Array(RunSchema)) } } },
    async (req) => ok(await directory.runs(req.user(), req.query.source ?? 'ldap')),
  );

  app.post(
    '/Admin/Directory/Runs/:id/Apply',
    {
      schema: {
        tags,
        summary: '应用同步计划',
        description: `只有最新的待应用计划可以应用；应用前按当前的账号再核对一次。离开目录的人被停用（会话随即结束），不会删除。${only}`,
        params: RunIdParamsSchema,
        response: { 200: Envelope(RunSchema) },
      },
    },
    async (req) => ok(await directory.applyRun(req.user(), req.params.id)),
  );

  // the scheduled sync: each instance beats; the lease lets one of them run
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      directory.tick().catch((err: unknown) => app.log.error({ err }, '云文档目录定时同步失败'));
    }, TICK_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
  });
};
