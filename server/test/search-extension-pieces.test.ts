// Which piece of an extension narrows a 1–2-character keyword's names in the name index
// (SQLite): the rarest piece of `.ext` among a sample of the names, where it is about as rare as
// the default pair, so that `png` reads the list of `pn` and not the much longer one of `.p`
// (every pdf, png and pptx); and whatever piece is read, a search finds the same names.
import { sql } from 'kysely';
import { extensionPieces, narrowingPiece } from '../src/modules/search/names';
import { RangeSample } from '../src/modules/search/range-sample';
import { SearchService } from '../src/modules/search/service';
import { roleCast, startServer, type TestServer } from './support/harness';
import { insertFilesBelow } from './support/items';

test('the pieces of an extension are the dot with its first character and each pair of its characters', () => {
  expect(extensionPieces('png')).toEqual(['.p', 'pn', 'ng']);
  expect(extensionPieces('xlsx')).toEqual(['.x', 'xl', 'ls', 'sx']);
  expect(extensionPieces('c')).toEqual(['.c']);
  expect(extensionPieces('aaa')).toEqual(['.a', 'aa']);
});

describe('the piece taken from a sample of the names', () => {
  // as in an office: many pdf, png and pptx (all hold `.p`), txt beside pptx (both hold `tx`)
  const sample = [
    ...Array.from({ length: 40 }, (_, i) => `报告${i}.pdf`),
    ...Array.from({ length: 20 }, (_, i) => `照片${i}.png`),
    ...Array.from({ length: 20 }, (_, i) => `汇报${i}.pptx`),
    ...Array.from({ length: 10 }, (_, i) => `说明${i}.txt`),
    ...Array.from({ length: 30 }, (_, i) => `数据${i}.xlsx`),
  ];

  test('the rarest piece, not one other extensions hold too', () => {
    expect(narrowingPiece('png', sample)).toBe('pn');
    expect(narrowingPiece('pdf', sample)).toBe('pd');
    // `tx` is held by every pptx as well; `.t` only by the txt files
    expect(narrowingPiece('txt', sample)).toBe('.t');
    expect(narrowingPiece('xlsx', sample)).toBe('.x');
  });

  test('a piece rare alone is taken; none where only the default pair together is rare', () => {
    // `.q` and `rz` are common, `qr` is held by the one name ending in `.qrz`
    const rare = [...Array.from({ length: 50 }, (_, i) => `.q${i}`), ...Array.from({ length: 50 }, (_, i) => `qz${i}`), ...Array.from({ length: 50 }, (_, i) => `rz${i}`), 'x.qrz'];
    expect(narrowingPiece('qrz', rare)).toBe('qr');
    // `.k` and `km` are each held by 101 names, both by 51: the default pair is read
    const spread = [...Array.from({ length: 50 }, (_, i) => `.k${i}`), ...Array.from({ length: 50 }, (_, i) => `km${i}`), ...Array.from({ length: 50 }, (_, i) => `.kmm${i}`), 'a.km'];
    expect(narrowingPiece('km', spread)).toBeUndefined();
  });

  test('none for a one-character extension (its one piece is the default) or one the index cannot spell', () => {
    expect(narrowingPiece('c', sample)).toBeUndefined();
    expect(narrowingPiece('ｐｄｆ', sample)).toBeUndefined();
    expect(narrowingPiece('a.b', sample)).toBeUndefined();
  });
});

describe('a name search narrowed by the sampled piece finds what the plain definition does (SQLite)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  test('keywords of one and two characters over pdf, png, pptx, jpg, txt, md, xlsx and xls, one extension or several', async () => {
    const app = server.app;
    const { owner, ownerRoot } = await roleCast(app);
    const root = await app.db.selectFrom('items').selectAll().where('id', '=', Number(ownerRoot.id)).executeTakeFirstOrThrow();
    const exts = ['pdf', 'pdf', 'png', 'pptx', 'jpg', 'txt', 'md', 'xlsx', 'xls', 'docx'];
    const words = ['报告', 'plan', '照片', 'notes', '数据', 'pn', 'tx', 'xl', '年度'];
    const now = Date.now();
    const files = Array.from({ length: 1200 }, (_, i) => {
      const extension = exts[i % exts.length];
      // some names hold another extension's pieces before their own (`x.png.txt`, `数据.xls备份.md`)
      const name = `${words[i % words.length]}${i}${i % 7 === 0 ? `.${exts[(i + 3) % exts.length]}` : ''}.${extension}`;
      return { name, extension, createdAt: now - i, updatedAt: now - i };
    });
    await insertFilesBelow(app.db, root, files);
    const user = await app.db.selectFrom('users').selectAll().where('user_name', '=', owner.userName).executeTakeFirstOrThrow();
    const { folders, tags } = app.services;
    // estimated from a sample however few the items (the narrowing the pieces choose), and the default narrowing
    const sampled = new SearchService(app.db, 'sqlite', folders, tags, 'Asia/Shanghai', undefined, { sampleFrom: 0 });
    const plain = new SearchService(app.db, 'sqlite', folders, tags, 'Asia/Shanghai');
    const top = Number((await sql<{ n: number }>`select max(id) as n from items`.execute(app.db)).rows[0].n);
    const sample = new RangeSample(app.db, { sampleFrom: 0 });
    // the sample sees what these names are made of: png not by `.p` of every pdf and pptx, txt not
    // by `tx` of every pptx
    expect(['pn', 'ng']).toContain(await sample.extensionPiece('png', top));
    expect(['.t', 'xt']).toContain(await sample.extensionPiece('txt', top));

    const definition = (keyword: string, list: string[]) =>
      files.filter((f) => f.name.toLowerCase().includes(keyword.toLowerCase()) && list.includes(f.extension)).map((f) => f.name).sort();
    const cases: [string, string][] = [
      ['p', 'png'], ['p', 'pdf,png'], ['n', 'png,jpg'], ['报', 'pdf'], ['告', 'pptx'], ['x', 'txt,md'], ['t', 'txt'],
      ['l', 'xlsx,xls'], ['xl', 'xls'], ['pn', 'png'], ['tx', 'txt,pptx'], ['照片', 'png,jpg'], ['数', 'xlsx,xls,md'], ['a', 'docx,pdf'],
    ];
    for (const [keyword, extension] of cases) {
      const list = extension.split(',');
      const expected = definition(keyword, list);
      expect(expected.length).toBeGreaterThan(0);
      const names = async (search: SearchService) => (await search.files(user, { keyword, extension, pageSize: 1000 })).data.map((i: any) => i.name).sort();
      expect({ keyword, extension, found: await names(sampled) }).toEqual({ keyword, extension, found: expected });
      expect({ keyword, extension, found: await names(plain) }).toEqual({ keyword, extension, found: expected });
    }
  });
});
