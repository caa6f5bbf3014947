// 云文档 people administration calls: system administrators everywhere, department
// administrators within their subtrees (docs/integration.md, "Organisation administration").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import {
  ActionPageSchema,
  ActionsQuerySchema,
  AdminDepartmentNodeSchema,
  AdminUserPageSchema,
  AdminUserSchema,
  AdminUsersQuerySchema,
  CreateDepartmentBodySchema,
  CreateUserBodySchema,
  CreateUserResultSchema,
  DeletedResultSchema,
  DepartmentAdminsBodySchema,
  DepartmentSchema,
  DeptIdParamsSchema,
  EffectivePolicySchema,
  FeatureOverrideSchema,
  ResetPasswordBodySchema,
  ResetPasswordResultSchema,
  RevokeResultSchema,
  ScopeSchema,
  UpdateDepartmentBodySchema,
  UpdateUserBodySchema,
  UserIdParamsSchema,
  UserIdResultSchema,
  UserTotpBodySchema,
} from './schemas';
import { Type } from 'typebox';
import multipart from '@fastify/multipart';
import { badRequest } from '../../lib/errors';
import { assertSystemAdmin } from '../users/service';
import { contentDisposition } from '../downloads/http';
import { COLUMNS, MAX_ROWS } from './import';
import { readSheet, writeSheet } from './sheet';

