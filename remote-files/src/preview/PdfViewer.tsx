// PDF of a preview (PDF files, and the PDF the server makes of an office document), drawn by
// pdf.js in the browser. Only the pages near the visible part are drawn (the others are
// placeholders of their size, page 1's until they have been drawn once, and lose their canvas
// again when far away), so a long document opens as fast as a short one. The bar shows the page
// number and count, zooms, and 搜索 finds the pages whose text holds a term (n 处, 上一处/下一处).
import { memo, useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState, type ReactNode } from 'react';
import { Button, Input, Result, Tooltip, Typography } from 'antd';
import { CloseOutlined, ColumnWidthOutlined, DownOutlined, SearchOutlined, UpOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import type { PDFDocumentLoadingTask, PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { Messages } from '@app/shared';
import { loadPdfjs, pdfAssetOptions, pdfWorker } from './pdfjs';
import { PreviewLoading } from './PreviewLoading';

export const PDF_TEXTS = {
  loading: '正在加载文档…',
  loadingPercent: (p: number) => `正在加载文档… ${p}%`,
  encrypted: '该文档已加密，暂不支持预览',
  invalid: '文件已损坏或不是有效的 PDF 文档',
  missing: '文件不存在或已被删除',
  pageInput: '页码',
  zoomIn: '放大',
  zoomOut: '缩小',
  fitWidth: '适合宽度',
  search: '搜索',
  searchPlaceholder: '在文档中搜索',
  searching: '正在搜索…',
  matches: (n: number) => `${n} 处`,
  prevMatch: '上一处',
  nextMatch: '下一处',
  closeSearch: '关闭搜索',
  pageFailed: '本页显示失败',
  page: (n: number) => `第 ${n} 页`,
} as const;

const MIN_SCALE = 0.25;
const MAX_SCALE = 4;
const STEP = 1.2;
const PAGE_GAP = 12;
/** The most pixels a page's canvas holds (mobile browsers refuse larger canvases). */
const MAX_CANVAS_PIXELS = 16_000_000;

const clampScale = (n: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, n));

interface Size {
  w: number;
  h: number;
}

type Load =
  | { status: 'loading'; percent: number | null }
  | { status: 'ready'; doc: PDFDocumentProxy; pageSize: Size }
  | { status: 'error'; message: string };

function pdfErrorMessage(e: unknown): string {
  const { name, status } = (e ?? {}) as { name?: string; status?: number };
  if (name === 'PasswordException') return PDF_TEXTS.encrypted;
  if (name === 'InvalidPDFException') return PDF_TEXTS.invalid;
  if (status === 404 || name === 'MissingPDFException') return PDF_TEXTS.missing;
  return Messages.previewFailed;
}

export interface PdfViewerProps {
  /** the PDF's bytes (an external share's key already appended) */
  url: string;
  mobile?: boolean;
}

export function PdfViewer({ url, mobile = false }: PdfViewerProps) {
  const [state, setState] = useState<Load>({ status: 'loading', percent: null });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    let task: PDFDocumentLoadingTask | null = null;
    setState({ status: 'loading', percent: null });
    loadPdfjs()
      .then(async (pdfjs) => {
        if (!live) return;
        task = pdfjs.getDocument({ url, ...pdfAssetOptions(), worker: pdfWorker(pdfjs), isEvalSupported: false, enableXfa: false });
        task.onProgress = ({ loaded, total }: { loaded: number; total: number }) => {
          if (live && total > 0) {
            const percent = Math.min(99, Math.round((loaded / total) * 100));
            setState((s) => (s.status === 'loading' ? { status: 'loading', percent } : s));
          }
        };
        const doc = await task.promise;
        const first = await doc.getPage(1);
        const viewport = first.getViewport({ scale: 1 });
        if (live) setState({ status: 'ready', doc, pageSize: { w: viewport.width, h: viewport.height } });
      })
      .catch((e: unknown) => {
        if (live) setState({ status: 'error', message: pdfErrorMessage(e) });
      });
    return () => {
      live = false;
      void task?.destroy();
    };
  }, [url, attempt]);

  if (state.status === 'loading') {
    return <PreviewLoading text={state.percent === null ? PDF_TEXTS.loading : PDF_TEXTS.loadingPercent(state.percent)} />;
  }
  if (state.status === 'error') {
    return (
      <Result
        status="warning"
        title={state.message}
        extra={
          state.message === Messages.previewFailed ? <Button onClick={() => setAttempt((a) => a + 1)}>重试</Button> : undefined
        }
      />
    );
  }
  return <PdfDocument doc={state.doc} pageSize={state.pageSize} mobile={mobile} />;
}

