// The people sheet as a file: read from XLSX or CSV (the first worksheet; the first row is the
// header) and written in either format with the same columns. A formula is never evaluated:
// the reader reports it, and the writer neutralises text that a spreadsheet would take for one.
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { badRequest } from '../../lib/errors';
import { eachXlsxRow } from './xlsx-reader';

export interface SheetRow {
  /** the line in the file (the header is line 1) */
  line: number;
  cells: string[];
  /** per cell: it held a formula (XLSX) or text starting like one (CSV) */
  formula: boolean[];
}

/** CSV text that a spreadsheet would run: =, +, -, @ followed by something other than a number. */
const FORMULA_LIKE = /^(=|[+\-@](?![\d\s.]*$))/;

function cellText(value: ExcelJS.CellValue): { text: string; formula: boolean } {
  if (value === null || value === undefined) return { text: '', formula: false };
  if (typeof value === 'string') return { text: value, formula: false };
  if (typeof value === 'number' || typeof value === 'boolean') return { text: String(value), formula: false };
  if (value instanceof Date) return { text: value.toISOString().slice(0, 10), formula: false };
  if (typeof value === 'object') {
    if ('formula' in value || 'sharedFormula' in value) return { text: '', formula: true };
    if ('richText' in value) return { text: value.richText.map((r) => r.text).join(''), formula: false };
    if ('text' in value && typeof value.text === 'string') return { text: value.text, formula: false };
    if ('error' in value) return { text: '', formula: false };
  }
  return { text: String(value), formula: false };
}

/** The rows a sheet holds, of which at most `keep` are kept (the rest only counted). */
export interface Sheet {
  rows: SheetRow[];
  /** rows with content in the file, the header included */
  total: number;
}

/** The first worksheet (see xlsx-reader.ts): every row with content counted, the first `keep` kept. */
async function readXlsx(bytes: Buffer, keep: number): Promise<Sheet> {
  const rows: SheetRow[] = [];
  let total = 0;
  try {
    await eachXlsxRow(bytes, (row) => {
      if (!row.hasValues) return;
      total += 1;
      if (rows.length >= keep) return;
      const cells: string[] = [];
      const formula: boolean[] = [];
      for (let c = 1; c <= row.cellCount; c++) {
        const t = cellText(row.getCell(c).value);
        cells.push(t.text.trim());
        formula.push(t.formula);
      }
      rows.push({ line: row.number, cells, formula });
    });
  } catch {
    throw badRequest('无法读取该 Excel 文件，请使用下载的模板（.xlsx）');
  }
  return { rows, total };
}

/** RFC 4180: quoted fields with doubled quotes, commas and line breaks inside quotes, CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      out.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    out.push(row);
  }
  return out;
}

function readCsv(bytes: Buffer, keep: number): Sheet {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\ufffd')) throw badRequest('CSV 文件须为 UTF-8 编码（可用下载的模板另存）');
  const rows: SheetRow[] = [];
  let total = 0;
  parseCsv(text).forEach((cells, i) => {
    if (!cells.some((c) => c.trim() !== '')) return;
    total += 1;
    if (rows.length < keep) rows.push({ line: i + 1, cells: cells.map((c) => c.trim()), formula: cells.map((c) => FORMULA_LIKE.test(c.trim())) });
  });
  return { rows, total };
}

/** Reads an XLSX or CSV file, keeping at most `keep` rows (the header included) and counting all. */
export async function readSheet(bytes: Buffer, fileName: string, keep = Number.POSITIVE_INFINITY): Promise<Sheet> {
  const lower = fileName.toLowerCase();
  const zip = bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (lower.endsWith('.xlsx') || zip) return readXlsx(bytes, keep);
  if (lower.endsWith('.csv') || lower.endsWith('.txt')) return readCsv(bytes, keep);
  if (lower.endsWith('.xls')) throw badRequest('不支持旧版 Excel（.xls），请另存为 .xlsx 或 CSV');
  throw badRequest('请上传 Excel（.xlsx）或 CSV 文件');
}

/** A value a spreadsheet would not run as a formula. */
const safe = (v: string) => (FORMULA_LIKE.test(v) ? `'${v}` : v);

function csvField(v: string): string {
  const s = safe(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The sheet as a stream: CSV (UTF-8 with BOM) or XLSX written row by row. */
export function writeSheet(format: 'csv' | 'xlsx', header: readonly string[], rows: AsyncIterable<string[]> | Iterable<string[]>): Readable {
  const out = new PassThrough();
  void (async () => {
    try {
      if (format === 'csv') {
        out.write('\ufeff' + header.map(csvField).join(',') + '\r\n');
        for await (const r of rows) {
          if (!out.write(r.map(csvField).join(',') + '\r\n')) await new Promise((res) => out.once('drain', res));
        }
        out.end();
        return;
      }
      const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
      const sheet = book.addWorksheet('用户');
      sheet.columns = header.map((h) => ({ header: h, width: Math.max(12, h.length * 2 + 4) }));
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
      for await (const r of rows) sheet.addRow(r.map((v) => v)).commit();
      sheet.commit();
      await book.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return out;
}
