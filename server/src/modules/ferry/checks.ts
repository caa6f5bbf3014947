// The checks 云文档 runs on a ferry task's files before anyone approves it: each file's SHA-256,
// its real type (magic bytes) against the whitelist, size and count limits, the keyword list
// over its text, and ClamAV. Each check is switched on or off in the settings; a switched-off
// check, or antivirus without ClamAV, is recorded as skipped with the reason. A file that fails
// any check blocks the whole task.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { formatBytes } from '../../lib/bytes';
import type { Scanner } from './antivirus';
import { detectType, KNOWN_TYPES } from './filetype';
import type { FerryCheckResult, FerryKeywordHit, FerrySettings } from './schemas';
import { extractText, hasText } from './text';

export interface CheckInput {
  name: string;
  extension: string;
  size: number;
  /** the bytes (null for empty content) */
  file: string | null;
}

export interface CheckedFile {
  sha256: string;
  detectedType: string;
  checks: FerryCheckResult[];
  keywordHits: FerryKeywordHit[];
  blocked: boolean;
}

const CONTEXT = 40;

export async function sha256Of(file: string | null): Promise<string> {
  const hash = crypto.createHash('sha256');
  if (file) {
    await pipeline(fs.createReadStream(file), async function* (source) {
      for await (const chunk of source) hash.update(chunk as Buffer);
    });
  }
  return hash.digest('hex');
}

/** Every keyword's occurrences in the text (case-insensitive), with the text around the first. */
export function findKeywords(text: string, keywords: readonly string[]): FerryKeywordHit[] {
  if (!text) return [];
  const lower = text.toLowerCase();
  const hits: FerryKeywordHit[] = [];
  for (const keyword of keywords) {
    const k = keyword.toLowerCase();
    if (!k) continue;
    let at = lower.indexOf(k);
    if (at < 0) continue;
    const first = at;
    let count = 0;
    while (at >= 0) {
      count++;
      at = lower.indexOf(k, at + k.length);
    }
    const context = text
      .slice(Math.max(0, first - CONTEXT), first + k.length + CONTEXT)
      .replace(/\s+/g, ' ')
      .trim();
    hits.push({ keyword, count, context });
  }
  return hits;
}

const skipped = (name: FerryCheckResult['name'], message = '未开启'): FerryCheckResult => ({ name, result: 'skipped', message });

/** Checks one file (the per-task count and total size are checked by checkTask). */
async function checkFile(input: CheckInput, settings: FerrySettings, scanner: Scanner, antivirus: { engine: string; missing: string }): Promise<CheckedFile> {
  const [sha256, detectedType] = await Promise.all([sha256Of(input.file), detectType(input.file, input.extension)]);
  const checks: FerryCheckResult[] = [];
  const typeName = detectedType ? (KNOWN_TYPES[detectedType] ?? detectedType) : '无法识别';

  if (!settings.typeCheck) checks.push(skipped('type'));
  else if (detectedType && settings.allowedTypes.includes(detectedType)) checks.push({ name: 'type', result: 'passed', message: `实际类型为 ${detectedType}（${typeName}）` });
  else {
    const claimed = input.extension && input.extension.toLowerCase() !== detectedType ? `，与扩展名 .${input.extension} 不符` : '';
    checks.push({ name: 'type', result: 'failed', message: detectedType ? `实际类型为 ${detectedType}（${typeName}）${claimed}，不在允许的类型中` : `无法识别文件的实际类型，不在允许的类型中` });
  }

  if (!settings.sizeCheck) checks.push(skipped('size'));
  else if (input.size > settings.maxFileSize) checks.push({ name: 'size', result: 'failed', message: `文件大小 ${formatBytes(input.size)} 超过单个文件上限 ${formatBytes(settings.maxFileSize)}` });
  else checks.push({ name: 'size', result: 'passed', message: formatBytes(input.size) });

  let keywordHits: FerryKeywordHit[] = [];
  if (!settings.keywordCheck) checks.push(skipped('keyword'));
  else if (!hasText(detectedType)) checks.push(skipped('keyword', `无法读取 ${detectedType || '该类型'} 文件的文字，未检查`));
  else {
    keywordHits = findKeywords(await extractText(input.file, detectedType), settings.keywords);
    checks.push(
      keywordHits.length
        ? { name: 'keyword', result: 'failed', message: `包含敏感词：${keywordHits.map((h) => `${h.keyword}（${h.count} 处）`).join('、')}` }
        : { name: 'keyword', result: 'passed', message: '未发现敏感词' },
    );
  }

  if (!settings.antivirus) checks.push(skipped('antivirus'));
  else if (!antivirus.engine) checks.push(skipped('antivirus', `${antivirus.missing || '未安装 ClamAV'}，未查杀病毒`));
  else if (input.file === null) checks.push({ name: 'antivirus', result: 'passed', message: '空文件' });
  else {
    const scan = await scanner.scan(input.file);
    if (scan.verdict === 'clean') checks.push({ name: 'antivirus', result: 'passed', message: `${antivirus.engine} 未发现病毒` });
    else if (scan.verdict === 'infected') checks.push({ name: 'antivirus', result: 'failed', message: `发现病毒：${scan.detail}` });
    else checks.push({ name: 'antivirus', result: 'failed', message: `病毒查杀失败：${scan.detail}` });
  }
  return { sha256, detectedType, checks, keywordHits, blocked: checks.some((c) => c.result === 'failed') };
}

/** Checks every file of a task, then the task's count and total size (recorded on each file). */
export async function checkTask(inputs: readonly CheckInput[], settings: FerrySettings, scanner: Scanner): Promise<CheckedFile[]> {
  const antivirus = settings.antivirus ? { engine: await scanner.engine(), missing: await scanner.missing() } : { engine: '', missing: '' };
  const out: CheckedFile[] = [];
  for (const input of inputs) out.push(await checkFile(input, settings, scanner, antivirus));
  const total = inputs.reduce((sum, f) => sum + f.size, 0);
  const count: FerryCheckResult = !settings.countCheck
    ? skipped('count')
    : inputs.length > settings.maxFileCount
      ? { name: 'count', result: 'failed', message: `共 ${inputs.length} 个文件，超过每次摆渡上限 ${settings.maxFileCount} 个` }
      : { name: 'count', result: 'passed', message: `共 ${inputs.length} 个文件` };
  const totalFailed = settings.sizeCheck && total > settings.maxTotalSize;
  for (const f of out) {
    f.checks.splice(2, 0, count);
    if (totalFailed) {
      const size = f.checks.find((c) => c.name === 'size');
      if (size && size.result !== 'failed') {
        size.result = 'failed';
        size.message = `本次摆渡共 ${formatBytes(total)}，超过总大小上限 ${formatBytes(settings.maxTotalSize)}`;
      }
    }
    f.blocked = f.checks.some((c) => c.result === 'failed');
  }
  return out;
}