interface SearchState {
  term: string;
  running: boolean;
  /** the pages holding the term, in order */
  pages: number[];
  /** how many times it occurs */
  count: number;
  /** the match page shown (index into pages) */
  index: number;
}

/** Text compared without case and without white space (a phrase broken over two lines still matches). */
const searchable = (text: string) => text.toLowerCase().replace(/\s+/g, '');

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) n += 1;
  return n;
}

function PdfDocument({ doc, pageSize, mobile }: { doc: PDFDocumentProxy; pageSize: Size; mobile: boolean }) {
  const numPages = doc.numPages;
  const scroller = useRef<HTMLDivElement>(null);
  const pageEls = useRef<(HTMLDivElement | null)[]>([]);
  const [width, setWidth] = useState(0);
  /** null: the automatic scale (fit to the width; on a wide screen at most 150 %) */
  const [zoom, setZoom] = useState<number | null>(null);
  const [near, setNear] = useState<Set<number>>(() => new Set([1, 2, 3].filter((n) => n <= numPages)));
  const [current, setCurrent] = useState(1);
  const [pageText, setPageText] = useState('1');
  const sizes = useRef(new Map<number, Size>());
  const [, sizesChanged] = useReducer((x: number) => x + 1, 0);
  const [searchOpen, setSearchOpen] = useState(!mobile);
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<SearchState | null>(null);
  const searchRun = useRef(0);
  const texts = useRef(new Map<number, string>());
  /** where the middle of the view was, as a share of the whole height (kept over a zoom) */
  const anchor = useRef(0);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const fitWidth = width > 0 ? clampScale((width - (mobile ? 16 : 48)) / pageSize.w) : 1;
  const scale = zoom ?? (mobile ? fitWidth : Math.min(fitWidth, 1.5));

  // the pages within a screen's height of the visible part are drawn
  useEffect(() => {
    const root = scroller.current;
    if (!root || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        setNear((prev) => {
          const next = new Set(prev);
          for (const e of entries) {
            const n = Number((e.target as HTMLElement).dataset.page);
            if (e.isIntersecting) next.add(n);
            else next.delete(n);
          }
          return next;
        });
      },
      { root, rootMargin: '100% 0px' },
    );
    pageEls.current.forEach((el) => el && observer.observe(el));
    return () => observer.disconnect();
  }, [numPages]);

  // a zoom keeps the same part of the document in the middle of the view
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !el.scrollHeight) return;
    el.scrollTop = anchor.current * el.scrollHeight - el.clientHeight / 2;
  }, [scale]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    anchor.current = el.scrollHeight ? (el.scrollTop + el.clientHeight / 2) / el.scrollHeight : 0;
    const line = el.scrollTop + el.clientHeight / 3;
    let page = 1;
    for (let i = 0; i < pageEls.current.length; i += 1) {
      const p = pageEls.current[i];
      if (!p) continue;
      if (p.offsetTop <= line) page = i + 1;
      else break;
    }
    if (page !== current) {
      setCurrent(page);
      setPageText(String(page));
    }
  };

  const goTo = useCallback(
    (n: number) => {
      const page = Math.min(numPages, Math.max(1, Math.round(n)));
      const el = scroller.current;
      const target = pageEls.current[page - 1];
      if (el && target) el.scrollTop = target.offsetTop - PAGE_GAP;
      setCurrent(page);
      setPageText(String(page));
    },
    [numPages],
  );

  const onSize = useCallback((n: number, size: Size) => {
    const known = sizes.current.get(n);
    if (known && Math.abs(known.w - size.w) < 0.5 && Math.abs(known.h - size.h) < 0.5) return;
    sizes.current.set(n, size);
    sizesChanged();
  }, []);

  const register = useCallback((n: number, el: HTMLDivElement | null) => {
    pageEls.current[n - 1] = el;
  }, []);

  const zoomBy = (factor: number) => setZoom(clampScale(scale * factor));

  const runSearch = async (raw: string) => {
    const needle = searchable(raw);
    const run = ++searchRun.current;
    if (!needle) {
      setSearch(null);
      return;
    }
    const found: number[] = [];
    let count = 0;
    setSearch({ term: raw.trim(), running: true, pages: [], count: 0, index: -1 });
    for (let n = 1; n <= numPages; n += 1) {
      let text = texts.current.get(n);
      if (text === undefined) {
        try {
          const page = await doc.getPage(n);
          const content = await page.getTextContent();
          text = searchable(content.items.map((i) => ('str' in i ? i.str : '')).join(''));
        } catch {
          text = '';
        }
        texts.current.set(n, text);
      }
      if (run !== searchRun.current) return; // a newer search took over
      const c = occurrences(text, needle);
      if (c) {
        found.push(n);
        count += c;
        if (found.length === 1) goTo(n);
        setSearch({ term: raw.trim(), running: true, pages: [...found], count, index: 0 });
      }
    }
    setSearch({ term: raw.trim(), running: false, pages: found, count, index: found.length ? 0 : -1 });
  };

  const stepMatch = (delta: number) => {
    if (!search || !search.pages.length) return;
    const index = (search.index + delta + search.pages.length) % search.pages.length;
    setSearch({ ...search, index });
    goTo(search.pages[index]);
  };

  const closeSearch = () => {
    searchRun.current += 1;
    setSearch(null);
    setQuery('');
    if (mobile) setSearchOpen(false);
  };

  const marked = search && search.index >= 0 ? search.pages[search.index] : null;

  const tool = (label: string, icon: ReactNode, onClick: () => void, disabled = false) => (
    <Tooltip title={label}>
      <Button type="text" size={mobile ? 'small' : 'middle'} aria-label={label} icon={icon} onClick={onClick} disabled={disabled} />
    </Tooltip>
  );

  const pageBox = (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}>
      <Input
        size="small"
        aria-label={PDF_TEXTS.pageInput}
        value={pageText}
        onChange={(e) => setPageText(e.target.value.replace(/\D/g, ''))}
        onPressEnter={() => goTo(Number(pageText) || current)}
        onBlur={() => setPageText(String(current))}
        style={{ width: mobile ? 40 : 52, textAlign: 'center' }}
      />
      <Typography.Text type="secondary" data-page-count="">
        / {numPages}
      </Typography.Text>
    </span>
  );

  const searchBox = (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, flex: mobile ? 1 : undefined, minWidth: 0 }}>
      <Input.Search
        size="small"
        allowClear
        aria-label={PDF_TEXTS.search}
        placeholder={PDF_TEXTS.searchPlaceholder}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          if (!e.target.value) closeSearch();
        }}
        onSearch={(v) => void runSearch(v)}
        style={{ width: mobile ? undefined : 220, flex: mobile ? 1 : undefined, minWidth: 0 }}
      />
      {search ? (
        <Typography.Text type="secondary" role="status" style={{ whiteSpace: 'nowrap' }}>
          {search.running && !search.count ? PDF_TEXTS.searching : PDF_TEXTS.matches(search.count)}
        </Typography.Text>
      ) : null}
      {tool(PDF_TEXTS.prevMatch, <UpOutlined />, () => stepMatch(-1), !search || search.pages.length < 2)}
      {tool(PDF_TEXTS.nextMatch, <DownOutlined />, () => stepMatch(1), !search || search.pages.length < 2)}
      {mobile ? tool(PDF_TEXTS.closeSearch, <CloseOutlined />, closeSearch) : null}
    </span>
  );

  return (
    <div style={{ height: '100%', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <div
        role="toolbar"
        aria-label="文档工具"
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: mobile ? 4 : 8,
          padding: mobile ? '4px 8px' : '6px 16px',
          background: '#fff',
          borderBottom: '1px solid #f0f0f0',
          flexWrap: 'nowrap',
          overflow: 'hidden',
        }}
      >
        {mobile && searchOpen ? (
          searchBox
        ) : (
          <>
            {pageBox}
            {tool(PDF_TEXTS.zoomOut, <ZoomOutOutlined />, () => zoomBy(1 / STEP), scale <= MIN_SCALE)}
            <Typography.Text data-zoom="" style={{ minWidth: 44, textAlign: 'center' }}>
              {Math.round(scale * 100)}%
            </Typography.Text>
            {tool(PDF_TEXTS.zoomIn, <ZoomInOutlined />, () => zoomBy(STEP), scale >= MAX_SCALE)}
            {mobile ? null : tool(PDF_TEXTS.fitWidth, <ColumnWidthOutlined />, () => setZoom(fitWidth))}
            <span style={{ flex: 1 }} />
            {mobile ? tool(PDF_TEXTS.search, <SearchOutlined />, () => setSearchOpen(true)) : searchBox}
          </>
        )}
      </div>
      <div
        ref={scroller}
        onScroll={onScroll}
        data-pdf-pages=""
        style={{ position: 'relative', flex: 1, minHeight: 0, overflow: 'auto', background: '#e8eaed', padding: `${PAGE_GAP}px ${mobile ? 8 : 24}px` }}
      >
        {Array.from({ length: numPages }, (_, i) => {
          const n = i + 1;
          return (
            <PdfPage
              key={n}
              doc={doc}
              n={n}
              scale={scale}
              size={sizes.current.get(n) ?? pageSize}
              near={near.has(n)}
              marked={marked === n}
              onSize={onSize}
              register={register}
            />
          );
        })}
      </div>
    </div>
  );
}

