import { SEARCH_INFO_KEY } from '@app/shared';
import { splitByKeyword } from './highlight';
import { locationOf } from './SearchResults';
import { advancedSearchPath, DEFAULT_FILTERS, loadSearchInfo, normalizeExtensions, searchFromUrl, toQuery } from './searchInfo';

describe('splitByKeyword', () => {
  it('cuts the text around every case-insensitive hit', () => {
    expect(splitByKeyword('Report and REPORT', 'report')).toEqual([
      { text: 'Report', hit: true },
      { text: ' and ', hit: false },
      { text: 'REPORT', hit: true },
    ]);
    expect(splitByKeyword('季度报告.docx', '报')).toEqual([
      { text: '季度', hit: false },
      { text: '报', hit: true },
      { text: '告.docx', hit: false },
    ]);
  });

  it('takes the keyword literally (no regular expression) and trimmed', () => {
    expect(splitByKeyword('a.b(c)*', ' (c)* ')).toEqual([
      { text: 'a.b', hit: false },
      { text: '(c)*', hit: true },
    ]);
    expect(splitByKeyword('abc', '.')).toEqual([{ text: 'abc', hit: false }]);
    expect(splitByKeyword('abc', '')).toEqual([{ text: 'abc', hit: false }]);
  });
});

describe('the advanced search request', () => {
  it('sends only the filters that are set, with the size in bytes', () => {
    expect(toQuery({ ...DEFAULT_FILTERS, keyword: ' 报告 ' }, 1, 20)).toEqual({
      keyword: '报告', page: 1, pageSize: 20, sortField: 'updatedAt', sortOrder: 'desc',
    });
    expect(
      toQuery(
        {
          ...DEFAULT_FILTERS, keyword: '报告', spaceType: 2, type: 'folder', extensions: ['.DOCX', 'pdf', 'docx'], sizeMin: 0.5, sizeMax: 1,
          sizeUnit: 'GB', updated: ['2026-01-01', '2026-01-31'], owner: { userId: '7', name: '李四' }, tagIds: ['t1', 't2'],
          sortField: 'size', sortOrder: 'asc',
        },
        3,
        100,
      ),
    ).toEqual({
      keyword: '报告', page: 3, pageSize: 100, spaceType: 2, type: 'folder', extension: 'docx,pdf', sizeMin: 512 * 1024 ** 2,
      sizeMax: 1024 ** 3, updatedFrom: '2026-01-01', updatedTo: '2026-01-31', ownerId: '7', tagIds: 't1,t2', sortField: 'size', sortOrder: 'asc',
    });
  });

  it('normalizes extensions', () => {
    expect(normalizeExtensions([' .PDF', 'pdf', '', '..md'])).toEqual(['pdf', 'md']);
  });

  it('reads a keyword and a mode from the URL', () => {
    expect(searchFromUrl(new URLSearchParams('keyword=%20合同%20&mode=content'))).toEqual({ keyword: '合同', mode: 'content' });
    expect(searchFromUrl(new URLSearchParams('keyword=合同&mode=x'))).toEqual({ keyword: '合同', mode: undefined });
    expect(searchFromUrl(new URLSearchParams('keyword=%20'))).toBeNull();
    expect(advancedSearchPath('合同 A&B')).toBe('/file/advancedSearch?keyword=%E5%90%88%E5%90%8C+A%26B');
  });

  it('starts empty when session storage holds nothing usable', () => {
    window.sessionStorage.setItem(SEARCH_INFO_KEY, 'not json');
    expect(loadSearchInfo()).toMatchObject({ filters: DEFAULT_FILTERS, applied: null, page: 1, pageSize: 50 });
    window.sessionStorage.clear();
  });
});

describe('locationOf', () => {
  it('is the folder path of the item', () => {
    expect(locationOf({ name: '计划.xlsx', namePath: '个人文件/项目文档/计划.xlsx' })).toBe('个人文件/项目文档');
    expect(locationOf({ name: 'a/b', namePath: '个人文件/a/b' })).toBe('个人文件');
    expect(locationOf({ name: '个人文件', namePath: '个人文件' })).toBe('');
  });
});
