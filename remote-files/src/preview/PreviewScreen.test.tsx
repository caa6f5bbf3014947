import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  api,
  ApiError,
  DOWNLOAD_FRAME_ATTR,
  encodePreviewData,
  Messages,
  sessionStore,
  shareKeyStorageName,
  type PreviewPayload,
  type PreviewSource,
  type PreviewTarget,
  type TextPreview,
} from '@app/shared';
import { renderWithProviders } from '@app/shared/test';
import PreviewScreen from './PreviewScreen';

jest.setTimeout(30_000);

// pdf.js itself is not loaded in jsdom: the viewer gets a document of fake pages
const mockGetDocument = jest.fn();
jest.mock('./pdfjs', () => ({
  loadPdfjs: () => Promise.resolve({ getDocument: (...args: unknown[]) => mockGetDocument(...args) }),
  pdfAssetOptions: () => ({ cMapUrl: 'http://localhost/remotes/files/pdfjs/cmaps/', cMapPacked: true }),
  pdfWorker: () => ({ name: 'preview' }),
}));

/** A PDF whose pages hold these texts. */
function fakePdf(texts: string[]) {
  const doc = {
    numPages: texts.length,
    getPage: jest.fn(async (n: number) => ({
      getViewport: ({ scale }: { scale: number }) => ({ width: 600 * scale, height: 800 * scale }),
      render: jest.fn(() => ({ promise: Promise.resolve(), cancel: jest.fn() })),
      getTextContent: async () => ({ items: [{ str: texts[n - 1], hasEOL: false }] }),
    })),
  };
  mockGetDocument.mockImplementation(() => ({ promise: Promise.resolve(doc), destroy: jest.fn(() => Promise.resolve()), onProgress: null }));
  return doc;
}

const NAMES: Record<PreviewSource, [string, string]> = {
  image: ['现场照片.png', 'png'],
  pdf: ['制度汇编.pdf', 'pdf'],
  video: ['培训录像.mp4', 'mp4'],
  audio: ['会议录音.mp3', 'mp3'],
  text: ['部署说明.txt', 'txt'],
  office: ['季度报告.docx', 'docx'],
};

function payload(source: PreviewSource, over: Partial<PreviewPayload['data']> = {}, fileId = '12'): PreviewPayload {
  const [name, extension] = NAMES[source];
  const kind = source === 'text' ? 'Text' : source === 'office' ? 'Pdf' : 'Content';
  return {
    fileId,
    source,
    data: {
      name,
      extension,
      size: 1536,
      updatedAt: '2026-03-01 09:30:00',
      versionId: null,
      shareId: null,
      url: `/api/User/Preview/${fileId}/${kind}`,
      conversionUrl: source === 'office' ? `/api/User/Preview/${fileId}/Conversion` : null,
      thumbnailUrl: null,
      downloadUrl: `/api/User/FileTransfer/Download/${fileId}`,
      watermark: null,
      ...over,
    },
    permissionVo: { level: 2, download: true },
    PreviewActions: { previewable: true },
  };
}

const text = (over: Partial<TextPreview> = {}): TextPreview => ({ text: 'a\nb\nc\n', encoding: 'utf-8', size: 6, truncated: false, ...over });

let create: jest.SpyInstance;

beforeEach(() => {
  mockGetDocument.mockReset();
  create = jest.spyOn(api, 'createComponentData');
});
afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
  document.querySelectorAll(`[${DOWNLOAD_FRAME_ATTR}]`).forEach((f) => f.remove());
});

function renderPreview(target: PreviewTarget, options: { mobile?: boolean; signedIn?: boolean; before?: () => void } = {}) {
  const { mobile, signedIn = true } = options;
  const view = renderWithProviders(<PreviewScreen previewData={encodePreviewData(target)} mobile={mobile} />, {
    session: signedIn ? true : undefined,
  });
  return view;
}

