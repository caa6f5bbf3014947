import { Messages, type UploadSource } from '@app/shared';
import { collectDrop, enqueueInBatches, readEntry, uploadDrop, type DropEntry } from './dropFiles';

const fileEntry = (name: string, text = name): DropEntry => ({
  isFile: true,
  isDirectory: false,
  name,
  file: (ok) => ok(new File([text], name)),
});

/** A folder whose reader answers `perCall` entries at a time, then an empty list. */
const dirEntry = (name: string, children: DropEntry[], perCall = 2): DropEntry => ({
  isFile: false,
  isDirectory: true,
  name,
  createReader: () => {
    let at = 0;
    return {
      readEntries: (ok) => {
        const batch = children.slice(at, at + perCall);
        at += perCall;
        setTimeout(() => ok(batch), 0);
      },
    };
  },
});

const paths = (sources: UploadSource[]) =>
  sources.map((s) => (s instanceof File ? `(file) ${s.name}` : (s as { relativePath: string }).relativePath));

describe('reading a drop', () => {
  it('reads folders recursively, calling readEntries until it answers empty, with the dropped folder first in each path', async () => {
    const tree = dirEntry('资料', [
      fileEntry('a.txt'),
      fileEntry('.hidden'),
      dirEntry('子目录', [fileEntry('b.docx'), dirEntry('空', []), dirEntry('深', [fileEntry('c.pdf')])]),
      fileEntry('d.png'),
      fileEntry('e.md'),
    ]);
    const out = await readEntry(tree);
    expect(out.map((f) => f.relativePath)).toEqual([
      '资料/a.txt',
      '资料/.hidden',
      '资料/子目录/b.docx',
      '资料/子目录/深/c.pdf',
      '资料/d.png',
      '资料/e.md',
    ]);
    expect(out[0].file).toBeInstanceOf(File);
  });

  it('takes the entries of every item of the drop: loose files keep their plain name', async () => {
    const data = {
      files: [] as unknown as FileList,
      items: [
        { kind: 'file', webkitGetAsEntry: () => fileEntry('单独.txt') },
        { kind: 'string', webkitGetAsEntry: () => null },
        { kind: 'file', webkitGetAsEntry: () => dirEntry('夹', [fileEntry('x.txt')]) },
      ] as unknown as DataTransferItemList,
    };
    expect(paths(await collectDrop(data))).toEqual(['(file) 单独.txt', '夹/x.txt']);
  });

  it('falls back to the plain file list without the entries API', async () => {
    const file = new File(['1'], '旧浏览器.txt');
    expect(paths(await collectDrop({ files: [file] as unknown as FileList, items: [] as unknown as DataTransferItemList }))).toEqual([
      '(file) 旧浏览器.txt',
    ]);
  });

  it('leaves out a file that cannot be read', async () => {
    const broken: DropEntry = { isFile: true, isDirectory: false, name: 'x', file: (_ok, fail) => fail?.(new Error('gone')) };
    expect(await readEntry(dirEntry('夹', [broken, fileEntry('ok.txt')]))).toHaveLength(1);
  });
});

describe('handing a drop to the queue', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => new File(['x'], `f${i}.txt`));

  it('enqueues in batches of 50, yielding between batches', async () => {
    const sizes: number[] = [];
    const yieldToUi = jest.fn(() => Promise.resolve());
    await enqueueInBatches(many(120), { wjFileId: '1' }, (batch) => void sizes.push(batch.length), yieldToUi);
    expect(sizes).toEqual([50, 50, 20]);
    expect(yieldToUi).toHaveBeenCalledTimes(2);
  });

  it('warns once above maxFileCount and lets the engine stay quiet', async () => {
    const engine = { add: jest.fn(async () => []), loadOptions: jest.fn(async () => ({ maxFileCount: 100 })) };
    const warn = jest.fn();
    const target = { wjFileId: '9' };
    expect(await uploadDrop(Promise.resolve(many(101)), target, engine, warn, () => Promise.resolve())).toBe(101);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(Messages.tooManyFiles(100));
    const calls = engine.add.mock.calls as unknown as Array<[unknown[], unknown, unknown]>;
    expect(calls.map(([batch, t, o]) => [batch.length, t, o])).toEqual([
      [50, target, { quiet: true }],
      [50, target, { quiet: true }],
      [1, target, { quiet: true }],
    ]);
    warn.mockClear();
    await uploadDrop(Promise.resolve(many(100)), target, engine, warn, () => Promise.resolve());
    expect(warn).not.toHaveBeenCalled();
  });
});
