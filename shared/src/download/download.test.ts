import { appStore, resetAppState, runtimeConfigAtom } from '../state/atoms';
import { setNotifier } from '../notify';
import { ApiError } from '../http/errors';
import { Messages } from '../constants';
import { apiUrl, downloadApi } from './api';
import { compressAndDownload, downloadFile, DOWNLOAD_FRAME_ATTR, isAppleMobile, isCompressing, resetDownloadState } from './runner';

const frames = () => Array.from(document.querySelectorAll<HTMLIFrameElement>(`iframe[${DOWNLOAD_FRAME_ATTR}]`));
let messages: { error: string[]; warning: string[] };

beforeEach(() => {
  resetAppState();
  appStore.set(runtimeConfigAtom, null);
  resetDownloadState();
  messages = { error: [], warning: [] };
  setNotifier({ error: (m) => messages.error.push(m), warning: (m) => messages.warning.push(m) });
});
afterEach(() => {
  setNotifier(null);
  frames().forEach((f) => f.remove());
  jest.useRealTimers();
});

describe('download addresses', () => {
  it('add the API prefix and base the http client uses', () => {
    expect(downloadApi.fileUrl('12')).toBe('/api/User/FileTransfer/Download/12');
    expect(downloadApi.fileUrl('12', { versionId: 'v 2', shareId: null })).toBe('/api/User/FileTransfer/Download/12?versionId=v%202');
    appStore.set(runtimeConfigAtom, {
      mode: 'full', appTitle: '云文档', apiUrl: 'https://docs.example.cn/', apiUrlPrefix: '/gw/api', fileUrl: '', workflowFileNumber: 20, remotes: [],
    });
    expect(downloadApi.fileUrl('12')).toBe('https://docs.example.cn/gw/api/User/FileTransfer/Download/12');
    // a zip address the server gives with or without the prefix, or absolute
    expect(apiUrl('/gw/api/User/FileTransfer/DownloadTasks/t1/File')).toBe('https://docs.example.cn/gw/api/User/FileTransfer/DownloadTasks/t1/File');
    expect(apiUrl('User/x')).toBe('https://docs.example.cn/gw/api/User/x');
    expect(apiUrl('https://cdn.example.cn/z.zip')).toBe('https://cdn.example.cn/z.zip');
    expect(downloadApi.externalFileUrl('12', 'k1', 'a&b')).toBe(
      'https://docs.example.cn/gw/api/User/FileTransfer/ExternalDownload/12?urlKey=k1&accessKey=a%26b',
    );
  });
});

describe('compressAndDownload', () => {
  it('polls with the calls it is given (an external share) and downloads the zip', async () => {
    jest.useFakeTimers();
    const createTask = jest.fn().mockResolvedValue({ taskId: 't9' });
    const getStatus = jest
      .fn()
      .mockResolvedValueOnce({ percent: 0, downloadUrl: null })
      .mockResolvedValueOnce({ percent: 55.4, downloadUrl: '' })
      .mockResolvedValueOnce({ percent: 100, downloadUrl: '/api/z/t9.zip' });
    const progress: number[] = [];
    const run = compressAndDownload(['1', '2'], { createTask, getStatus, intervalMs: 1000, onProgress: (p) => progress.push(p) });
    expect(isCompressing()).toBe(true);
    await jest.advanceTimersByTimeAsync(2000);
    await expect(run).resolves.toBe('done');
    expect(createTask).toHaveBeenCalledWith(['1', '2']);
    expect(getStatus).toHaveBeenCalledTimes(3);
    expect(progress).toEqual([0, 0, 55, 100]);
    expect(frames().map((f) => f.getAttribute('src'))).toEqual(['/api/z/t9.zip']);
    expect(isCompressing()).toBe(false);
  });

  it('refuses a second one while one runs, and stops when asked', async () => {
    jest.useFakeTimers();
    const stop = new AbortController();
    const getStatus = jest.fn().mockResolvedValue({ percent: 20, downloadUrl: '' });
    const first = compressAndDownload(['1'], { createTask: async () => ({ taskId: 't1' }), getStatus, signal: stop.signal });
    await expect(compressAndDownload(['2'])).resolves.toBe('busy');
    expect(messages.warning).toEqual([Messages.compressing]);
    await jest.advanceTimersByTimeAsync(3000);
    expect(getStatus).toHaveBeenCalledTimes(2);
    stop.abort();
    await expect(first).resolves.toBe('cancelled');
    expect(isCompressing()).toBe(false);
    expect(frames()).toHaveLength(0);
  });

  it('stops and shows the task’s error when the build failed', async () => {
    const getStatus = jest.fn().mockResolvedValue({ percent: 30, downloadUrl: '', state: 'failed', error: '打包失败，部分文件的内容无法读取，请重新下载' });
    await expect(compressAndDownload(['1'], { createTask: async () => ({ taskId: 't1' }), getStatus })).resolves.toBe('failed');
    expect(getStatus).toHaveBeenCalledTimes(1);
    expect(messages.error).toEqual(['打包失败，部分文件的内容无法读取，请重新下载']);
    expect(frames()).toHaveLength(0);
    expect(isCompressing()).toBe(false);
  });

  it('adds no message of its own to a failed call, and 文件下载失败 to anything else', async () => {
    await expect(compressAndDownload(['1'], { createTask: () => Promise.reject(new ApiError('无权下载', 40301)) })).resolves.toBe('failed');
    expect(messages.error).toEqual([]);
    await expect(compressAndDownload(['1'], { createTask: () => Promise.reject(new TypeError('x')) })).resolves.toBe('failed');
    expect(messages.error).toEqual([Messages.downloadFailed]);
  });
});

describe('mobile Apple devices', () => {
  const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
  afterEach(() => jest.restoreAllMocks());

  it('are an iPhone, an iPod or an iPad, even one that calls itself a Mac', () => {
    expect(isAppleMobile({ userAgent: IPHONE })).toBe(true);
    expect(isAppleMobile({ userAgent: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)' })).toBe(true);
    expect(isAppleMobile({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', platform: 'MacIntel', maxTouchPoints: 5 })).toBe(true);
    expect(isAppleMobile({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', platform: 'MacIntel', maxTouchPoints: 0 })).toBe(false);
    expect(isAppleMobile({ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8)', platform: 'Linux armv8l', maxTouchPoints: 5 })).toBe(false);
  });

  it('get no download of a file or a zip, and are told why', async () => {
    jest.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
    downloadFile('12');
    expect(frames()).toHaveLength(0);
    const createTask = jest.fn(async () => ({ taskId: 't1' }));
    await expect(compressAndDownload(['1', '2'], { createTask, getStatus: async () => ({ percent: 100, downloadUrl: '/x.zip' }) })).resolves.toBe('failed');
    expect(createTask).not.toHaveBeenCalled();
    expect(isCompressing()).toBe(false);
    expect(messages.warning).toEqual([Messages.appleMobileNoDownload, Messages.appleMobileNoDownload]);
  });

  it('do not stop a download on a computer', () => {
    downloadFile('12');
    expect(frames()).toHaveLength(1);
    expect(messages.warning).toEqual([]);
  });
});