export const peopleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const people = app.services.people;
  const tags = ['用户与部门管理'];
  const scoped = '系统管理员可管理全部；部门管理员只能管理其部门（含下级）中的人，且只能授予自己拥有的角色；其他用户得到 HTTP 403、code 40301。';
  const system = '仅系统管理员；其他用户得到 HTTP 403、code 40301。';

  const importer = app.services.peopleImport;
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024, files: 1, fields: 4, parts: 5 } });

  // refuse anyone who administers nothing before the body is looked at
  app.addHook('preValidation', async (req) => {
    if (req.routeOptions.url?.endsWith('/Admin/Actions')) return;
    await people.scope(req.user());
  });

  app.get('/Admin/Scope', { schema: { tags, summary: '我的管理范围', description: scoped, response: { 200: Envelope(ScopeSchema) } } }, async (req) =>
    ok(await people.scopeView(req.user())),
  );

  app.get(
    '/Admin/Users',
    {
      schema: {
        tags,
        summary: '用户列表',
        description: `按用户名排序，含已停用的用户；可按部门（默认含下级）、状态、角色、来源筛选，keyword 匹配用户名、昵称、工号、手机或邮箱。${scoped}`,
        querystring: AdminUsersQuerySchema,
        response: { 200: Envelope(AdminUserPageSchema) },
      },
    },
    async (req) => ok(await people.listUsers(req.user(), req.query)),
  );

  app.get(
    '/Admin/Users/:userId',
    { schema: { tags, summary: '用户详情', description: scoped, params: UserIdParamsSchema, response: { 200: Envelope(AdminUserSchema) } } },
    async (req) => ok(await people.getUser(req.user(), req.params.userId)),
  );

  app.post(
    '/Admin/Users',
    {
      schema: {
        tags,
        summary: '新建用户',
        description: `同时创建该用户的个人空间根目录；不给出密码时生成一个初始密码，只在本次返回，首次登录须修改。${scoped}`,
        body: CreateUserBodySchema,
        response: { 200: Envelope(CreateUserResultSchema) },
      },
    },
    async (req) => ok(await people.createUser(req.user(), req.body)),
  );

  app.put(
    '/Admin/Users/:userId',
    {
      schema: {
        tags,
        summary: '修改用户',
        description: `修改昵称、手机、邮箱、工号、部门、角色和配额，未给出的字段不变；配额只有系统管理员可以设置。${scoped}`,
        params: UserIdParamsSchema,
        body: UpdateUserBodySchema,
        response: { 200: Envelope(AdminUserSchema) },
      },
    },
    async (req) => ok(await people.updateUser(req.user(), req.params.userId, req.body)),
  );

  const action = (path: string, summary: string, description: string, run: (caller: Parameters<typeof people.disableUser>[0], id: string) => Promise<unknown>, result = UserIdResultSchema as any) =>
    app.post(path, { schema: { tags, summary, description: `${description}${scoped}`, params: UserIdParamsSchema, response: { 200: Envelope(result) } } }, async (req) =>
      ok(await run(req.user(), (req.params as { userId: string }).userId)),
    );
  action('/Admin/Users/:userId/Disable', '停用用户', '该账号不能再登录，它的全部会话、客户端令牌和未完成的登录步骤随即失效。', (c, id) => people.disableUser(c, id));
  action('/Admin/Users/:userId/Enable', '启用用户', '停用的反操作：该账号可以再次登录。', (c, id) => people.enableUser(c, id));
  action('/Admin/Users/:userId/Unlock', '解锁用户', '清除该账号的登录失败记录，被锁定的账号可以立即再次登录。', (c, id) => people.unlockUser(c, id));
  action('/Admin/Users/:userId/RevokeSessions', '撤销用户的全部会话', '之后这些会话返回 401。', (c, id) => people.revokeSessions(c, id), RevokeResultSchema);

  app.post(
    '/Admin/Users/:userId/ResetPassword',
    {
      schema: {
        tags,
        summary: '重置用户密码',
        description: `新密码须符合密码策略，不给出时生成一个，只在本次返回；该用户的全部会话随即失效；默认下次登录须修改密码。${scoped}`,
        params: UserIdParamsSchema,
        body: ResetPasswordBodySchema,
        response: { 200: Envelope(ResetPasswordResultSchema) },
      },
    },
    async (req) => ok(await people.resetPassword(req.user(), req.params.userId, req.body ?? {})),
  );

  app.put(
    '/Admin/Users/:userId/Totp',
    {
      schema: {
        tags,
        summary: '要求（或不再要求）用户使用动态口令',
        description: `密码策略要求所有人使用动态口令时，此项不起作用。${scoped}`,
        params: UserIdParamsSchema,
        body: UserTotpBodySchema,
        response: { 200: Envelope(AdminUserSchema) },
      },
    },
    async (req) => ok(await people.setUserTotp(req.user(), req.params.userId, req.body)),
  );

  app.delete(
    '/Admin/Users/:userId/Totp',
    {
      schema: {
        tags,
        summary: '重置用户的动态口令',
        description: `忘记已绑定的密钥（如手机丢失）；仍须使用动态口令时，下次登录重新绑定。${scoped}`,
        params: UserIdParamsSchema,
        response: { 200: Envelope(AdminUserSchema) },
      },
    },
    async (req) => ok(await people.resetUserTotp(req.user(), req.params.userId)),
  );

  app.get(
    '/Admin/Users/:userId/FeaturePolicy',
    {
      schema: { tags, summary: '用户的功能策略', description: `本人的设置，以及生效的值和来源（全局、部门或个人）。${system}`, params: UserIdParamsSchema, response: { 200: Envelope(EffectivePolicySchema) } },
    },
    async (req) => ok(await people.userPolicy(req.user(), req.params.userId)),
  );

  app.put(
    '/Admin/Users/:userId/FeaturePolicy',
    {
      schema: {
        tags,
        summary: '设置用户的功能策略',
        description: `每项为 true、false 或 null（沿用部门或全局设置）；个人设置优先于部门设置。${system}`,
        params: UserIdParamsSchema,
        body: FeatureOverrideSchema,
        response: { 200: Envelope(EffectivePolicySchema) },
      },
    },
    async (req) => ok(await people.setUserPolicy(req.user(), req.params.userId, req.body)),
  );

  app.get(
    '/Admin/Departments/Tree',
    {
      schema: {
        tags,
        summary: '部门树（管理）',
        description: `含负责人、部门管理员、直属人数、默认配额和功能策略；部门管理员只看到其管理的部门（含下级）。${scoped}`,
        response: { 200: Envelope(Type.Array(AdminDepartmentNodeSchema)) },
      },
    },
    async (req) => ok(await people.departmentTree(req.user())),
  );

  app.post(
    '/Admin/Departments',
    {
      schema: {
        tags,
        summary: '新建部门',
        description: `同一上级部门下名称不能重复（409、code 40901）。${scoped}`,
        body: CreateDepartmentBodySchema,
        response: { 200: Envelope(DepartmentSchema) },
      },
    },
    async (req) => ok(await people.createDepartment(req.user(), req.body)),
  );

  app.put(
    '/Admin/Departments/:id',
    {
      schema: {
        tags,
        summary: '修改部门',
        description: `重命名、移动（连同全部下级部门和人员；移到自身或下级部门中得到 400、code 40002）、设置负责人和默认配额（配额仅系统管理员）。${scoped}`,
        params: DeptIdParamsSchema,
        body: UpdateDepartmentBodySchema,
        response: { 200: Envelope(DepartmentSchema) },
      },
    },
    async (req) => ok(await people.updateDepartment(req.user(), req.params.id, req.body)),
  );

  app.delete(
    '/Admin/Departments/:id',
    {
      schema: {
        tags,
        summary: '删除部门',
        description: `部门下还有用户或下级部门时拒绝（409、code 40902）；根部门不能删除。${scoped}`,
        params: DeptIdParamsSchema,
        response: { 200: Envelope(DeletedResultSchema) },
      },
    },
    async (req) => ok(await people.deleteDepartment(req.user(), req.params.id)),
  );

  app.put(
    '/Admin/Departments/:id/Admins',
    {
      schema: {
        tags,
        summary: '设置部门管理员',
        description: `用给出的用户替换本部门的全部管理员；部门管理员管理本部门及下级部门中的人。${system}`,
        params: DeptIdParamsSchema,
        body: DepartmentAdminsBodySchema,
        response: { 200: Envelope(DeletedResultSchema) },
      },
    },
    async (req) => ok(await people.setDepartmentAdmins(req.user(), req.params.id, req.body)),
  );

  app.put(
    '/Admin/Departments/:id/FeaturePolicy',
    {
      schema: {
        tags,
        summary: '设置部门的功能策略',
        description: `每项为 true、false 或 null（沿用上级部门或全局设置）；向下级部门继承。${system}`,
        params: DeptIdParamsSchema,
        body: FeatureOverrideSchema,
        response: { 200: Envelope(DeletedResultSchema) },
      },
    },
    async (req) => ok(await people.setDepartmentPolicy(req.user(), req.params.id, req.body)),
  );

  const FormatQuery = Type.Object({ format: Type.Optional(Type.Union([Type.Literal('xlsx'), Type.Literal('csv')], { description: 'xlsx（默认）或 csv' })) });
  const sendSheet = (reply: import('fastify').FastifyReply, format: 'xlsx' | 'csv', base: string, rows: AsyncIterable<string[]> | Iterable<string[]>) => {
    reply.header('content-disposition', contentDisposition(`${base}.${format}`));
    reply.header('cache-control', 'private, no-cache');
    reply.type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    return reply.send(writeSheet(format, COLUMNS, rows));
  };

  app.get(
    '/Admin/Users/Import/Template',
    {
      schema: {
        tags,
        summary: '批量导入模板',
        description: `Excel（xlsx）或 CSV（UTF-8 带 BOM），列与导出相同：${COLUMNS.join('、')}；含一行示例。可用 Cookie token 认证。${system}`,
        querystring: FormatQuery,
      },
    },
    async (req, reply) => {
      assertSystemAdmin(req.user());
      return sendSheet(reply, req.query.format ?? 'xlsx', '用户导入模板', [['zhangsan', '张三', '总部/研发中心/前端组', 'E1001', '13800138000', 'zhangsan@example.com', '文档管理员', '20', '正常']]);
    },
  );

  app.get(
    '/Admin/Users/Export',
    {
      schema: {
        tags,
        summary: '导出用户',
        description: `按与用户列表相同的筛选条件导出，列与导入模板相同，导出的文件原样导入不产生变化。可用 Cookie token 认证。${scoped}`,
        querystring: Type.Object({ ...FormatQuery.properties, ...AdminUsersQuerySchema.properties }),
      },
    },
    async (req, reply) => {
      const { format, page: _page, pageSize: _pageSize, ...filter } = req.query;
      const pages = people.exportPages(req.user(), filter);
      // the filter is checked before the first byte is sent
      const iterator = pages[Symbol.asyncIterator]();
      const first = await iterator.next();
      async function* rows() {
        if (!first.done) yield first.value;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      }
      return sendSheet(reply, format ?? 'xlsx', '用户', importer.exportRows(rows()));
    },
  );

  app.post(
    '/Admin/Users/Import',
    {
      schema: {
        tags,
        summary: '检查批量导入文件',
        description: `multipart/form-data：字段 mode（upsert 追加和更新，默认；sync 全量同步：文件中没有的已启用用户将被停用，系统管理员和调用者本人除外）与文件字段 file（xlsx 或 UTF-8 CSV，不超过 20 MB、10,000 行）。逐行检查，返回每个错误行的行号和原因，以及新增、更新、停用、将新建的部门；不写入任何人员。空单元格表示不修改。${system}`,
      },
    },
    async (req) => {
      assertSystemAdmin(req.user());
      if (!req.isMultipart()) throw badRequest('请以 multipart/form-data 上传文件（字段 file）');
      const part = await req.file();
      if (!part || part.fieldname !== 'file') throw badRequest('缺少导入文件（表单字段 file）');
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch {
        throw badRequest('导入文件不能超过 20 MB');
      }
      if (part.file.truncated) throw badRequest('导入文件不能超过 20 MB');
      const modeField = part.fields.mode as { value?: unknown } | undefined;
      const mode = modeField?.value ?? (req.query as { mode?: string }).mode ?? 'upsert';
      if (mode !== 'upsert' && mode !== 'sync') throw badRequest('导入方式应为 upsert（追加和更新）或 sync（全量同步）');
      return ok(await importer.check(req.user(), await readSheet(bytes, part.filename ?? '', MAX_ROWS + 2), mode, part.filename ?? ''));
    },
  );

  app.post(
    '/Admin/Users/Import/:importId/Apply',
    {
      schema: {
        tags,
        summary: '应用批量导入',
        description: `再检查一次后写入；全量同步时 confirmDisable 须等于将停用的人数。新用户的初始密码只在本次返回，首次登录须修改。${system}`,
        params: Type.Object({ importId: Type.String({ pattern: '^[0-9a-f]{24}$' }) }),
        body: Type.Object({ confirmDisable: Type.Optional(Type.Integer({ minimum: 0, description: '确认停用的人数（全量同步）' })) }),
      },
    },
    async (req) => {
      assertSystemAdmin(req.user());
      return ok(await importer.apply(req.user(), req.params.importId, req.body?.confirmDisable ?? 0));
    },
  );

  app.get(
    '/Admin/Actions',
    {
      schema: {
        tags,
        summary: '管理日志',
        description: '系统管理员和部门管理员做过的管理操作，最新的在前；仅系统管理员和审计管理员可以查看。',
        querystring: ActionsQuerySchema,
        response: { 200: Envelope(ActionPageSchema) },
      },
    },
    async (req) => ok(await people.actions(req.user(), req.query)),
  );
};
