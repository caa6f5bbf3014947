// 云文档 离职交接 calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const leaverRoutes: FastifyPluginAsyncTypebox = async () => {};
