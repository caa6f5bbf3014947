// TypeBox helpers shared by the 云文档 route schemas (they also generate /api/docs).
import { Type, type TSchema } from 'typebox';
import { ID_PATTERN } from './ids';

/** `{ code, result, message }`: every /api reply. */
export function Envelope<T extends TSchema>(result: T) {
  return Type.Object({
    code: Type.Integer({ description: '200 表示成功，其余为错误码' }),
    result,
    message: Type.Union([Type.String(), Type.Null()]),
  });
}

/** A numeric-string id. */
export const IdString = (description?: string) =>
  Type.String({ pattern: ID_PATTERN, ...(description ? { description } : {}) });

export function ok<T>(result: T) {
  return { code: 200, result, message: null };
}

/** `T` or null. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