interface PdfPageProps {
  doc: PDFDocumentProxy;
  n: number;
  scale: number;
  /** the page's size at scale 1 (page 1's until it has been drawn) */
  size: Size;
  near: boolean;
  /** the page of the search match shown */
  marked: boolean;
  onSize(n: number, size: Size): void;
  register(n: number, el: HTMLDivElement | null): void;
}

const PdfPage = memo(function PdfPage({ doc, n, scale, size, near, marked, onSize, register }: PdfPageProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    setDrawn(false);
    if (!near) return;
    let cancelled = false;
    let task: RenderTask | null = null;
    doc
      .getPage(n)
      .then((page) => {
        if (cancelled) return;
        const viewport = page.getViewport({ scale });
        onSize(n, { w: viewport.width / scale, h: viewport.height / scale });
        const canvas = canvasRef.current;
        if (!canvas) return;
        const ratio = Math.min(window.devicePixelRatio || 1, Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)));
        canvas.width = Math.floor(viewport.width * ratio);
        canvas.height = Math.floor(viewport.height * ratio);
        task = page.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
        return task.promise.then(() => {
          if (!cancelled) {
            setDrawn(true);
            setFailed(false);
          }
        });
      })
      .catch((e: unknown) => {
        if (!cancelled && (e as { name?: string })?.name !== 'RenderingCancelledException') setFailed(true);
      });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, n, scale, near, onSize]);

  const w = Math.floor(size.w * scale);
  const h = Math.floor(size.h * scale);
  return (
    <div
      ref={(el) => register(n, el)}
      data-page={n}
      aria-label={PDF_TEXTS.page(n)}
      style={{
        position: 'relative',
        width: w,
        height: h,
        margin: `0 auto ${PAGE_GAP}px`,
        background: '#fff',
        boxShadow: '0 1px 4px rgba(0, 0, 0, 0.16)',
        outline: marked ? '2px solid #1f6feb' : undefined,
      }}
    >
      {near ? <canvas ref={canvasRef} style={{ display: 'block', width: w, height: h }} /> : null}
      {!drawn ? (
        <span style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', color: failed ? '#cf1322' : '#bfbfbf' }}>
          {failed ? PDF_TEXTS.pageFailed : n}
        </span>
      ) : null}
    </div>
  );
});
