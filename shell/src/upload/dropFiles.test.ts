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
    const empty: string[] = [];
    const out = await readEntry(tree, '', [], empty);
    expect(empty).toEqual(['资料/子目录/空']);
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
    expect(paths((await collectDrop(data)).sources)).toEqual(['(file) 单独.txt', '夹/x.txt']);
  });

  it('falls back to the plain file list without the entries API', async () => {
    const file = new File(['1'], '旧浏览器.txt');
    expect(paths((await collectDrop({ files: [file] as unknown as FileList, items: [] as unknown as DataTransferItemList })).sources)).toEqual([
      '(file) 旧浏览器.txt',
    ]);
  });

  it('lists the empty folders of every dropped folder, an empty dropped folder too', async () => {
    const data = {
      files: [] as unknown as FileList,
      items: [
        { kind: 'file', webkitGetAsEntry: () => dirEntry('项目', [dirEntry('输出', []), dirEntry('源码', [dirEntry('旧', []), fileEntry('a.ts')])]) },
        { kind: 'file', webkitGetAsEntry: () => dirEntry('空文件夹', []) },
      ] as unknown as DataTransferItemList,
    };
    const drop = await collectDrop(data);
    expect(paths(drop.sources)).toEqual(['项目/源码/a.ts']);
    expect(drop.emptyFolders).toEqual(['项目/输出', '项目/源码/旧', '空文件夹']);
  });

  it('leaves out a file that cannot be read', async () => {
    const broken: DropEntry = { isFile: true, isDirectory: false, name: 'x', file: (_ok, fail) => fail?.(new Error('gone')) };
    expect(await readEntry(dirEntry('夹', [broken, fileEntry('ok.txt')]))).toHaveLength(1);
  });
});

describe('handing a drop to the queue', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => new File(['x'], `f${i}.txt`));
  const drop = (sources: UploadSource[], emptyFolders: string[] = []) => Promise.resolve({ sources, emptyFolders });
  const fakeEngine = () => ({
    add: jest.fn(async () => []),
    addFolders: jest.fn(async () => undefined),
    loadOptions: jest.fn(async () => ({ maxFileCount: 100 })),
  });

  it('enqueues in batches of 50, yielding between batches', async () => {
    const sizes: number[] = [];
    const yieldToUi = jest.fn(() => Promise.resolve());
    await enqueueInBatches(many(120), { wjFileId: '1' }, (batch) => void sizes.push(batch.length), yieldToUi);
    expect(sizes).toEqual([50, 50, 20]);
    expect(yieldToUi).toHaveBeenCalledTimes(2);
  });

  it('warns once above maxFileCount and lets the engine stay quiet', async () => {
    const engine = fakeEngine();
    const warn = jest.fn();
    const target = { wjFileId: '9' };
    expect(await uploadDrop(drop(many(101)), target, engine, warn, () => Promise.resolve())).toBe(101);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(Messages.tooManyFiles(100));
    const calls = engine.add.mock.calls as unknown as Array<[unknown[], unknown, unknown]>;
    expect(calls.map(([batch, t, o]) => [batch.length, t, o])).toEqual([
      [50, target, { quiet: true }],
      [50, target, { quiet: true }],
      [1, target, { quiet: true }],
    ]);
    warn.mockClear();
    await uploadDrop(drop(many(100)), target, engine, warn, () => Promise.resolve());
    expect(warn).not.toHaveBeenCalled();
    expect(engine.addFolders).not.toHaveBeenCalled();
  });

  it('has the empty folders made after the files are listed, also for a drop of empty folders alone', async () => {
    const engine = fakeEngine();
    const target = { wjFileId: '9' };
    const order: string[] = [];
    engine.add.mockImplementation(async () => void order.push('add') as never);
    engine.addFolders.mockImplementation(async () => void order.push('folders'));
    await uploadDrop(drop(many(2), ['夹/空']), target, engine, jest.fn(), () => Promise.resolve());
    expect(order).toEqual(['add', 'folders']);
    expect(engine.addFolders).toHaveBeenCalledWith(['夹/空'], target);
    expect(await uploadDrop(drop([], ['只有空的']), target, engine, jest.fn(), () => Promise.resolve())).toBe(0);
    expect(engine.addFolders).toHaveBeenLastCalledWith(['只有空的'], target);
  });
});
