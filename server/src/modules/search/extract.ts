// The text of a file for 云文档's full-text search (docs/integration.md, "Search"): plain text
// and source code (UTF-8 or GB18030), docx, xlsx, pptx and ODF (their XML parts, through the
// ferry's reader), and PDF (pdf.js in a worker thread, stopped after PDF_TIMEOUT_MS). At most
// TEXT_LIMIT characters are kept; sources over SOURCE_LIMIT bytes are not read.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { TEXT_EXTENSIONS } from '../../lib/text-types';
import { looksLikeText } from '../ferry/filetype';
import { extractText as officeText } from '../ferry/text';

/** Characters of text kept per file (the rest is not searchable). */
export const TEXT_LIMIT = 1_000_000;
/** Files larger than this are not read (recorded as skipped). */
export const SOURCE_LIMIT = 100 * 1024 * 1024;
const PDF_TIMEOUT_MS = 60_000;

const PLAIN = TEXT_EXTENSIONS;
const OFFICE = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp']);

/** Whether full-text search reads files of this extension. */
export function searchable(extension: string): boolean {
  return PLAIN.has(extension) || OFFICE.has(extension) || extension === 'pdf';
}

export interface Extracted {
  text: string;
  truncated: boolean;
}

/**
 * The text of bytes: UTF-8 (possibly cut inside a character at the end, which is dropped, as is
 * a byte-order mark), else GB18030 (which covers GBK and GB2312).
 */
export function decodeText(buf: Buffer): { text: string; encoding: 'utf-8' | 'gb18030' } {
  for (let cut = 0; cut <= 3 && cut < buf.length; cut++) {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, buf.length - cut)), encoding: 'utf-8' };
    } catch {
      /* try shorter */
    }
  }
  if (!buf.length) return { text: '', encoding: 'utf-8' };
  return { text: new TextDecoder('gb18030').decode(buf), encoding: 'gb18030' };
}

async function plainText(file: string): Promise<string> {
  const fh = await fs.promises.open(file, 'r');
  try {
    // a character is at most 4 bytes of UTF-8 (GB18030: 4 too)
    const buf = Buffer.alloc(Math.min((await fh.stat()).size, TEXT_LIMIT * 4 + 4));
    await fh.read(buf, 0, buf.length, 0);
    if (!looksLikeText(buf.subarray(0, 8192))) throw new Error('不是文本文件');
    return decodeText(buf).text;
  } finally {
    await fh.close();
  }
}

/** pdfjs-dist's own folder (its CMaps and standard fonts). */
function pdfAssets(): string {
  return path.dirname(require.resolve('pdfjs-dist/package.json'));
}

function pdfText(file: string): Promise<string> {
  // the worker is plain JavaScript next to src/ and dist/: server/workers
  const script = path.join(__dirname, '..', '..', '..', 'workers', 'pdf-text.mjs');
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: { file, limit: TEXT_LIMIT + 1, assets: pdfAssets() }, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error('解析超时'));
    }, PDF_TIMEOUT_MS);
    worker.once('message', (m: { text?: string; error?: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (typeof m.text === 'string') resolve(m.text);
      else reject(new Error(m.error || 'PDF 解析失败'));
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PDF 解析进程退出（${code}）`));
    });
  });
}

/** The searchable text of a file on disk (its extension says how to read it). */
export async function extractForSearch(file: string, extension: string): Promise<Extracted> {
  let text: string;
  if (PLAIN.has(extension)) text = await plainText(file);
  else if (OFFICE.has(extension)) text = await officeText(file, extension);
  else if (extension === 'pdf') text = await pdfText(file);
  else text = '';
  // PostgreSQL text cannot hold NUL; runs of blanks say nothing
  text = text.replace(/\u0000/g, '').replace(/[ \t\f\v\u00a0\u3000]+/g, ' ').replace(/\s*\n[\s\n]*/g, '\n');
  const chars = [...text];
  const truncated = chars.length > TEXT_LIMIT;
  return { text: truncated ? chars.slice(0, TEXT_LIMIT).join('') : text, truncated };
}