/** Enter as a user presses it (antd's input waits for the key to come up before it takes the next Enter). */
const pressEnter = (el: HTMLElement) => {
  fireEvent.keyDown(el, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.keyUp(el, { key: 'Enter', code: 'Enter', keyCode: 13 });
};
const downloadButton = () => screen.queryByRole('button', { name: /下\s*载/ });
const frames = () => Array.from(document.querySelectorAll<HTMLIFrameElement>(`[${DOWNLOAD_FRAME_ATTR}]`));
const image = () => screen.getByTestId('preview-image') as HTMLImageElement;

describe('预览页', () => {
  it('shows a picture from the payload url, with the name and size in the bar', async () => {
    create.mockResolvedValue(payload('image'));
    renderPreview({ fileId: '12', name: '现场照片.png' });
    await waitFor(() => expect(image()).toHaveAttribute('src', '/api/User/Preview/12/Content'));
    expect(image()).toHaveAttribute('alt', '现场照片.png');
    expect(screen.getByText('1.5 KB', { exact: false })).toBeInTheDocument();
    expect(create).toHaveBeenCalledWith({ fileId: '12' }, null, expect.objectContaining({ errorMode: 'none' }));
    expect(document.title).toBe('现场照片.png - 文件预览');
  });

  it('plays video (metadata first) and audio with the browser player', async () => {
    create.mockResolvedValue(payload('video'));
    const view = renderPreview({ fileId: '12' });
    await waitFor(() => expect(document.querySelector('video')).not.toBeNull());
    const video = document.querySelector('video') as HTMLVideoElement;
    expect(video).toHaveAttribute('src', '/api/User/Preview/12/Content');
    expect(video).toHaveAttribute('preload', 'metadata');
    expect(video).toHaveAttribute('controls');
    view.unmount();

    create.mockResolvedValue(payload('audio'));
    renderPreview({ fileId: '12' });
    await waitFor(() => expect(document.querySelector('audio')).toHaveAttribute('src', '/api/User/Preview/12/Content'));
    expect(document.querySelector('video')).toBeNull();
  });

  it('shows a PDF with pdf.js: the page count, pages drawn near the view, and the build own character maps', async () => {
    const doc = fakePdf(['第一页', '第二页', '第三页', '第四页', '第五页']);
    create.mockResolvedValue(payload('pdf'));
    renderPreview({ fileId: '12' });
    expect(await screen.findByText('/ 5')).toBeInTheDocument();
    expect(screen.getAllByLabelText(/^第 \d 页$/)).toHaveLength(5);
    expect(mockGetDocument).toHaveBeenCalledWith(
      expect.objectContaining({ url: '/api/User/Preview/12/Content', cMapUrl: 'http://localhost/remotes/files/pdfjs/cmaps/', isEvalSupported: false }),
    );
    // without IntersectionObserver only the first pages are drawn; the others stay placeholders
    await waitFor(() => expect(document.querySelectorAll('[data-pdf-pages] canvas')).toHaveLength(3));
    expect(doc.getPage.mock.calls.map((c) => c[0]).sort()).toEqual([1, 1, 2, 3]);
  });

  it('搜索 in a PDF finds the pages holding the term and steps through them', async () => {
    fakePdf(['年度预算说明', '其他内容', '预算执行情况，预算调整', '附录']);
    create.mockResolvedValue(payload('pdf'));
    renderPreview({ fileId: '12' });
    await screen.findByText('/ 4');
    const box = screen.getByRole('searchbox', { name: '搜索' });
    fireEvent.change(box, { target: { value: '预算' } });
    pressEnter(box);
    expect(await screen.findByText('3 处')).toBeInTheDocument();
    const marked = () => document.querySelector<HTMLElement>('[data-page][style*="outline"]')?.dataset.page;
    expect(marked()).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: '下一处' }));
    expect(marked()).toBe('3');
    expect(screen.getByRole('textbox', { name: '页码' })).toHaveValue('3');
    fireEvent.click(screen.getByRole('button', { name: '下一处' }));
    expect(marked()).toBe('1');

    fireEvent.change(box, { target: { value: '不存在的词' } });
    pressEnter(box);
    expect(await screen.findByText('0 处')).toBeInTheDocument();
    expect(marked()).toBeUndefined();
  });

  it('shows text with line numbers, its encoding and the notice of a cut text', async () => {
    create.mockResolvedValue(payload('text'));
    const getText = jest.spyOn(api, 'getPreviewText').mockResolvedValue(text({ text: '第一行\r\n第二行\r\n第三行\r\n', encoding: 'gb18030', truncated: true }));
    renderPreview({ fileId: '12' });
    expect(await screen.findByText('编码：GB18030')).toBeInTheDocument();
    expect(document.querySelector('[data-line-numbers]')?.textContent).toBe('1\n2\n3');
    expect(screen.getByText('共 3 行')).toBeInTheDocument();
    expect(screen.getByText('文件较大，仅显示前 2 MB')).toBeInTheDocument();
    expect(screen.getByText(/第二行/)).toBeInTheDocument();
    expect(getText).toHaveBeenCalledWith('/api/User/Preview/12/Text', expect.objectContaining({ errorMode: 'none' }));
  });

  it('never turns the text into markup: plain text and coloured code are escaped', async () => {
    create.mockResolvedValue(payload('text'));
    jest.spyOn(api, 'getPreviewText').mockResolvedValue(text({ text: '<img src=x onerror="alert(1)">\n<b>粗体</b>' }));
    const view = renderPreview({ fileId: '12' });
    expect(await screen.findByText(/<b>粗体<\/b>/)).toBeInTheDocument();
    expect(document.querySelector('main img, main b')).toBeNull();
    expect(screen.queryByText('文件较大，仅显示前 2 MB')).not.toBeInTheDocument();
    view.unmount();

    create.mockResolvedValue(payload('text', { name: 'index.html', extension: 'html' }));
    renderPreview({ fileId: '12' });
    // the coloured version replaces the plain one once highlight.js has loaded
    await waitFor(() => expect(document.querySelector('code.hljs[data-highlighted] .hljs-tag')).not.toBeNull());
    expect(document.querySelector('main img, main b')).toBeNull();
    expect(document.querySelector('code.hljs')?.textContent).toBe('<img src=x onerror="alert(1)">\n<b>粗体</b>');
  });

  it('an office document: asks about the conversion until it is ready, then shows the PDF', async () => {
    jest.useFakeTimers();
    fakePdf(['报告正文']);
    create.mockResolvedValue(payload('office'));
    const ask = jest
      .spyOn(api, 'getPreviewConversion')
      .mockResolvedValueOnce({ status: 'converting', message: '' })
      .mockResolvedValueOnce({ status: 'converting', message: '' })
      .mockResolvedValue({ status: 'ready', message: '' });
    renderPreview({ fileId: '12' });
    await act(async () => {
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('正在转换文档…')).toBeInTheDocument();
    expect(ask).toHaveBeenCalledTimes(1);
    expect(mockGetDocument).not.toHaveBeenCalled();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(1500);
    });
    expect(ask).toHaveBeenCalledTimes(2);
    expect(screen.getByText('正在转换文档…')).toBeInTheDocument();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(1500);
    });
    expect(ask).toHaveBeenCalledTimes(3);
    expect(ask).toHaveBeenCalledWith('/api/User/Preview/12/Conversion', expect.objectContaining({ errorMode: 'none' }));
    jest.useRealTimers();
    expect(await screen.findByText('/ 1')).toBeInTheDocument();
    expect(screen.queryByText('正在转换文档…')).not.toBeInTheDocument();
    expect(mockGetDocument).toHaveBeenCalledWith(expect.objectContaining({ url: '/api/User/Preview/12/Pdf' }));
  });

  it('an office conversion that failed shows the reason', async () => {
    create.mockResolvedValue(payload('office'));
    jest.spyOn(api, 'getPreviewConversion').mockResolvedValue({ status: 'failed', message: '文档已损坏，无法转换' });
    renderPreview({ fileId: '12' });
    expect(await screen.findByText('文档已损坏，无法转换')).toBeInTheDocument();
    expect(screen.getByText('文档转换失败')).toBeInTheDocument();
    expect(mockGetDocument).not.toHaveBeenCalled();
  });

  it('offers 下载 only when the payload has a download url', async () => {
    create.mockResolvedValue(payload('image', { downloadUrl: null }));
    const view = renderPreview({ fileId: '12' });
    await waitFor(() => expect(image()).toBeInTheDocument());
    expect(screen.getByText('现场照片.png')).toBeInTheDocument();
    expect(downloadButton()).toBeNull();
    view.unmount();

    create.mockResolvedValue(payload('image'));
    renderPreview({ fileId: '12' });
    await waitFor(() => expect(downloadButton()).not.toBeNull());
    fireEvent.click(downloadButton()!);
    expect(frames().map((f) => f.getAttribute('src'))).toEqual(['/api/User/FileTransfer/Download/12']);
  });

  it('draws the watermark over the viewer when the payload has one', async () => {
    create.mockResolvedValue(payload('image', { watermark: '张三（zhangsan） 2026-03-01 10:00' }));
    const view = renderPreview({ fileId: '12' });
    await waitFor(() => expect(screen.getAllByText('张三（zhangsan） 2026-03-01 10:00').length).toBeGreaterThan(10));
    const layer = document.querySelector<HTMLElement>('[data-watermark]')!;
    expect(layer).toHaveStyle({ pointerEvents: 'none' });
    expect(layer.parentElement?.tagName).toBe('MAIN');
    view.unmount();

    create.mockResolvedValue(payload('image'));
    renderPreview({ fileId: '12' });
    await waitFor(() => expect(image()).toBeInTheDocument());
    expect(document.querySelector('[data-watermark]')).toBeNull();
  });

  it('shows 创建预览地址失败 with the server message, and 重试 asks again', async () => {
    create.mockRejectedValueOnce(new ApiError('文件不存在或已被删除', 404)).mockResolvedValueOnce(payload('image'));
    renderPreview({ fileId: '12', name: '现场照片.png' });
    expect(await screen.findByText(Messages.previewUrlFailed)).toBeInTheDocument();
    expect(screen.getByText('文件不存在或已被删除')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(image()).toBeInTheDocument());
    expect(create).toHaveBeenCalledTimes(2);
  });

  it('says 预览地址无效 for an address that holds no file', async () => {
    renderWithProviders(<PreviewScreen previewData="这不是预览地址" />);
    expect(await screen.findByText('预览地址无效')).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();
  });

  it('image tools: 旋转, 放大, 缩小 and 1:1 change the picture transform', async () => {
    create.mockResolvedValue(payload('image'));
    renderPreview({ fileId: '12' });
    await waitFor(() => expect(image()).toBeInTheDocument());
    const tools = screen.getByRole('toolbar', { name: '图片工具' });
    const zoom = () => tools.querySelector('[data-zoom]')?.textContent;
    expect(image().style.transform).toContain('rotate(0deg) scale(1)');
    fireEvent.click(within(tools).getByRole('button', { name: '旋转' }));
    expect(image().style.transform).toContain('rotate(90deg)');
    fireEvent.click(within(tools).getByRole('button', { name: '放大' }));
    expect(image().style.transform).toContain('scale(1.25)');
    expect(zoom()).toBe('125%');
    fireEvent.click(within(tools).getByRole('button', { name: '缩小' }));
    fireEvent.click(within(tools).getByRole('button', { name: '缩小' }));
    expect(image().style.transform).toContain('scale(0.8)');
    expect(zoom()).toBe('80%');
    fireEvent.click(within(tools).getByRole('button', { name: '原始大小' }));
    expect(zoom()).toBe('100%');
    fireEvent.click(within(tools).getByRole('button', { name: '旋转' }));
    expect(image().style.transform).toContain('rotate(180deg)');
  });

  it('a picture that does not load says 图片加载失败', async () => {
    create.mockResolvedValue(payload('image'));
    renderPreview({ fileId: '12' });
    await waitFor(() => expect(image()).toBeInTheDocument());
    fireEvent.error(image());
    expect(await screen.findByText(Messages.imageLoadFailed)).toBeInTheDocument();
  });

  it('a large picture still being scaled by the server is asked again, its thumbnail shown meanwhile', async () => {
    create.mockResolvedValue(
      payload('image', { url: '/api/User/Preview/12/Image', thumbnailUrl: '/api/User/Preview/12/Thumbnail' }),
    );
    renderPreview({ fileId: '12' });
    await waitFor(() => expect(image()).toHaveAttribute('src', '/api/User/Preview/12/Image'));
    expect(document.querySelector('img[src="/api/User/Preview/12/Thumbnail"]')).not.toBeNull();
    jest.useFakeTimers();
    const first = image();
    fireEvent.error(first);
    expect(screen.getByText('正在处理大图，请稍候…')).toBeInTheDocument();
    await act(async () => {
      await jest.advanceTimersByTimeAsync(2000);
    });
    // a new request for the picture, not the failure
    expect(image()).not.toBe(first);
    expect(image()).toHaveAttribute('src', '/api/User/Preview/12/Image');
    expect(screen.queryByText(Messages.imageLoadFailed)).toBeNull();
    for (let i = 0; i < 15; i += 1) {
      fireEvent.error(image());
      await act(async () => {
        await jest.advanceTimersByTimeAsync(2000);
      });
    }
    expect(screen.getByText(Messages.imageLoadFailed)).toBeInTheDocument();
  });

  it('上一个/下一个 and the arrow keys open the neighbours of the list', async () => {
    create.mockImplementation(async (body: { fileId: string }) => payload('image', { name: `图${body.fileId}.png` }, body.fileId));
    renderPreview({ fileId: '12', versionId: '7', list: ['11', '12', '13'] });
    await screen.findByText('图12.png');
    expect(create).toHaveBeenLastCalledWith({ fileId: '12', versionId: '7' }, null, expect.anything());
    expect(screen.getByText('2 / 3')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: /下一个/ }));
    await screen.findByText('图13.png');
    // the version belonged to the file opened, not to its neighbour
    expect(create).toHaveBeenLastCalledWith({ fileId: '13' }, null, expect.anything());
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /下一个/ })).toBeDisabled();

    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    await screen.findByText('图12.png');
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    await screen.findByText('图11.png');
    expect(create).toHaveBeenLastCalledWith({ fileId: '11' }, null, expect.anything());
    expect(screen.getByRole('button', { name: /上一个/ })).toBeDisabled();
  });

  it('a file alone has no 上一个/下一个', async () => {
    create.mockResolvedValue(payload('image'));
    renderPreview({ fileId: '12' });
    await waitFor(() => expect(image()).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /上一个/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /下一个/ })).toBeNull();
  });

  it('an external share: the key from session storage goes with the payload call, the viewer and the download', async () => {
    create.mockResolvedValue(
      payload('image', {
        shareId: 'S1',
        url: '/api/User/Preview/12/Content?shareId=S1',
        downloadUrl: '/api/User/FileTransfer/ExternalDownload/12?urlKey=S1',
      }),
    );
    renderWithProviders(<span />); // a visitor: no session
    sessionStore.set(shareKeyStorageName('S1'), 'k&y');
    renderWithProviders(<PreviewScreen previewData={encodePreviewData({ fileId: '12', shareId: 'S1' })} />, { keepState: true });
    await waitFor(() => expect(image()).toHaveAttribute('src', '/api/User/Preview/12/Content?shareId=S1&accessKey=k%26y'));
    expect(create).toHaveBeenCalledWith({ fileId: '12', shareId: 'S1' }, 'k&y', expect.anything());
    fireEvent.click(downloadButton()!);
    expect(frames()[0]).toHaveAttribute('src', '/api/User/FileTransfer/ExternalDownload/12?urlKey=S1&accessKey=k%26y');
  });

  it('an external share text: the key goes as a query parameter, without the session', async () => {
    create.mockResolvedValue(payload('text', { shareId: 'S1', url: '/api/User/Preview/12/Text?shareId=S1' }));
    const getText = jest.spyOn(api, 'getPreviewText').mockResolvedValue(text());
    sessionStorage.clear();
    renderWithProviders(<span />);
    sessionStore.set(shareKeyStorageName('S1'), 'KEY');
    renderWithProviders(<PreviewScreen previewData={encodePreviewData({ fileId: '12', shareId: 'S1' })} />, { keepState: true });
    await screen.findByText('编码：UTF-8');
    expect(getText).toHaveBeenCalledWith(
      '/api/User/Preview/12/Text?shareId=S1',
      expect.objectContaining({ params: { accessKey: 'KEY' }, withToken: false }),
    );
  });

  it('mobile: one compact row, the PDF search behind its icon', async () => {
    fakePdf(['一', '二']);
    create.mockResolvedValue(payload('pdf'));
    renderPreview({ fileId: '12', list: ['11', '12'] }, { mobile: true });
    await screen.findByText('/ 2');
    // icons only in the bar: the names are labels
    expect(screen.getByRole('button', { name: '上一个' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '下载' })).toBeInTheDocument();
    expect(screen.queryByText('下载')).toBeNull();
    expect(screen.queryByRole('searchbox', { name: '搜索' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '搜索' }));
    expect(screen.getByRole('searchbox', { name: '搜索' })).toBeInTheDocument();
    expect(screen.queryByText('/ 2')).toBeNull();
  });
});
