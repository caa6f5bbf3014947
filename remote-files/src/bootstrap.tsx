// Standalone page of the files remote (development): the same providers as the shell,
// the remote mounted at the same paths, and a signed-in session from localStorage.
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { AppProviders, StandaloneGate } from '@app/shared/ui';
import App from './App';

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <AppProviders>
      <StandaloneGate>
        <Routes>
          <Route path="/file/*" element={<App section="file" />} />
          <Route path="/setting/*" element={<App section="setting" />} />
          <Route path="*" element={<Navigate to="/file/personal" replace />} />
        </Routes>
      </StandaloneGate>
    </AppProviders>
  </BrowserRouter>,
);
