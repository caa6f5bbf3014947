// 云文档 personal space use and quota (spec section 7), and the data volume's state for administrators.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { formatBytes } from '../../lib/bytes';
import { Envelope, ok } from '../../lib/schema';
import { assertSystemAdmin } from '../users/service';
import { DiskStatusSchema, PersonalPolicySchema, PersonalUsageSchema, QuotaOverviewSchema } from './schemas';

/** How often the data volume's room is checked for the log. */
const DISK_WATCH_INTERVAL_MS = 10 * 60 * 1000;

export const quotaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const quota = app.services.quota;
  const tags = ['文件'];

  app.get(
    '/Account/PersonalRootUsed',
    { schema: { tags, summary: '个人空间用量', description: '文件（含回收站）占用的字节数，以及未完成的上传预留的字节数。', response: { 200: Envelope(PersonalUsageSchema) } } },
    async (req) => ok(await quota.usage(req.user())),
  );

  app.get(
    '/Account/PersonalRootPolicy',
    { schema: { tags, summary: '个人空间容量策略', description: 'quota 为 0 表示不限。', response: { 200: Envelope(PersonalPolicySchema) } } },
    async (req) => ok(await quota.policy(req.user())),
  );

  app.get(
    '/Admin/DiskSpace',
    {
      schema: {
        tags: ['管理'],
        summary: '存储空间',
        description: '数据目录所在卷的空间。可用空间低于 DISK_WARN_PERCENT 或保留空间的两倍时 level 为 low；到达保留空间（UPLOAD_MIN_FREE_MB）时为 full，新的上传被拒绝（HTTP 507）。仅系统管理员。',
        response: { 200: Envelope(DiskStatusSchema) },
      },
    },
    async (req) => {
      assertSystemAdmin(req.user());
      return ok(await quota.diskStatus());
    },
  );

  app.get(
    '/Admin/Quota/Overview',
    {
      schema: {
        tags: ['管理'],
        summary: '空间与配额概况',
        description: '各空间的总占用、回收站、上传中、去重节省，占用最多的 10 个用户和 10 个一级文件夹。仅系统管理员。',
        response: { 200: Envelope(QuotaOverviewSchema) },
      },
    },
    async (req) => ok(await quota.overview(req.user())),
  );

  // the server's log says it too, at start and every 10 minutes while the volume is short of room
  let timer: NodeJS.Timeout | null = null;
  const watch = async () => {
    try {
      const status = await quota.diskStatus();
      if (status.level === 'ok') return;
      const free = `${formatBytes(status.free)}（共 ${formatBytes(status.total)}，保留 ${formatBytes(status.minFree)}）`;
      if (status.level === 'full') app.log.error(`云文档数据目录所在磁盘已满：仅剩 ${free}，新的上传被拒绝`);
      else app.log.warn(`云文档数据目录所在磁盘空间不足：仅剩 ${free}`);
    } catch (err) {
      app.log.warn({ err }, '云文档无法读取数据目录所在磁盘的空间');
    }
  };
  app.addHook('onReady', async () => {
    await watch();
    timer = setInterval(() => void watch(), DISK_WATCH_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
  });
};
