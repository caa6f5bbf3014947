// Standalone page of the share remote. The outsourced-share page /s/:shareId is public;
// the share lists need a session.
import { Navigate, Route } from 'react-router-dom';
import { mountStandalone, StandaloneGate } from '@app/shared/ui';
import App from './App';
import SharePage from './SharePage';

mountStandalone(
  <>
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
  </>,
  { gate: false },
);
