// Standalone page of the ferry remote: mounted at the same path as in the shell.
import { Navigate, Route } from 'react-router-dom';
import { mountStandalone } from '@app/shared/ui';
import App from './App';

mountStandalone(
  <>
    <Route path="/ferry/*" element={<App />} />
    <Route path="*" element={<Navigate to="/ferry" replace />} />
  </>,
);
