import { PanelStatus, UploadStatus } from '../constants';
import { derivePanelStatus, fileExtension, summarizeUploads } from './status';
import { registerUploadService, uploads, type UploadService, type UploadsSettledEvent } from './service';

const items = (...statuses: UploadStatus[]) => statuses.map((status) => ({ status }));

describe('panel status and chip text', () => {
  it.each([
    [[], PanelStatus.Idle, ''],
    [['uploading', 'success', 'success'], PanelStatus.Uploading, '上传中 2 / 3'],
    [['waiting', 'error', 'paused'], PanelStatus.Uploading, '上传中 0 / 3'],
    [['success', 'complete'], PanelStatus.Success, '全部上传成功'],
    [['success', 'error'], PanelStatus.Error, '部分文件上传失败'],
    [['paused', 'error'], PanelStatus.Error, '部分文件上传失败'],
    [['paused', 'success'], PanelStatus.Paused, '全部暂停'],
  ] as Array<[UploadStatus[], PanelStatus, string]>)('%j → %s %s', (list, status, text) => {
    expect(derivePanelStatus(items(...list))).toBe(status);
    expect(summarizeUploads(items(...list))).toMatchObject({ status, text, total: list.length });
  });

  it('takes the extension in lower case', () => {
    expect(fileExtension('报告.DOCX')).toBe('docx');
    expect(fileExtension('.bashrc')).toBe('');
    expect(fileExtension('README')).toBe('');
  });
});

describe('uploads', () => {
  afterEach(() => registerUploadService(null));
  const target = { wjFileId: '1' };

  function fakeService() {
    const settled = new Set<(e: UploadsSettledEvent) => void>();
    const service: UploadService & { fire(e: UploadsSettledEvent): void } = {
      enqueue: jest.fn(async () => undefined),
      onSettled: (l) => {
        settled.add(l);
        return () => settled.delete(l);
      },
      fire: (e) => settled.forEach((l) => l(e)),
    };
    return service;
  }

  it('hands files to the registered engine', async () => {
    const service = fakeService();
    registerUploadService(service);
    const file = new File(['x'], 'a.txt');
    await uploads.enqueue([file, { file, relativePath: 'd/a.txt' }], target);
    expect(service.enqueue).toHaveBeenCalledWith([file, { file, relativePath: 'd/a.txt' }], target);
  });

  it('keeps calls made before the engine is registered', async () => {
    const file = new File(['x'], 'a.txt');
    const pending = uploads.enqueue([file], target);
    const service = fakeService();
    registerUploadService(service);
    await pending;
    expect(service.enqueue).toHaveBeenCalledWith([file], target);
  });

  it('passes the settled event to listeners registered at any time', () => {
    const listener = jest.fn();
    const off = uploads.onSettled(listener);
    const service = fakeService();
    registerUploadService(service);
    service.fire({ folderIds: ['1'], withFolders: false });
    expect(listener).toHaveBeenCalledWith({ folderIds: ['1'], withFolders: false });
    off();
    service.fire({ folderIds: ['1'], withFolders: false });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
