import { act, render, screen } from '@testing-library/react';
import { LoadingScreen } from './LoadingScreen';
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
