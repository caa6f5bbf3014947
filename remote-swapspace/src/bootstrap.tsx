// Standalone page of the swapspace remote: mounted at the same path as in the shell.
import { Navigate, Route } from 'react-router-dom';
import { mountStandalone } from '@app/shared/ui';
import App from './App';

mountStandalone(
  <>
    <Route path="/swapSpace/*" element={<App />} />
    <Route path="*" element={<Navigate to="/swapSpace" replace />} />
  </>,
);
