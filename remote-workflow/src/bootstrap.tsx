// Standalone page of the workflow remote: mounted at the same path as in the shell.
import { Navigate, Route } from 'react-router-dom';
import { mountStandalone } from '@app/shared/ui';
import App from './App';

mountStandalone(
  <>
    <Route path="/workflow/*" element={<App />} />
    <Route path="*" element={<Navigate to="/workflow" replace />} />
  </>,
);
