// File-type groups of spec section 9: the icon of a file is chosen by its extension.
export type FileTypeGroup =
  | 'folder' | 'archive' | 'document' | 'spreadsheet' | 'presentation' | 'video' | 'audio'
  | 'image' | 'code' | 'pdf' | 'exe' | 'iso' | 'eml' | 'epub' | 'md' | 'ofd' | 'default';

const GROUP_EXTENSIONS: Record<Exclude<FileTypeGroup, 'folder' | 'default'>, string[]> = {
  archive: ['zip', 'rar', '7z', 'tar', 'gz', 'tgz', 'bz2', 'xz', 'z', 'cab', 'jar', 'war'],
  document: ['doc', 'docx', 'dot', 'dotx', 'docm', 'wps', 'wpt', 'odt', 'rtf', 'txt', 'log'],
  spreadsheet: ['xls', 'xlsx', 'xlsm', 'xlt', 'xltx', 'et', 'ett', 'ods', 'csv'],
  presentation: ['ppt', 'pptx', 'pptm', 'pps', 'ppsx', 'pot', 'potx', 'dps', 'dpt', 'odp', 'key'],
  video: ['mp4', 'avi', 'mov', 'wmv', 'mkv', 'flv', 'webm', 'm4v', 'mpg', 'mpeg', '3gp', 'rmvb', 'rm', 'm2ts'],
  audio: ['mp3', 'wav', 'flac', 'aac', 'ogg', 'wma', 'm4a', 'ape', 'amr', 'mid', 'midi'],
  image: ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg', 'tif', 'tiff', 'ico', 'heic', 'psd', 'raw'],
  code: [
    'js', 'jsx', 'ts', 'tsx', 'mjs', 'cjs', 'json', 'html', 'htm', 'css', 'less', 'scss', 'xml',
    'yml', 'yaml', 'java', 'py', 'c', 'h', 'cpp', 'hpp', 'cs', 'go', 'rs', 'php', 'rb', 'sh',
    'bat', 'ps1', 'sql', 'vue', 'kt', 'swift', 'ini', 'toml',
  ],
  pdf: ['pdf'],
  exe: ['exe', 'msi', 'apk', 'dmg', 'deb', 'rpm', 'app'],
  iso: ['iso', 'img'],
  eml: ['eml', 'msg'],
  epub: ['epub', 'mobi', 'azw3'],
  md: ['md', 'markdown'],
  ofd: ['ofd'],
};

const BY_EXTENSION = new Map<string, FileTypeGroup>();
for (const [group, extensions] of Object.entries(GROUP_EXTENSIONS)) {
  for (const ext of extensions) BY_EXTENSION.set(ext, group as FileTypeGroup);
}

/** The extension of a file name, lower case and without the dot ('' when there is none). */
export function extensionOf(name: string | null | undefined): string {
  if (!name) return '';
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The icon group of an extension ('.docx', 'DOCX' and 'docx' are the same). */
export function fileTypeGroup(extension: string | null | undefined, isFolder = false): FileTypeGroup {
  if (isFolder) return 'folder';
  const ext = (extension ?? '').trim().replace(/^\./, '').toLowerCase();
  return BY_EXTENSION.get(ext) ?? 'default';
}

/** Chinese names of the groups, read out by screen readers and shown as tooltips. */
export const FILE_TYPE_LABELS: Record<FileTypeGroup, string> = {
  folder: '文件夹',
  archive: '压缩包',
  document: '文档',
  spreadsheet: '表格',
  presentation: '演示文稿',
  video: '视频',
  audio: '音频',
  image: '图片',
  code: '代码',
  pdf: 'PDF 文档',
  exe: '可执行程序',
  iso: '光盘映像',
  eml: '邮件',
  epub: '电子书',
  md: 'Markdown 文档',
  ofd: 'OFD 版式文档',
  default: '文件',
};
