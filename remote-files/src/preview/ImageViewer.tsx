// Pictures of a preview: fitted to the screen at first; 放大/缩小 (buttons, Ctrl + wheel),
// 1:1, 适应窗口 and 旋转; drag to move a large picture; ← and → show the previous and next file.
// While the picture loads its thumbnail stands in for it. A very large picture comes scaled by
// the server (…/Image), which answers 409 while it is still making it: then it is asked again.
import { useCallback, useEffect, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { Button, Result, Spin, Tooltip } from 'antd';
import { ExpandOutlined, RotateRightOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { Messages } from '@app/shared';

export const IMAGE_TEXTS = {
  zoomIn: '放大',
  zoomOut: '缩小',
  actual: '1:1',
  actualTitle: '原始大小',
  fit: '适应窗口',
  rotate: '旋转',
  failedNote: '文件可能已损坏，或浏览器不支持该图片格式。',
  making: '正在处理大图，请稍候…',
} as const;

/** A scaled picture still in the making is asked again this often, this many times. */
export const MADE_RETRY_MS = 2000;
export const MADE_RETRIES = 15;

const MIN_SCALE = 0.05;
const MAX_SCALE = 20;
const STEP = 1.25;
/** Room kept around a fitted picture. */
const MARGIN = 24;

const clamp = (n: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, n));

export interface ImageViewerProps {
  url: string;
  name: string;
  /** the picture's thumbnail, shown while the picture loads */
  thumbnailUrl?: string | null;
  onPrev?: () => void;
  onNext?: () => void;
  mobile?: boolean;
}

interface Size {
  w: number;
  h: number;
}

/** A scaled picture the server may still be making (…/Image, before the query). */
const isMadeView = (url: string) => /\/Image(?:\?|$)/.test(url);

export function ImageViewer({ url, name, thumbnailUrl, onPrev, onNext, mobile = false }: ImageViewerProps) {
  const box = useRef<HTMLDivElement>(null);
  /** a new <img> for every try at a scaled picture still in the making */
  const [attempt, setAttempt] = useState(0);
  const [making, setMaking] = useState(false);
  const [thumbShown, setThumbShown] = useState(!!thumbnailUrl);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(retryTimer.current), []);
  const [boxSize, setBoxSize] = useState<Size>({ w: 0, h: 0 });
  const [natural, setNatural] = useState<Size | null>(null);
  const [failed, setFailed] = useState(false);
  const [rotation, setRotation] = useState(0);
  /** null: fitted to the screen */
  const [zoom, setZoom] = useState<number | null>(null);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; from: { x: number; y: number } } | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setBoxSize({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const turned = (rotation / 90) % 2 === 1;
  let fit = 1;
  if (natural && natural.w > 0 && natural.h > 0 && boxSize.w > 0 && boxSize.h > 0) {
    const w = turned ? natural.h : natural.w;
    const h = turned ? natural.w : natural.h;
    // a small picture is not blown up to fit
    fit = Math.min(1, Math.max(boxSize.w - MARGIN * 2, 1) / w, Math.max(boxSize.h - MARGIN * 2, 1) / h);
  }
  const scale = zoom ?? fit;

  const zoomBy = useCallback((factor: number) => setZoom((z) => clamp((z ?? fit) * factor)), [fit]);
  const toFit = () => {
    setZoom(null);
    setOffset({ x: 0, y: 0 });
  };

  // Ctrl + wheel zooms the picture, not the page (a passive React listener could not stop that)
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      zoomBy(e.deltaY < 0 ? STEP : 1 / STEP);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoomBy]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (e.key === 'ArrowLeft' && onPrev) onPrev();
      else if (e.key === 'ArrowRight' && onNext) onNext();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onPrev, onNext]);

  const onPointerDown = (e: PointerEvent<HTMLImageElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    drag.current = { x: e.clientX, y: e.clientY, from: offset };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLImageElement>) => {
    const d = drag.current;
    if (d) setOffset({ x: d.from.x + e.clientX - d.x, y: d.from.y + e.clientY - d.y });
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const onError = () => {
    if (isMadeView(url) && attempt < MADE_RETRIES) {
      setMaking(true);
      retryTimer.current = setTimeout(() => setAttempt((a) => a + 1), MADE_RETRY_MS);
    } else setFailed(true);
  };

  if (failed) return <Result status="warning" title={Messages.imageLoadFailed} subTitle={IMAGE_TEXTS.failedNote} />;

  const tool = (label: string, icon: ReactNode, onClick: () => void, text?: string) => (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} icon={icon} onClick={onClick} style={{ color: '#fff' }}>
        {text}
      </Button>
    </Tooltip>
  );

  return (
    <div ref={box} style={{ position: 'relative', height: '100%', overflow: 'hidden', background: '#2b2b2b', touchAction: 'none' }}>
      {natural ? null : (
        <div style={{ position: 'absolute', inset: 0, display: 'flex', flexDirection: 'column', gap: 12, alignItems: 'center', justifyContent: 'center' }}>
          {thumbnailUrl && thumbShown ? (
            <img
              src={thumbnailUrl}
              alt=""
              aria-hidden="true"
              onError={() => setThumbShown(false)}
              style={{ maxWidth: 'min(256px, 80%)', maxHeight: 'min(256px, 60%)', filter: 'blur(1px)', opacity: 0.85 }}
            />
          ) : null}
          <Spin />
          {making ? <span style={{ color: '#d9d9d9', fontSize: 13 }}>{IMAGE_TEXTS.making}</span> : null}
        </div>
      )}
      <img
        key={attempt}
        src={url}
        alt={name}
        draggable={false}
        data-testid="preview-image"
        onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
        onError={onError}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={() => (zoom === null ? setZoom(1) : toFit())}
        style={{
          position: 'absolute',
          left: '50%',
          top: '50%',
          width: natural ? natural.w : undefined,
          height: natural ? natural.h : undefined,
          maxWidth: 'none',
          visibility: natural ? 'visible' : 'hidden',
          transform: `translate(-50%, -50%) translate(${offset.x}px, ${offset.y}px) rotate(${rotation}deg) scale(${Number(scale.toFixed(4))})`,
          transition: drag.current ? 'none' : 'transform 0.15s ease-out',
          cursor: 'grab',
          imageRendering: scale > 2 ? 'pixelated' : undefined,
        }}
      />
      <div
        role="toolbar"
        aria-label="图片工具"
        style={{
          position: 'absolute',
          left: '50%',
          bottom: mobile ? 12 : 24,
          transform: 'translateX(-50%)',
          display: 'flex',
          alignItems: 'center',
          gap: mobile ? 0 : 4,
          padding: '4px 8px',
          borderRadius: 20,
          background: 'rgba(0, 0, 0, 0.6)',
          zIndex: 30,
        }}
      >
        {tool(IMAGE_TEXTS.zoomOut, <ZoomOutOutlined />, () => zoomBy(1 / STEP))}
        <span data-zoom="" style={{ color: '#fff', minWidth: 48, textAlign: 'center', fontSize: 13 }}>
          {Math.round(scale * 100)}%
        </span>
        {tool(IMAGE_TEXTS.zoomIn, <ZoomInOutlined />, () => zoomBy(STEP))}
        {tool(IMAGE_TEXTS.actualTitle, null, () => setZoom(1), IMAGE_TEXTS.actual)}
        {tool(IMAGE_TEXTS.fit, <ExpandOutlined />, toFit)}
        {tool(IMAGE_TEXTS.rotate, <RotateRightOutlined />, () => setRotation((r) => r + 90))}
      </div>
    </div>
  );
}
