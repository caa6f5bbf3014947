// Standalone page of the 文件摆渡 remote (development): the same providers as the shell,
// the remote mounted at the same path, and a signed-in session from localStorage.
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { AppProviders, StandaloneGate } from '@app/shared/ui';
import App from './App';

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <AppProviders>
      <StandaloneGate>
        <Routes>
          <Route path="/ferry/*" element={<App />} />
          <Route path="*" element={<Navigate to="/ferry" replace />} />
        </Routes>
      </StandaloneGate>
    </AppProviders>
  </BrowserRouter>,
);
