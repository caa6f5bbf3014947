// 云文档 离职交接 calls: what a leaver holds, and the handover to a successor in one step
// (system administrators; department administrators for a leaver and a successor both in
// their subtrees).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, IdString, Nullable, ok } from '../../lib/schema';
import { UserIdParamsSchema } from './schemas';

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const FilesSchema = Type.Object({ count: Count('文件和文件夹的个数'), bytes: Count('文件的字节数') });
const PostsSchema = (description: string) =>
  Type.Array(Type.Object({ id: IdString(), name: Type.String({ description: '部门的完整路径，如“总部/研发中心”' }) }), { description });

const PreviewSchema = Type.Object({
  userId: IdString(),
  userName: Type.String(),
  nickName: Type.String(),
  disabled: Type.Boolean(),
  leftAt: Nullable(Type.Integer({ description: '办理离职交接的时间（毫秒）；未办理为 null' })),
  files: FilesSchema,
  pendingTasks: Count('等待此人审批的任务数'),
  runningFlows: Count('此人发起、仍在审批中的流程数'),
  shares: Type.Object({ count: Count('仍然有效的分享数') }),
  ferryTasks: Type.Object({ count: Count('尚未完成的摆渡任务数（检查中、审批中、已批准、传输中）') }),
  leaderOf: PostsSchema('此人担任负责人的部门（按完整路径排序）'),
  adminOf: PostsSchema('此人担任部门管理员的部门（按完整路径排序）'),
});

const BodySchema = Type.Object({
  successorId: Type.String({ minLength: 1, maxLength: 32, description: '接任者的用户 id' }),
  shares: Type.Union([Type.Literal('keep'), Type.Literal('cancel')], { description: 'keep：分享转给接任者，链接继续有效；cancel：全部取消分享' }),
});

const ResultSchema = Type.Object({
  userId: IdString(),
  successorId: IdString(),
  leftAt: Type.Integer(),
  folder: Nullable(Type.Object({ id: IdString(), name: Type.String() }, { description: '接任者个人空间中存放交接文件的文件夹；没有文件时为 null' })),
  files: FilesSchema,
  pendingTasks: Count('转交给接任者的待审批任务数'),
  runningFlows: Count('改由接任者跟进的流程数'),
  shares: Type.Object({ mode: Type.Union([Type.Literal('keep'), Type.Literal('cancel')]), count: Count('转给接任者或取消的分享数') }),
  ferryTasks: Type.Object({ count: Count('转给接任者的摆渡任务数') }),
  leaderOf: PostsSchema('改由接任者担任负责人的部门'),
  adminOf: PostsSchema('改由接任者担任部门管理员的部门'),
});

export const leaverRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const leavers = app.services.leavers;
  const tags = ['用户与部门管理'];
  const scoped =
    '系统管理员可为任何人办理；部门管理员只能在离职者和接任者都在其管理的部门（含下级）中时办理；其他用户得到 HTTP 403、code 40301。';

  // refuse anyone who administers nothing before the body is looked at
  app.addHook('preValidation', async (req) => {
    await app.services.people.scope(req.user());
  });

  app.get(
    '/Admin/Users/:userId/Handover',
    {
      schema: {
        tags,
        summary: '离职交接预览',
        description: `此人持有的内容：个人空间中的文件和文件夹（不含回收站）、待其审批的任务、其发起且仍在审批中的流程、仍然有效的分享、尚未完成的摆渡任务，以及其担任负责人的部门和担任部门管理员的部门（完整路径）。${scoped}`,
        params: UserIdParamsSchema,
        response: { 200: Envelope(PreviewSchema) },
      },
    },
    async (req) => ok(await leavers.preview(req.user(), req.params.userId)),
  );

  app.post(
    '/Admin/Users/:userId/Handover',
    {
      schema: {
        tags,
        summary: '办理离职交接',
        description:
          '先停用账号（全部会话、客户端令牌和授权随即失效），再在一个事务中：把个人空间的全部内容（含回收站）移入接任者个人空间根目录下新建的文件夹“离职交接-<昵称>-<YYYYMMDD>”' +
          '（同名时加“ (2)”等后缀；所有权归接任者；这是管理操作，不检查接任者的配额，但这些文件此后计入接任者的用量）；' +
          '待其审批的任务以“转交”方式交给接任者（审批记录中可见），其在后续步骤中的审批人身份也由接任者接替；' +
          '其发起的进行中流程的发起人改为接任者（“我发起的”、撤销），并在审批记录中留言；' +
          '分享按 shares 保留（所有者改为接任者，链接继续有效）或全部取消；未完成的摆渡任务的申请人改为接任者（摆渡审计中留有记录）；' +
          '其担任负责人的部门改由接任者担任负责人，其担任管理员的部门由接任者担任管理员（接任者已是管理员的不重复添加），离职者不再担任任何部门的负责人或管理员；' +
          '账号标记为离职并保留，历史记录仍显示此人；记入管理日志。' +
          '接任者不存在、已停用、已离职或就是离职者本人，或为自己办理，得到 400；已办理过得到 409。' +
          '部门管理员为担任部门管理员的人，或为担任负责人的部门不在其管理范围内的人办理，得到 403、code 40301（账号不会被停用）。' +
          '若在停用之后失败，账号保持停用，可再次办理。' +
          scoped,
        params: UserIdParamsSchema,
        body: BodySchema,
        response: { 200: Envelope(ResultSchema) },
      },
    },
    async (req) => ok(await leavers.handOver(req.user(), req.params.userId, req.body)),
  );
};
