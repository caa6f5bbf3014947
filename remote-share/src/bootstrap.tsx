// Standalone page of the share remote (development): the same providers as the shell.
// The outsourced-share page /s/:shareId is public; the share lists need a session.
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { AppProviders, StandaloneGate } from '@app/shared/ui';
import App from './App';
import SharePage from './SharePage';

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <AppProviders>
      <Routes>
        <Route path="/s/:shareId" element={<SharePage />} />
        <Route
          path="/file/*"
          element={
            <StandaloneGate>
              <App />
            </StandaloneGate>
          }
        />
        <Route path="*" element={<Navigate to="/file/sharelist" replace />} />
      </Routes>
    </AppProviders>
  </BrowserRouter>,
);
