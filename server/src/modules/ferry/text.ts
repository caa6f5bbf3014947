// The text of a file for 云文档's keyword (敏感词) check: plain text (UTF-8 or GB18030), and the
// text of Office Open XML documents (docx, xlsx, pptx) and ODF documents read from their XML
// parts inside the zip. Other types yield no text (PDF and images are not read: the check says
// so). At most TEXT_LIMIT characters are read, so a huge file cannot exhaust memory.
import fs from 'node:fs';
import yauzl from 'yauzl';
import { looksLikeText } from './filetype';

export const TEXT_LIMIT = 20 * 1024 * 1024;
const PLAIN = new Set(['txt', 'xml', 'rtf']);
const ZIPPED: Record<string, RegExp> = {
  docx: /^word\/(document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml$/,
  xlsx: /^xl\/(sharedStrings\.xml|worksheets\/sheet\d+\.xml)$/,
  pptx: /^ppt\/(slides\/slide\d+|notesSlides\/notesSlide\d+)\.xml$/,
  odt: /^content\.xml$/,
  ods: /^content\.xml$/,
  odp: /^content\.xml$/,
};

/** Whether extractText reads this type. */
export function hasText(type: string): boolean {
  return PLAIN.has(type) || type in ZIPPED;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of an XML part: paragraphs and cells on their own lines, tags removed, entities decoded. */
export function xmlText(xml: string): string {
  return xml
    .replace(/<\/(w:p|a:p|text:p|text:h|si|c|row|table:table-cell)>/g, '\n')
    .replace(/<(w:tab|w:br|text:tab|text:line-break)\b[^>]*\/>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
      e.startsWith('#x') ? String.fromCodePoint(parseInt(e.slice(2), 16)) : e.startsWith('#') ? String.fromCodePoint(Number(e.slice(1))) : ENTITIES[e],
    );
}

async function plainText(file: string): Promise<string> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min((await fh.stat()).size, TEXT_LIMIT));
    await fh.read(buf, 0, buf.length, 0);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      return looksLikeText(buf.subarray(0, 8192)) ? new TextDecoder('gb18030').decode(buf) : new TextDecoder('utf-8').decode(buf);
    }
  } finally {
    await fh.close();
  }
}

function zippedText(file: string, wanted: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('zip'));
      const parts: string[] = [];
      let length = 0;
      const finish = () => {
        zip.close();
        resolve(parts.join('\n'));
      };
      zip.on('error', reject);
      zip.on('end', finish);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!wanted.test(entry.fileName) || length >= TEXT_LIMIT) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('entry'));
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (c: Buffer) => {
            if (size < TEXT_LIMIT * 4) chunks.push(c);
            size += c.length;
          });
          stream.on('error', reject);
          stream.on('end', () => {
            const text = xmlText(Buffer.concat(chunks).toString('utf8'));
            parts.push(text);
            length += text.length;
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The file's text ('' when its type has none), at most TEXT_LIMIT characters. */
export async function extractText(file: string | null, type: string): Promise<string> {
  if (file === null) return '';
  let text = '';
  if (PLAIN.has(type)) text = await plainText(file);
  else if (type in ZIPPED) text = await zippedText(file, ZIPPED[type]);
  return text.length > TEXT_LIMIT ? text.slice(0, TEXT_LIMIT) : text;
}
