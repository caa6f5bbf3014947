// The 云文档 API envelope: every /api reply is `{ code, result, message }`. This plugin turns
// every failure into that shape with a Chinese message (never Fastify's English text, a
// stack, SQL or a path) and answers unknown /api routes with a 404 envelope.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, MESSAGES } from '../lib/errors';
import { isOutOfSpace, STORAGE_FULL_MESSAGE } from '../lib/disk-space';
import { globalPlugin } from '../lib/plugin';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const TYPE_NAMES: Record<string, string> = {
  string: '字符串',
  integer: '整数',
  number: '数字',
  boolean: '布尔值',
  object: '对象',
  array: '数组',
  null: '空值',
};

const PART_NAMES: Record<string, string> = {
  body: '请求内容',
  querystring: '查询参数',
  params: '路径参数',
  headers: '请求头',
};

function joinField(instancePath: string, child?: unknown): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (typeof child === 'string' && child) parts.push(child);
  return parts.join('.');
}

/** A Chinese sentence naming the field for the first validation error. */
export function validationMessage(errors: readonly AjvError[], context: string | undefined): string {
  const e = errors[0];
  if (!e) return '请求参数不正确';
  const part = PART_NAMES[context ?? ''] ?? '请求';
  const p = e.params ?? {};
  const field = joinField(e.instancePath, e.keyword === 'required' ? p.missingProperty : e.keyword === 'additionalProperties' ? p.additionalProperty : undefined);
  const subject = field ? `参数 ${field} ` : part;
  switch (e.keyword) {
    case 'required':
      return `缺少必填参数 ${field}`;
    case 'additionalProperties':
      return `不支持的参数 ${field}`;
    case 'type': {
      const expected = String(p.type ?? '')
        .split(',')
        .map((t) => TYPE_NAMES[t] ?? t)
        .join('或');
      return `${subject}的类型不正确，应为${expected}`;
    }
    case 'minLength':
      return Number(p.limit) <= 1 ? `${subject}不能为空` : `${subject}的长度不能少于 ${String(p.limit)} 个字符`;
    case 'maxLength':
      return `${subject}的长度不能超过 ${String(p.limit)} 个字符`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${subject}不能小于 ${String(p.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `${subject}不能大于 ${String(p.limit)}`;
    case 'minItems':
      return `${subject}至少需要 ${String(p.limit)} 项`;
    case 'maxItems':
      return `${subject}最多 ${String(p.limit)} 项`;
    case 'pattern':
    case 'format':
      return `${subject}的格式不正确`;
    case 'enum':
    case 'const':
    case 'anyOf':
    case 'oneOf':
      return `${subject}的取值不在允许范围内`;
    default:
      return `${subject}不合法`;
  }
}

function send(reply: FastifyReply, status: number, code: number, message: string, headers: Record<string, string> = {}) {
  return reply
    .code(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send({ code, result: null, message });
}

export function sendApiNotFound(reply: FastifyReply) {
  return send(reply, 404, 404, MESSAGES.routeNotFound, { 'cache-control': 'no-store' });
}

const FRAMEWORK_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: [40001, '请求内容不能为空'],
  FST_ERR_CTP_INVALID_JSON_BODY: [40001, '请求内容不是合法的 JSON'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, '不支持的请求内容类型，请使用 application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, '请求内容过大'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [40001, '请求内容长度不正确'],
};

export function apiErrorHandler(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) return send(reply, error.statusCode, error.code, error.message, error.headers);
  const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation) return send(reply, 400, 40001, validationMessage(fe.validation, fe.validationContext));
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const known = fe.code ? FRAMEWORK_MESSAGES[fe.code] : undefined;
    if (known) return send(reply, status, known[0], known[1]);
    if (error instanceof SyntaxError || status === 400) return send(reply, 400, 40001, '请求参数不正确');
    if (status === 404) return sendApiNotFound(reply);
    return send(reply, status, status, '请求无法处理，请检查后重试');
  }
  if (isOutOfSpace(error)) {
    request.log.error({ err: error }, '云文档存储空间不足');
    return send(reply, 507, 50701, STORAGE_FULL_MESSAGE);
  }
  request.log.error({ err: error }, '云文档 API 未处理的错误');
  return send(reply, 500, 500, MESSAGES.internal);
}

/** Installs the envelope error and not-found handlers on the /api context that registers it. */
export const envelopePlugin = globalPlugin('yunwendang-envelope', async (app) => {
  app.setErrorHandler(apiErrorHandler);
  app.setNotFoundHandler((_req, reply) => sendApiNotFound(reply));
  // session data must not be kept by caches
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
});
