// The first screen (spec section 2): 加载中 with a bar that gains 1 % every 30 ms, or that
// completes at once when a client configuration is cached: from the start when an earlier
// visit cached one, or as soon as this start-up has fetched and cached it. index.html carries
// the same markup at 0 %, shown before any script runs; bootstrap.tsx renders this component
// in its place when start-up takes long.
import { useEffect, useLayoutEffect, useState } from 'react';
import { LOADING_TICK_MS, LOADING_TICK_PERCENT, Messages } from '@app/shared';
import './public/public.css';

export interface LoadingScreenProps {
  /** start full (a client configuration is cached) */
  immediate?: boolean;
  /** the client configuration has just been fetched and cached: fill the bar now */
  configCached?: boolean;
  /** called once the bar reaches 100 */
  onComplete?: () => void;
}

export function LoadingScreen({ immediate = false, configCached = false, onComplete }: LoadingScreenProps) {
  const [ticked, setTicked] = useState(immediate ? 100 : 0);
  // a cached configuration fills the bar in the same render, not one effect later
  const percent = configCached ? 100 : ticked;
  // reported as the full bar is committed, so that start-up goes on without waiting a frame
  useLayoutEffect(() => {
    if (percent >= 100) onComplete?.();
  }, [percent, onComplete]);
  useEffect(() => {
    if (percent >= 100) return;
    const t = setTimeout(() => setTicked((p) => Math.min(100, p + LOADING_TICK_PERCENT)), LOADING_TICK_MS);
    return () => clearTimeout(t);
  }, [percent]);
  return (
    <div className="yw-screen" role="status" aria-live="polite">
      <div className="yw-loading">
        <div className="yw-brand__logo" style={{ margin: '0 auto' }} aria-hidden="true">
          云
        </div>
        <p className="yw-loading__title">{Messages.loading}</p>
        <div className="yw-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
          <div className="yw-progress__bar" style={{ width: `${percent}%` }} />
        </div>
        <div className="yw-loading__percent">{percent}%</div>
      </div>
    </div>
  );
}

/**
 * index.html's copy of the loading screen (shell/public/index.html, the same markup at 0 %),
 * shown full before React renders anything: a client configuration is cached.
 */
export function fillStaticLoadingScreen(container: HTMLElement): void {
  const bar = container.querySelector<HTMLElement>('.yw-progress__bar');
  if (bar) bar.style.width = '100%';
  container.querySelector('[role="progressbar"]')?.setAttribute('aria-valuenow', '100');
  const percent = container.querySelector('.yw-loading__percent');
  if (percent) percent.textContent = '100%';
}

export function ConfigErrorScreen({ errors }: { errors: string[] }) {
  return (
    <div className="yw-screen">
      <div className="yw-card yw-card--wide" role="alert">
        <h1 className="yw-brand__name" style={{ fontSize: 20 }}>
          运行配置无效，无法启动云文档
        </h1>
        <p className="yw-subtitle" style={{ marginTop: 8 }}>
          请联系管理员检查服务器上的 runtime-config.json：
        </p>
        <ul className="yw-list-errors">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
        <button type="button" className="yw-button" style={{ width: '100%', marginTop: 16 }} onClick={() => window.location.reload()}>
          重新加载
        </button>
      </div>
    </div>
  );
}
