// 云文档 download helpers without a server: byte ranges, Content-Disposition, entry names.
import { contentDisposition, parseRange } from '../src/modules/downloads/http';
import { NameScope, safeSegment, shouldCompress } from '../src/modules/downloads/zip';

describe('download helpers', () => {
  test('parseRange', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-4', 10)).toEqual({ start: 0, end: 4 });
    expect(parseRange('bytes=5-', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=8-100', 10)).toEqual({ start: 8, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 10)).toBeNull();
    expect(parseRange('bytes=0-1,3-4', 10)).toBeNull();
    expect(parseRange('bytes=a-b', 10)).toBeNull();
    expect(parseRange('bytes=-', 10)).toBeNull();
    expect(parseRange('lines=0-1', 10)).toBeNull();
  });

  test('contentDisposition', () => {
    expect(contentDisposition('a "b".txt')).toBe(`attachment; filename="a _b_.txt"; filename*=UTF-8''a%20%22b%22.txt`);
    expect(contentDisposition("it's (1)*!.txt")).toBe(`attachment; filename="it's (1)*!.txt"; filename*=UTF-8''it%27s%20%281%29%2A%21.txt`);
    expect(contentDisposition('文件.txt')).toBe(`attachment; filename="__.txt"; filename*=UTF-8''%E6%96%87%E4%BB%B6.txt`);
  });

  test('entry names are safe and unique within their folder', () => {
    expect(safeSegment('..')).toBe('__');
    expect(safeSegment('.')).toBe('_');
    expect(safeSegment('a\\b/c')).toBe('a_b_c');
    expect(safeSegment('x\u0000y\u001fz\u007f')).toBe('xyz');
    expect(safeSegment('  ')).toBe('未命名');
    expect(safeSegment('/etc/passwd')).toBe('_etc_passwd');
    // names stored before the name rules are mapped, not refused
    expect(safeSegment('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(safeSegment('a\u200Fb\u2066c\ufeff')).toBe('abc');
    expect(safeSegment('CON')).toBe('_CON');
    expect(safeSegment('nul.txt')).toBe('_nul.txt');
    expect(safeSegment('com1.tar.gz')).toBe('_com1.tar.gz');
    expect(safeSegment('报告. . ')).toBe('报告');
    expect(safeSegment('a:b*c?d"e<f>g|h')).toBe('a_b_c_d_e_f_g_h');
    expect(safeSegment('C:')).toBe('C_');
    expect(safeSegment('console.log')).toBe('console.log');
    const scope = new NameScope();
    expect(scope.claim('报告.txt', false)).toBe('报告.txt');
    expect(scope.claim('报告.TXT', false)).toBe('报告（1）.TXT');
    expect(scope.claim('报告.txt', false)).toBe('报告（2）.txt');
    expect(scope.claim('目录.v2', true)).toBe('目录.v2');
    expect(scope.claim('目录.v2', true)).toBe('目录.v2（1）');
    expect(scope.claim('a/b', false)).toBe('a_b');
    expect(scope.claim('a\\b', false)).toBe('a_b（1）');
  });

  test('already-compressed types are stored', () => {
    for (const n of ['a.jpg', 'b.ZIP', 'c.docx', 'd.mp4', 'e.7z', 'f.pdf']) expect(shouldCompress(n)).toBe(false);
    for (const n of ['a.txt', 'b', 'c.csv', 'd.doc', '.jpg']) expect(shouldCompress(n)).toBe(true);
  });
});
