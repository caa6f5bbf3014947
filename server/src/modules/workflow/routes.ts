// 云文档 approval calls (api-contract.md, "Approvals").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { sendContent } from '../downloads/http';
import {
  ActionBodySchema,
  CountsSchema,
  DefinitionBodySchema,
  DefinitionParamsSchema,
  DefinitionSchema,
  InstanceDetailSchema,
  InstanceFileParamsSchema,
  InstancePageSchema,
  InstanceParamsSchema,
  InstancesQuerySchema,
  RouteStepSchema,
  StartBodySchema,
  StartedSchema,
} from './schemas';
import type { ActionName } from './service';

/** How often ended instances not yet taken by their module are handed over again. */
const END_SWEEP_INTERVAL_MS = 60 * 1000;

const ACTIONS: Array<{ name: ActionName; summary: string; description: string }> = [
  { name: 'Approve', summary: '同意', description: '当前步骤待你处理时可用；依次审批交给下一位，会签等全部同意，或签一人同意即进入下一步。' },
  { name: 'Reject', summary: '驳回', description: '需要填写意见；审批结束，状态为已驳回。' },
  { name: 'Return', summary: '退回到之前的步骤', description: '需要填写意见与 toStep（之前某一步的序号）；该步骤重新开始审批。' },
  { name: 'Transfer', summary: '转交', description: '把你的待办交给 userId，由对方处理。' },
  { name: 'AddApprover', summary: '加签', description: '在你之后增加审批人 userId（依次审批时排在你之后，其余方式与你一起审批）。' },
  { name: 'Revoke', summary: '撤销', description: '只有发起人可以撤销；按流程的设置，在审批人处理前或审批结束前可撤销。' },
  { name: 'Comment', summary: '评论', description: '能查看该审批的人都可以评论，审批结束后也可以。' },
];

