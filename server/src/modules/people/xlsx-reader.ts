// The first worksheet of an XLSX file, row by row, with the parts it depends on read first.
//
// ExcelJS's streaming WorkbookReader reads the zip front to back with unzipper and, when a
// worksheet comes before the shared strings (as in most files, Excel's and ExcelJS's own), parks
// it in a temporary file. Under load that path now and then ended without the workbook part
// (1–2 of 2,400 reads, 8 at a time on two busy vCPUs: "Cannot read properties of undefined (reading
// 'sheets')"), and a good file was refused. Here yauzl opens the zip from its central directory,
// and the same parsers of ExcelJS 4.4 read the parts in the order they need: the relations, the
// workbook, the shared strings, the styles, then the first worksheet as a stream. The rows are
// still parsed as they come: a 10,000-row file costs a few MB, not a workbook's model.
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';

/**
 * The parts of ExcelJS's streaming WorkbookReader (4.4.0, pinned in package.json) driven here;
 * people-sheet.test.ts and people-import.test.ts read files through them.
 */
interface PartReader {
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: { rId: string }[] };
  _parseRels(entry: NodeJS.ReadableStream): Promise<void>;
  _parseWorkbook(entry: NodeJS.ReadableStream): Promise<void>;
  _parseSharedStrings(entry: NodeJS.ReadableStream): AsyncGenerator<unknown>;
  _parseStyles(entry: NodeJS.ReadableStream): Promise<void>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<{ eventType: string; value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

/** The parts of a zip by name, each opened as a stream when asked for. */
interface Parts {
  open(name: string): Promise<Readable | null>;
}

function partsOf(bytes: Buffer): Promise<Parts> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map<string, yauzl.Entry>();
      zip.on('error', reject);
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on('end', () =>
        resolve({
          open: (name) => {
            const entry = entries.get(name);
            if (!entry) return Promise.resolve(null);
            return new Promise((res, rej) => zip.openReadStream(entry, (e, stream) => (e ? rej(e) : res(stream))));
          },
        }),
      );
      zip.readEntry();
    });
  });
}

/** The zip path of the first worksheet in the workbook's tab order. */
function firstSheetPath(reader: PartReader): string | null {
  const rId = reader.model?.sheets?.[0]?.rId;
  const target = reader.workbookRels?.find((r) => r.Id === rId)?.Target;
  if (!target) return null;
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
}

/**
 * Calls `onRow` for each row of the first worksheet, in order. Throws on a file that is not an
 * XLSX workbook or has no worksheet (the caller turns that into its own message).
 */
export async function eachXlsxRow(bytes: Buffer, onRow: (row: ExcelJS.Row) => void): Promise<void> {
  const parts = await partsOf(bytes);
  // its own input is never read: the parts are handed to it below
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(new PassThrough(), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as PartReader;
  const required = async (name: string) => {
    const s = await parts.open(name);
    if (!s) throw new Error(`no ${name}`);
    return s;
  };
  await reader._parseRels(await required('xl/_rels/workbook.xml.rels'));
  await reader._parseWorkbook(await required('xl/workbook.xml'));
  const strings = await parts.open('xl/sharedStrings.xml');
  if (strings) for await (const _ of reader._parseSharedStrings(strings));
  // without a styles part the reader keeps its default styles
  const styles = await parts.open('xl/styles.xml');
  if (styles) await reader._parseStyles(styles);
  const path = firstSheetPath(reader);
  if (!path) throw new Error('no worksheet');
  const sheetNo = /sheet(\d+)\.xml$/.exec(path)?.[1] ?? '1';
  for (const { value: worksheet } of reader._parseWorksheet(await required(path), sheetNo)) {
    for await (const row of worksheet) onRow(row);
  }
}
