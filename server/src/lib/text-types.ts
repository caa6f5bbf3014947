// Extensions of plain text and source code in 云文档: full-text search reads them, and the
// preview shows them as text (both as UTF-8, else GB18030).
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'txt text md markdown csv tsv log json jsonl xml html htm yaml yml ini conf cfg toml properties sql ' +
    'js mjs cjs jsx ts tsx vue py java kt kts scala go rs rb php c h cc cpp cxx hpp cs swift m sh bash zsh bat cmd ps1 ' +
    'r lua pl dart css scss less tex rst adoc srt'
  ).split(' '),
);