export const workflowRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const workflow = app.services.workflow;
  const tags = ['流程'];
  const hidden = '看不到该审批的人得到 404（发起人、审批路线上的人、抄送人与流程管理员可以查看）。';
  /** A request as the operation log names it: its title at the time. */
  const requestObject = async (id: string) => {
    const row = await app.db.selectFrom('workflow_instances').select('title').where('id', '=', Number(id)).executeTakeFirst();
    return { type: 'workflow', id, name: row?.title ?? '' };
  };

  let sweepTimer: NodeJS.Timeout | null = null;
  const sweep = () =>
    workflow
      .sweepEnds((err, instanceId) => app.log.error({ err, instanceId }, '云文档审批结束通知处理失败，稍后重试'))
      .catch((err: unknown) => app.log.error({ err }, '云文档审批结束通知扫描失败'));
  app.addHook('onReady', async () => {
    await sweep();
    sweepTimer = setInterval(() => void sweep(), END_SWEEP_INTERVAL_MS);
    sweepTimer.unref();
  });
  app.addHook('onClose', async () => {
    if (sweepTimer) clearInterval(sweepTimer);
  });

  app.get(
    '/Workflow/Definitions',
    {
      schema: {
        tags,
        summary: '流程定义列表',
        description: '启用的流程；流程管理员还能看到停用的流程。',
        response: { 200: Envelope(Type.Array(DefinitionSchema)) },
      },
    },
    async (req) => ok(await workflow.definitions(req.user())),
  );

  app.post(
    '/Workflow/Definitions',
    {
      schema: {
        tags,
        summary: '新建流程',
        description: '只有流程管理员（isFlowAdmin）可以新建（否则 HTTP 403、code 40301）。',
        body: DefinitionBodySchema,
        response: { 200: Envelope(DefinitionSchema) },
      },
    },
    async (req) => ok(await workflow.createDefinition(req.user(), req.body)),
  );

  app.put(
    '/Workflow/Definitions/:id',
    {
      schema: {
        tags,
        summary: '修改流程',
        description: '生成新版本；已发起的审批仍按发起时的版本进行。只有流程管理员可以修改。',
        params: DefinitionParamsSchema,
        body: DefinitionBodySchema,
        response: { 200: Envelope(DefinitionSchema) },
      },
    },
    async (req) => ok(await workflow.updateDefinition(req.user(), req.params.id, req.body)),
  );

  app.delete(
    '/Workflow/Definitions/:id',
    {
      schema: {
        tags,
        summary: '删除流程',
        description: '不能再发起；已发起的审批继续进行。只有流程管理员可以删除。',
        params: DefinitionParamsSchema,
        response: { 200: Envelope(Type.Object({ id: Type.String() })) },
      },
    },
    async (req) => ok(await workflow.deleteDefinition(req.user(), req.params.id)),
  );

  app.get(
    '/Workflow/Definitions/:id/Route',
    {
      schema: {
        tags,
        summary: '审批路线预览',
        description: '按调用者作为发起人解析每一步的审批人；没有审批人的步骤交给流程管理员（fallback）。',
        params: DefinitionParamsSchema,
        response: { 200: Envelope(Type.Array(RouteStepSchema)) },
      },
    },
    async (req) => ok(await workflow.route(req.user(), req.params.id)),
  );

  app.post(
    '/Workflow/Instances',
    {
      config: {
        oplog: {
          action: 'workflow.start',
          resultObject: (r: { instanceId?: string } | undefined, req) => ({ type: 'workflow', id: r?.instanceId ?? '', name: (req.body as { title: string }).title }),
          object: (req) => ({ type: 'workflow', id: '', name: (req.body as { title: string }).title }),
          items: (req) => (req.body as { fileIds: string[] }).fileIds,
        },
      },
      schema: {
        tags,
        summary: '发起审批',
        description: `表单按流程的字段校验；附件须是可下载的文件（最多 workflowFileNumber 个），附加的是当时的版本。`,
        body: StartBodySchema,
        response: { 200: Envelope(StartedSchema) },
      },
    },
    async (req) => ok(await workflow.start(req.user(), req.body)),
  );

  app.get(
    '/Workflow/Instances',
    {
      schema: {
        tags,
        summary: '审批列表',
        description: 'box：todo 待我审批，done 我已审批，mine 我发起的，cc 抄送我的。',
        querystring: InstancesQuerySchema,
        response: { 200: Envelope(InstancePageSchema) },
      },
    },
    async (req) => ok(await workflow.list(req.user(), req.query)),
  );

  app.get(
    '/Workflow/Counts',
    { schema: { tags, summary: '各列表的数量', response: { 200: Envelope(CountsSchema) } } },
    async (req) => ok(await workflow.counts(req.user())),
  );

  app.get(
    '/Workflow/Instances/:id',
    {
      schema: {
        tags,
        summary: '审批详情',
        description: `表单、附件、每一步的审批人与状态、完整的操作记录，以及调用者现在能做的操作（can）。${hidden}`,
        params: InstanceParamsSchema,
        response: { 200: Envelope(InstanceDetailSchema) },
      },
    },
    async (req) => ok(await workflow.detail(req.user(), req.params.id)),
  );

  for (const action of ACTIONS) {
    app.post(
      `/Workflow/Instances/:id/${action.name}`,
      {
        config: {
          oplog: {
            action: 'workflow.act',
            object: (req) => requestObject((req.params as { id: string }).id),
            detail: () => ({ act: action.name, actName: action.summary }),
          },
        },
        schema: {
          tags,
          summary: action.summary,
          description: `${action.description}不允许时 HTTP 403（code 40301）；审批已结束时 HTTP 409（code 40901）。返回处理后的详情。${hidden}`,
          params: InstanceParamsSchema,
          body: ActionBodySchema,
          response: { 200: Envelope(InstanceDetailSchema) },
        },
      },
      async (req) => ok(await workflow.act(req.user(), req.params.id, action.name, req.body ?? {})),
    );
  }

  app.post(
    '/Workflow/Instances/:id/Remind',
    {
      config: { oplog: { action: 'workflow.remind', object: (req) => requestObject((req.params as { id: string }).id), detail: (req) => ({ comment: (req.body as { comment?: string } | undefined)?.comment }) } },
      schema: {
        tags,
        summary: '催办',
        description: `只有发起人可以催办，审批进行中时提醒当前待处理的审批人（消息中心），并在审批记录中留下一行；每位审批人一小时内最多催办一次。reminded 为本次提醒的人，later 为一小时内已提醒过的人及可再次催办的时间；都在一小时内时 HTTP 429（code 42901）。${hidden}`,
        params: InstanceParamsSchema,
        body: Type.Object({ comment: Type.Optional(Type.String({ maxLength: 200, description: '附言（选填）' })) }),
        response: {
          200: Envelope(Type.Object({ reminded: Type.Array(Type.String()), later: Type.Array(Type.Object({ name: Type.String(), at: Type.String({ description: 'yyyy-MM-dd HH:mm:ss' }) })) })),
        },
      },
    },
    async (req) => ok(await workflow.remind(req.user(), req.params.id, req.body?.comment ?? '')),
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/Workflow/Instances/:id/Files/:fileId',
    schema: {
      tags,
      summary: '查看审批的附件',
      description:
        '返回发起时附加的那个版本（不是 JSON）：图片、PDF、文本、音视频在浏览器中打开，其他类型下载。' +
        `审批进行中，能查看该审批的人都可以查看附件；结束后只有发起人和流程管理员可以（HTTP 403、code 40301）。可用 Cookie token 认证。${hidden}`,
      params: InstanceFileParamsSchema,
    },
    handler: async (req, reply) => sendContent(req, reply, await workflow.fileContent(req.user(), req.params.id, req.params.fileId)),
  });
};
