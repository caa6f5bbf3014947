// The people sheet read from XLSX: the first tab (not the first part in the zip), a workbook
// without shared strings, many reads at once all alike, and a file that is no workbook refused
// with the Chinese message.
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { readSheet } from '../src/modules/people/sheet';
import { zipOf } from './support/documents';

const cellsOf = (sheet: Awaited<ReturnType<typeof readSheet>>) => sheet.rows.map((r) => r.cells);

async function book(fill: (b: ExcelJS.Workbook) => void): Promise<Buffer> {
  const b = new ExcelJS.Workbook();
  fill(b);
  return Buffer.from(await b.xlsx.writeBuffer());
}

describe('reading the people sheet from XLSX', () => {
  test('the first tab is read, though its part comes second in the file', async () => {
    const bytes = await book((b) => {
      const notes = b.addWorksheet('说明');
      notes.addRow(['请在“用户”页填写']);
      const people = b.addWorksheet('用户');
      people.addRow(['用户名', '昵称']);
      people.addRow(['amy', '艾米']);
      // the tab order (ExcelJS's orderNo, not in its typings): 用户 first, though its part is sheet2.xml
      (people as ExcelJS.Worksheet & { orderNo: number }).orderNo = 0;
      (notes as ExcelJS.Worksheet & { orderNo: number }).orderNo = 1;
    });
    const sheet = await readSheet(bytes, '人员.xlsx');
    expect(cellsOf(sheet)).toEqual([
      ['用户名', '昵称'],
      ['amy', '艾米'],
    ]);
    expect(sheet.total).toBe(2);
  });

  test('a workbook with its text inline (no shared strings part) reads the same', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
    const ws = writer.addWorksheet('用户');
    ws.addRow(['用户名', '个人空间配额(GB)']).commit();
    ws.addRow(['bob', 20]).commit();
    ws.commit();
    await writer.commit();
    expect(cellsOf(await readSheet(Buffer.concat(chunks), '人员.xlsx'))).toEqual([
      ['用户名', '个人空间配额(GB)'],
      ['bob', '20'],
    ]);
  });

  test('64 reads of one file at once all find the same rows', async () => {
    const bytes = await book((b) => {
      const ws = b.addWorksheet('用户');
      ws.addRow(['用户名', '昵称', '部门']);
      for (let i = 0; i < 300; i++) ws.addRow([`user${i}`, `用户${i}`, `总部/部门${i % 7}`]);
      ws.addRow(['gina', { formula: '1+1' }, '']);
    });
    const reads = await Promise.all(Array.from({ length: 64 }, () => readSheet(bytes, '人员.xlsx')));
    for (const r of reads) {
      expect(r.total).toBe(302);
      expect(r.rows[150].cells).toEqual(['user149', '用户149', '总部/部门2']);
      expect(r.rows[301]).toEqual({ line: 302, cells: ['gina', '', ''], formula: [false, true, false] });
    }
  });

  test('a zip that is no workbook, and bytes that are no zip, are refused in Chinese', async () => {
    const message = '无法读取该 Excel 文件，请使用下载的模板（.xlsx）';
    await expect(readSheet(await zipOf({ 'readme.txt': '不是表格' }), '人员.xlsx')).rejects.toMatchObject({ message });
    // a workbook part that names no worksheet
    const noSheet = await zipOf({
      'xl/_rels/workbook.xml.rels': '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
      'xl/workbook.xml': '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>',
    });
    await expect(readSheet(noSheet, '人员.xlsx')).rejects.toMatchObject({ message });
    await expect(readSheet(Buffer.from('PK\u0003\u0004 truncated'), '人员.xlsx')).rejects.toMatchObject({ message });
  });
});
