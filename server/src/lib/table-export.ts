// A table streamed as CSV (UTF-8 with BOM, for Excel) or XLSX (exceljs's streaming writer):
// rows are written as they come from the database, never all held in memory.
import ExcelJS from 'exceljs';
import { PassThrough, type Readable } from 'node:stream';

export type ExportFormat = 'csv' | 'xlsx';

export interface ExportedTable {
  stream: Readable;
  fileName: string;
  contentType: string;
}

const quote = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  // a cell Excel would read as a formula is kept as text
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** `columns` gives each column's header and XLSX width; `baseName` the file name without extension. */
export function exportTable(
  format: ExportFormat,
  columns: ReadonlyArray<{ header: string; width: number }>,
  rows: AsyncIterable<unknown[]>,
  baseName: string,
  sheetName: string,
): ExportedTable {
  const out = new PassThrough();
  if (format === 'csv') {
    void (async () => {
      out.write('\ufeff' + columns.map((c) => quote(c.header)).join(',') + '\r\n');
      for await (const r of rows) if (!out.write(r.map(quote).join(',') + '\r\n')) await new Promise((res) => out.once('drain', res));
      out.end();
    })().catch((err: unknown) => out.destroy(err as Error));
    return { stream: out, fileName: `${baseName}.csv`, contentType: 'text/csv; charset=utf-8' };
  }
  void (async () => {
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
    const sheet = book.addWorksheet(sheetName);
    sheet.columns = columns.map((c) => ({ header: c.header, width: c.width }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for await (const r of rows) sheet.addRow(r).commit();
    sheet.commit();
    await book.commit();
  })().catch((err: unknown) => out.destroy(err as Error));
  return { stream: out, fileName: `${baseName}.xlsx`, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
}
