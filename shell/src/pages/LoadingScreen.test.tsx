import fs from 'node:fs';
import path from 'node:path';
import { act, render, screen } from '@testing-library/react';
import { fillStaticLoadingScreen, LoadingScreen } from './LoadingScreen';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

// Each tick is scheduled after React renders the previous one, so time advances tick by tick.
function elapse(ms: number) {
  for (let t = 0; t < ms; t += 30) act(() => jest.advanceTimersByTime(30));
}

describe('LoadingScreen', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fills 1% every 30 ms and reports completion after about 3 seconds', () => {
    const onComplete = jest.fn();
    render(<LoadingScreen onComplete={onComplete} />);
    expect(screen.getByText('加载中')).toBeInTheDocument();
    elapse(1500);
    const half = Number(screen.getByRole('progressbar').getAttribute('aria-valuenow'));
    expect(half).toBeGreaterThanOrEqual(40);
    expect(half).toBeLessThanOrEqual(60);
    expect(onComplete).not.toHaveBeenCalled();
    elapse(2000);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it('completes at once when a client configuration was cached before start', () => {
    const onComplete = jest.fn();
    render(<LoadingScreen immediate onComplete={onComplete} />);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it('jumps to 100 as soon as start-up has cached the configuration', () => {
    const onComplete = jest.fn();
    const { rerender } = render(<LoadingScreen onComplete={onComplete} />);
    elapse(300);
    expect(onComplete).not.toHaveBeenCalled();
    rerender(<LoadingScreen configCached onComplete={onComplete} />);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(onComplete).toHaveBeenCalledTimes(1);
  });
});

// index.html's copy of the screen, shown from the first paint before any script has run
function staticScreen(): HTMLElement {
  const html = fs.readFileSync(path.join(__dirname, '../../public/index.html'), 'utf8');
  const markup = new DOMParser().parseFromString(html, 'text/html').getElementById('root')?.innerHTML;
  if (!markup) throw new Error('index.html has no loading screen in #root');
  const container = document.createElement('div');
  container.innerHTML = markup;
  return container;
}

/** Tags, attributes, styles and text of a tree, so that two renderings of it compare. */
function shape(el: Element): unknown {
  return {
    tag: el.tagName,
    attributes: [...el.attributes].filter((a) => a.name !== 'style').map((a) => `${a.name}=${a.value}`).sort(),
    style: (el as HTMLElement).style.cssText,
    text: [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(''),
    children: [...el.children].map(shape),
  };
}

describe("index.html's loading screen", () => {
  it('is this screen at 0 %, so that React takes it over without a jump', () => {
    const { container } = render(<LoadingScreen />);
    const fromHtml = staticScreen();
    expect(fromHtml.querySelector('.yw-loading__title')?.textContent).toBe('加载中');
    expect(shape(fromHtml.firstElementChild!)).toEqual(shape(container.firstElementChild!));
  });

  it('is shown full when a client configuration is cached, as this screen is', () => {
    const { container } = render(<LoadingScreen immediate />);
    const fromHtml = staticScreen();
    fillStaticLoadingScreen(fromHtml);
    expect(shape(fromHtml.firstElementChild!)).toEqual(shape(container.firstElementChild!));
  });
});
