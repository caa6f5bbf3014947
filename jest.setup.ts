// Shims that jsdom lacks and that antd 6, rc-components and react-router 7 need at import time.
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'node:util';

// findBy… and waitFor wait up to 5 s, not 1 s: on a loaded 2-core machine a page of antd
// components can take longer than a second to settle, and a second made tests flaky
configure({ asyncUtilTimeout: 5000 });

Object.assign(globalThis, { TextEncoder, TextDecoder });

// A MessageChannel built on timers: node:worker_threads' one keeps Jest from exiting.
class TimerMessageChannel {
  port1: any;
  port2: any;
  constructor() {
    const port = (other: () => any) => ({
      onmessage: null as null | ((e: { data: unknown }) => void),
      close() {},
      postMessage: (data: unknown) => setTimeout(() => other().onmessage?.({ data }), 0),
    });
    this.port1 = port(() => this.port2);
    this.port2 = port(() => this.port1);
  }
}
if (!globalThis.MessageChannel) Object.assign(globalThis, { MessageChannel: TimerMessageChannel });

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false, media: query, onchange: null,
    addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {},
    dispatchEvent: () => false,
  }),
});
Object.assign(globalThis, { ResizeObserver: class { observe() {} unobserve() {} disconnect() {} } });
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (el: Element) => computedStyle(el);
