import type { AxiosRequestConfig } from 'axios';
import { setHttpAdapter, resetHttpState } from '@app/shared';
import { createHttpTransport, toFormData, type TransportTarget } from './transport';

const own: TransportTarget = { shareId: null, accessKey: null, batchNumber: null };
const share: TransportTarget = { shareId: 'sh 1', accessKey: 'key-9', batchNumber: 'b7' };
const fields = {
  chunkNumber: 2, totalChunks: 3, chunkSize: 4, currentChunkSize: 4, totalSize: 10,
  identifier: 'abc', filename: 'a.txt', relativePath: 'd/a.txt',
};

let sent: AxiosRequestConfig[] = [];

beforeEach(() => {
  sent = [];
  setHttpAdapter(async (config) => {
    sent.push(config);
    return { data: { code: 200, result: { ok: true }, message: null }, status: 200, statusText: 'OK', headers: {}, config };
  });
});
afterEach(() => {
  setHttpAdapter(undefined);
  resetHttpState();
});

const header = (c: AxiosRequestConfig, name: string) => (c.headers as { get(n: string): unknown }).get(name);

describe('createHttpTransport', () => {
  const signal = new AbortController().signal;

  it('calls the signed-in paths', async () => {
    const t = createHttpTransport();
    await t.getOptions();
    await t.createTask({ folderId: '1', fileName: 'a', size: 1, type: 2, strategy: null, relativePath: 'a', taskId: 't', shareId: null }, own, signal);
    await t.checkRapid({ fileId: 'f', fileHash: 'h' }, own, signal);
    await t.merge({ fileId: 'f', relativePath: 'a', fileHash: 'h' }, own, signal);
    expect(sent.map((c) => `${c.method?.toUpperCase()} ${c.url}`)).toEqual([
      'GET /api/User/FileTransfer/FileUploadOptions',
      'POST /api/User/FileTransfer/CheckAndCreateFileInfo',
      'POST /api/User/FileTransfer/UploadRapid2',
      'POST /api/User/FileTransfer/UploadMerge2',
    ]);
    expect(JSON.parse(sent[3].data as string)).toEqual({ fileId: 'f', relativePath: 'a', fileHash: 'h' });
  });

  it('sends a chunk as multipart form data with its query and reports upload progress', async () => {
    const t = createHttpTransport();
    const onProgress = jest.fn();
    setHttpAdapter(async (config) => {
      sent.push(config);
      config.onUploadProgress?.({ loaded: 3, total: 4, bytes: 3, lengthComputable: true });
      return { data: { code: 200, result: null, message: null }, status: 200, statusText: 'OK', headers: {}, config };
    });
    await t.uploadChunk({ query: { fileId: 'f', ChunkHash: 'c', RelativePath: 'd/a.txt' }, fields, blob: new Blob(['abcd']), target: own, signal, onProgress });
    const [c] = sent;
    expect(c.url).toBe('/api/User/FileTransfer/UploadChunk2');
    expect(c.params).toEqual({ fileId: 'f', ChunkHash: 'c', RelativePath: 'd/a.txt' });
    const form = c.data as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('chunkNumber')).toBe('2');
    expect(form.get('relativePath')).toBe('d/a.txt');
    expect((form.get('file') as File).size).toBe(4);
    expect(onProgress).toHaveBeenCalledWith(3);
  });

  it('a recipient of an internal share uses the signed-in paths with the share named on every call', async () => {
    const t = createHttpTransport();
    const internal: TransportTarget = { shareId: 'in-1', accessKey: null, batchNumber: null };
    await t.createTask({ folderId: '1', fileName: 'a', size: 1, type: 2, strategy: null, relativePath: 'a', taskId: 't', shareId: 'in-1' }, internal, signal);
    await t.uploadChunk({ query: { fileId: 'f', RelativePath: 'a' }, fields, blob: new Blob(['abcd']), target: internal, signal });
    await t.merge({ fileId: 'f', relativePath: 'a', fileHash: 'h' }, internal, signal);
    expect(sent.map((c) => [c.url, c.params])).toEqual([
      ['/api/User/FileTransfer/CheckAndCreateFileInfo', { shareId: 'in-1' }],
      ['/api/User/FileTransfer/UploadChunk2', { shareId: 'in-1', fileId: 'f', RelativePath: 'a' }],
      ['/api/User/FileTransfer/UploadMerge2', { shareId: 'in-1' }],
    ]);
    expect(sent.every((c) => header(c, 'accessKey') === undefined || header(c, 'accessKey') === null)).toBe(true);
  });

  it('uses the External paths and the access key for a share', async () => {
    const t = createHttpTransport();
    await t.createTask({ folderId: '1', fileName: 'a', size: 1, type: null, strategy: null, relativePath: 'a', taskId: 't', shareId: 'sh 1' }, share, signal);
    await t.uploadChunk({ query: { fileId: 'f', ChunkHash: 'c', RelativePath: 'a' }, fields, blob: new Blob(['x']), target: share, signal });
    await t.checkRapid({ fileId: 'f', fileHash: 'h' }, share, signal);
    await t.merge({ fileId: 'f', relativePath: 'a', fileHash: 'h' }, share, signal);
    expect(sent.map((c) => c.url)).toEqual([
      '/api/User/FileTransfer/External/sh%201/CheckAndCreateFileInfo',
      '/api/User/FileTransfer/External/b7/UploadChunk2',
      '/api/User/FileTransfer/External/sh%201/UploadRapid2',
      '/api/User/FileTransfer/External/sh%201/UploadMerge2',
    ]);
    expect(header(sent[0], 'accessKey')).toBe('key-9');
    expect(header(sent[1], 'Accesskey')).toBe('key-9');
    expect(header(sent[0], 'Authorization')).toBeFalsy();
  });

  it('builds the chunk form with every field and the file part', () => {
    const form = toFormData(fields, new Blob(['abcd']));
    expect([...form.keys()]).toEqual([...Object.keys(fields), 'file']);
  });
});
