import { decodePreviewData, encodePreviewData, PREVIEW_LIST_LIMIT } from './previewData';

/** The form the earlier preview links used. */
const oldEncode = (value: unknown) => btoa(unescape(encodeURIComponent(JSON.stringify(value))));

describe('preview addresses', () => {
  it('round-trips a file with its version, share, Chinese name and neighbours', () => {
    const target = { fileId: '12', versionId: '7', shareId: 'Ab_9-x', name: '季度报告（终稿）📄.docx', list: ['11', '12', '13'] };
    const data = encodePreviewData(target);
    expect(data).toMatch(/^[A-Za-z0-9_-]+$/); // safe in a path segment and a query value
    expect(decodePreviewData(data)).toEqual(target);
  });

  it('leaves out what is not set, and a list of the file alone', () => {
    const data = encodePreviewData({ fileId: '5', list: ['5'] });
    expect(decodePreviewData(data)).toEqual({ fileId: '5' });
  });

  it('keeps at most 300 neighbours, those around the file', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => String(i));
    const decoded = decodePreviewData(encodePreviewData({ fileId: '600', list: ids }));
    expect(decoded?.list).toHaveLength(PREVIEW_LIST_LIMIT);
    expect(decoded?.list).toContain('600');
    expect(decoded?.list?.[0]).toBe('450');
    // at the end of the list the window stops at its last id
    expect(decodePreviewData(encodePreviewData({ fileId: '999', list: ids }))?.list?.slice(-1)).toEqual(['999']);
  });

  it('reads the older encoding, also URI-encoded, with its fileName and numeric ids', () => {
    const old = oldEncode({ fileId: 42, fileName: '项目计划书.pdf', shareId: 'abc' });
    expect(decodePreviewData(old)).toEqual({ fileId: '42', shareId: 'abc', name: '项目计划书.pdf' });
    expect(encodeURIComponent(old)).toContain('%'); // the case below really decodes a URI-encoded form
    expect(decodePreviewData(encodeURIComponent(old))).toEqual({ fileId: '42', shareId: 'abc', name: '项目计划书.pdf' });
    expect(decodePreviewData(oldEncode({ id: '9', name: '说明.txt' }))).toEqual({ fileId: '9', name: '说明.txt' });
  });

  it('refuses what is not a preview address', () => {
    expect(decodePreviewData('')).toBeNull();
    expect(decodePreviewData(undefined)).toBeNull();
    expect(decodePreviewData('%E0%A4%A')).toBeNull();
    expect(decodePreviewData('not base64 at all!')).toBeNull();
    expect(decodePreviewData(oldEncode({ name: '没有编号.txt' }))).toBeNull();
    expect(decodePreviewData(oldEncode([1, 2]))).toBeNull();
    expect(decodePreviewData(btoa('\xff\xfe'))).toBeNull(); // not UTF-8
  });
});
