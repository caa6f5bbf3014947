// 云文档 file and folder calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { fileActions } from './service';
import {
  ActionsQuerySchema,
  CreateFileBodySchema,
  DeleteResultSchema,
  FileActionsSchema,
  FolderItemsSchema,
  IdListSchema,
  IdParamsSchema,
  ItemSchema,
  ItemsParamsSchema,
  ItemsQuerySchema,
  OperationBodySchema,
  OperationResultSchema,
  RenameQuerySchema,
  FolderSizeSchema,
  SetSortQuerySchema,
  ShortcutBodySchema,
  TreeNodeSchema,
} from './schemas';

export const foldersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const folders = app.services.folders;
  const { shortcuts, arrange } = app.services;

  app.post(
    '/User/Folders/Shortcuts',
    {
      schema: {
        tags: ['文件'],
        summary: '新建快捷方式',
        description:
          '以指向的项命名（重名时加（n））；需要对指向的项有预览权限、对所在文件夹有上传/编辑权限。' +
          '不能指向快捷方式或根目录；不能放在其指向的文件夹或其子文件夹中（HTTP 400、code 40002）；企业空间中不能指向个人空间的项。',
        body: ShortcutBodySchema,
        response: { 200: Envelope(ItemSchema) },
      },
    },
    async (req) => ok(await shortcuts.create(req.user(), req.body)),
  );

  app.post(
    '/User/Folders/SetSort',
    {
      schema: {
        tags: ['文件'],
        summary: '手动排序：把一项放在同级的另一项之前或之后',
        description: '文件夹只能排在文件夹之间，文件只能排在文件之间（文件夹总在前面）；需要对所在文件夹有上传/编辑权限。',
        querystring: SetSortQuerySchema,
        response: { 200: Envelope(ItemSchema) },
      },
    },
    async (req) => ok(await arrange.setSort(req.user(), req.query)),
  );

  app.post(
    '/User/Folders/:id/SizeCalc',
    {
      schema: {
        tags: ['文件'],
        summary: '计算文件夹大小',
        description: '文件夹下所有未删除的文件与子文件夹；快捷方式既不计入也不跟随。',
        params: IdParamsSchema,
        response: { 200: Envelope(FolderSizeSchema) },
      },
    },
    async (req) => ok(await arrange.sizeCalc(req.user(), req.params.id)),
  );

  app.get(
    '/User/Folders/Personal/RootFolders',
    { schema: { tags: ['文件'], summary: '个人空间根目录', response: { 200: Envelope(Type.Array(ItemSchema)) } } },
    async (req) => ok(await folders.personalRoots(req.user())),
  );

  app.get(
    '/User/Folders/Public/RootFolders',
    { schema: { tags: ['文件'], summary: '企业空间根目录', response: { 200: Envelope(Type.Array(ItemSchema)) } } },
    async (req) => ok(await folders.publicRoots(req.user())),
  );

  app.get(
    '/User/Folders/:parentId/Items',
    {
      schema: {
        tags: ['文件'],
        summary: '文件夹内容（分页、排序、按名称筛选，文件夹在前）',
        description: '带 shareId 时按“与我共享”的分享访问：权限为分享的权限，路径从分享的文件夹开始。',
        params: ItemsParamsSchema,
        querystring: ItemsQuerySchema,
        response: { 200: Envelope(FolderItemsSchema) },
      },
    },
    async (req) => {
      const { shareId, ...query } = req.query;
      if (!shareId) return ok(await folders.listItems(req.user(), req.params.parentId, query));
      const shares = app.services.shares;
      const scope = await shares.open(shareId, { user: req.user(), address: req.ip });
      const listed = await shares.items(scope, req.params.parentId, query);
      if (listed.folder.parentId === null) await shares.record(scope, 'visit', null);
      return ok(listed);
    },
  );

  app.post(
    '/User/Files/CreateFile',
    {
      config: { oplog: { action: 'file.create', resultItems: (r: { id?: string } | undefined) => r?.id } },
      schema: {
        tags: ['文件'],
        summary: '新建文件夹或空文件',
        body: CreateFileBodySchema,
        response: { 200: Envelope(ItemSchema) },
      },
    },
    async (req) => ok(await folders.createFile(req.user(), req.body)),
  );
  // the spec's paths (…/PersonalRoot/FolderTree, …/PublicRoot/FolderTree), and the earlier ones as aliases
  for (const [space, paths, summary] of [
    ['personal', ['/User/Folders/PersonalRoot/FolderTree', '/User/Folders/Personal/FolderTree'], '个人空间文件夹树：根目录及其子文件夹'],
    ['public', ['/User/Folders/PublicRoot/FolderTree', '/User/Folders/Public/FolderTree'], '企业空间文件夹树：根目录及其子文件夹'],
  ] as const) {
    paths.forEach((url, i) =>
      app.get(
        url,
        {
          schema: {
            tags: ['文件'],
            summary,
            ...(i > 0 ? { description: `与 ${paths[0]} 相同（旧路径，保留兼容）。` } : {}),
            response: { 200: Envelope(Type.Array(TreeNodeSchema)) },
          },
        },
        async (req) => ok(await folders.folderTree(req.user(), space)),
      ),
    );
  }

  app.get(
    '/User/Folders/:id/TreeNodes',
    {
      schema: {
        tags: ['文件'],
        summary: '子文件夹（文件夹树的一层）',
        params: IdParamsSchema,
        response: { 200: Envelope(Type.Array(TreeNodeSchema)) },
      },
    },
    async (req) => ok(await folders.treeNodes(req.user(), req.params.id)),
  );

  app.get(
    '/User/Files/Actions',
    {
      // depends on the type alone: an external share's visitor (no session) asks it too
      config: { public: true },
      schema: {
        tags: ['文件'],
        summary: '某类文件可用的操作（能否预览、编辑）',
        description: '只取决于扩展名，不需要登录（外链分享的访客预览前也要询问）。',
        querystring: ActionsQuerySchema,
        response: { 200: Envelope(FileActionsSchema) },
      },
    },
    async (req) => ok(fileActions(req.query.extension)),
  );

  app.get(
    '/User/Files/:id',
    { schema: { tags: ['文件'], summary: '文件或文件夹详情', params: IdParamsSchema, response: { 200: Envelope(ItemSchema) } } },
    async (req) => ok(await folders.getItem(req.user(), req.params.id)),
  );

  app.put(
    '/User/Files/Rename/:id',
    {
      config: { davLock: (req) => ({ items: (req.params as { id: string }).id }), oplog: { action: 'file.rename', items: (req) => (req.params as { id: string }).id, detail: (req) => ({ newName: (req.query as { fileName: string }).fileName }) } },
      schema: {
        tags: ['文件'],
        summary: '重命名（子项的路径随之更新）',
        description: '同名（不区分大小写）返回 HTTP 409、code 40901；根目录不能重命名。',
        params: IdParamsSchema,
        querystring: RenameQuerySchema,
        response: { 200: Envelope(ItemSchema) },
      },
    },
    async (req) => ok(await folders.rename(req.user(), req.params.id, req.query.fileName)),
  );

  app.delete(
    '/User/Files',
    {
      config: { davLock: (req) => ({ items: req.body as string[] }), oplog: { action: 'file.delete', items: (req) => req.body as string[] } },
      schema: {
        tags: ['文件'],
        summary: '删除到回收站（全部成功或全部不做）',
        description: '任一项不可见返回 404，无权删除返回 HTTP 403、code 40301，此时什么都不会删除。',
        body: IdListSchema,
        response: { 200: Envelope(DeleteResultSchema) },
      },
    },
    async (req) => ok(await folders.deleteItems(req.user(), req.body)),
  );

  for (const [path, mode, summary] of [
    ['/User/Files/Move', 'move', '移动'],
    ['/User/Files/Copy', 'copy', '复制'],
  ] as const) {
    app.post(
      path,
      {
        config: {
          // a move takes the items from where they are; both put members into the target
          davLock: (req) => {
            const body = req.body as { ids: string[]; targetId: string };
            return { items: mode === 'move' ? body.ids : [], into: body.targetId };
          },
          oplog: {
            action: mode === 'move' ? 'file.move' : 'file.copy',
            items: (req) => (req.body as { ids: string[] }).ids,
            detail: (req) => ({ targetId: (req.body as { targetId: string }).targetId, strategy: (req.body as { strategy?: number | null }).strategy ?? null }),
          },
        },
        schema: {
          tags: ['文件'],
          summary: `${summary}文件或文件夹`,
          description:
            '目标文件夹中有同名项且未给出 strategy 时什么都不做，返回 conflictType 1 与可选策略；' +
            '策略 0 新版本（文件与同名文件：内容成为已有文件的新主版本），1 覆盖（原有项进入回收站），2 重命名，3 跳过。' +
            '将文件夹移动或复制到其自身或子文件夹中返回 HTTP 400、code 40002。',
          body: OperationBodySchema,
          response: { 200: Envelope(OperationResultSchema) },
        },
      },
      async (req) => ok(await folders.transfer(req.user(), req.body, mode)),
    );
  }
};
