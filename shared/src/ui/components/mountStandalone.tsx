// The standalone page of a remote (served alone for development or checks): the remote's
// routes inside the same providers as the shell, behind StandaloneGate unless a route is
// public (then the remote wraps its signed-in routes in StandaloneGate itself).
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Routes } from 'react-router-dom';
import { AppProviders } from '../AppProviders';
import { StandaloneGate } from './StandaloneGate';

export function mountStandalone(routes: ReactNode, { gate = true }: { gate?: boolean } = {}): void {
  const container = document.getElementById('root');
  if (!container) return;
  const inner = <Routes>{routes}</Routes>;
  createRoot(container).render(
    <BrowserRouter>
      <AppProviders>{gate ? <StandaloneGate>{inner}</StandaloneGate> : inner}</AppProviders>
    </BrowserRouter>,
  );
}
