// Which highlight.js language colours a text file, by its extension. Kept apart from
// highlight.ts so that deciding costs nothing: the highlighter itself is a lazy chunk.
const BY_EXTENSION: Record<string, string> = {
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  ts: 'typescript', tsx: 'typescript',
  json: 'json', jsonl: 'json',
  py: 'python',
  java: 'java',
  kt: 'kotlin', kts: 'kotlin',
  scala: 'scala',
  go: 'go',
  rs: 'rust',
  rb: 'ruby',
  php: 'php',
  swift: 'swift',
  c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp',
  cs: 'csharp',
  m: 'objectivec',
  sql: 'sql',
  sh: 'bash', bash: 'bash', zsh: 'bash',
  bat: 'dos', cmd: 'dos',
  ps1: 'powershell',
  xml: 'xml', html: 'xml', htm: 'xml', vue: 'xml',
  css: 'css', scss: 'scss', less: 'less',
  yaml: 'yaml', yml: 'yaml',
  md: 'markdown', markdown: 'markdown',
  ini: 'ini', conf: 'ini', cfg: 'ini', toml: 'ini',
  properties: 'properties',
  lua: 'lua',
  pl: 'perl',
  r: 'r',
  dart: 'dart',
  tex: 'latex',
};

/** The language of a file's extension, or null for plain text. */
export function languageOf(extension: string): string | null {
  return BY_EXTENSION[extension.trim().replace(/^\./, '').toLowerCase()] ?? null;
}

/** Larger texts are shown uncoloured: colouring them would hold the page for seconds. */
export const HIGHLIGHT_MAX_CHARS = 512 * 1024;
