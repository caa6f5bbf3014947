// The one file of a small multipart upload (a picture), read whole: 400 with the caller's
// words when the request is not multipart, has no `file` field, or is over the size limit
// the multipart plugin was registered with.
import type { FastifyRequest } from 'fastify';
import { badRequest } from './errors';

export interface PartTexts {
  /** e.g. 请以 multipart/form-data 上传头像（字段 file） */
  notMultipart: string;
  /** e.g. 缺少头像图片（表单字段 file） */
  missing: string;
  /** e.g. 头像图片不能超过 5 MB */
  tooLarge: string;
}

export async function readFilePart(req: FastifyRequest, texts: PartTexts): Promise<Buffer> {
  if (!req.isMultipart()) throw badRequest(texts.notMultipart);
  const part = await req.file();
  if (!part || part.fieldname !== 'file') throw badRequest(texts.missing);
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch {
    throw badRequest(texts.tooLarge);
  }
  if (part.file.truncated) throw badRequest(texts.tooLarge);
  return bytes;
}
