// The real type of a file for 云文档's ferry checks: by its content (magic bytes, through the
// `file-type` library), never by its name. A few containers need a second look: an OLE2 compound
// file is a .doc, .xls or .ppt (or an .msi) as its name says, a zip holding OFD.xml is an OFD
// document; content no signature matches is plain text when its first bytes decode as UTF-8 or
// GB18030 without control bytes.
import fs from 'node:fs';
import * as FileType from 'file-type';

/** The types the whitelist offers, with their Chinese names. */
export const KNOWN_TYPES: Record<string, string> = {
  pdf: 'PDF 文档',
  doc: 'Word 97-2003 文档',
  docx: 'Word 文档',
  xls: 'Excel 97-2003 工作簿',
  xlsx: 'Excel 工作簿',
  ppt: 'PowerPoint 97-2003 演示文稿',
  pptx: 'PowerPoint 演示文稿',
  odt: 'ODF 文本',
  ods: 'ODF 表格',
  odp: 'ODF 演示文稿',
  ofd: 'OFD 版式文档',
  rtf: 'RTF 文档',
  txt: '纯文本',
  xml: 'XML',
  png: 'PNG 图片',
  jpg: 'JPEG 图片',
  gif: 'GIF 图片',
  bmp: 'BMP 图片',
  webp: 'WebP 图片',
  tif: 'TIFF 图片',
  zip: 'ZIP 压缩包',
  rar: 'RAR 压缩包',
  '7z': '7z 压缩包',
  gz: 'gzip 压缩包',
  tar: 'tar 归档',
  mp4: 'MP4 视频',
  mov: 'QuickTime 视频',
  avi: 'AVI 视频',
  mp3: 'MP3 音频',
  wav: 'WAV 音频',
  exe: 'Windows 可执行程序',
  msi: 'Windows 安装包',
  elf: 'Linux 可执行程序',
  apk: 'Android 安装包',
  epub: 'EPUB 电子书',
  cfb: 'OLE 复合文档',
};

/** What a fresh installation lets through: documents, pictures, plain text and zip archives. */
export const DEFAULT_ALLOWED_TYPES = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'ofd', 'rtf', 'txt', 'xml', 'png', 'jpg', 'gif', 'bmp', 'webp', 'zip'];

const SNIFF_BYTES = 8192;

async function head(file: string, bytes: number): Promise<Buffer> {
  const fh = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** True when the bytes read as text: no NUL or other control bytes, valid UTF-8 or GB18030. */
export function looksLikeText(buf: Buffer): boolean {
  if (!buf.length) return true;
  for (const b of buf) if (b === 0 || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b)) return false;
  // a multi-byte character may be cut at the end of the sample: drop up to 3 trailing bytes
  for (let cut = 0; cut <= 3 && cut < buf.length; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, buf.length - cut));
      return true;
    } catch {
      /* try shorter */
    }
  }
  for (let cut = 0; cut <= 3 && cut < buf.length; cut++) {
    try {
      new TextDecoder('gb18030', { fatal: true }).decode(buf.subarray(0, buf.length - cut));
      return true;
    } catch {
      /* try shorter */
    }
  }
  return false;
}

/** Whether a zip's central directory names OFD.xml (an OFD document is a zip with it at the top). */
async function zipHasOfd(file: string): Promise<boolean> {
  const sample = await head(file, 64 * 1024);
  return sample.includes(Buffer.from('OFD.xml'));
}

/** The file's real type key ('' for empty or unknown content). `extension` is the name's, without the dot. */
export async function detectType(file: string | null, extension: string): Promise<string> {
  if (file === null) return 'txt';
  const found = await FileType.fromFile(file);
  const ext = extension.toLowerCase();
  if (!found) {
    const sample = await head(file, SNIFF_BYTES);
    if (!sample.length) return 'txt';
    if (sample.subarray(0, 5).toString('latin1') === '{\\rtf') return 'rtf';
    if (sample.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return 'elf';
    return looksLikeText(sample) ? 'txt' : '';
  }
  switch (found.ext) {
    case 'cfb':
      return ['doc', 'xls', 'ppt', 'msi'].includes(ext) ? ext : 'cfb';
    case 'zip':
      return (await zipHasOfd(file)) ? 'ofd' : 'zip';
    case 'jpg':
      return 'jpg';
    case 'tif':
      return 'tif';
    case 'exe':
      return 'exe';
    default:
      return found.ext;
  }
}
