// Mounted by the shell's router: loads the upload chunk (engine, panel, drag mask, conflict
// dialog) only once someone is signed in, or on a public share page, so the sign-in page
// stays small.
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router-dom';
import { useToken } from '@app/shared';

const UploadHost = lazy(() => import('./UploadHost'));

export function UploadRoot() {
  const token = useToken();
  const { pathname } = useLocation();
  if (!token && !pathname.startsWith('/s/')) return null;
  return (
    <Suspense fallback={null}>
      <UploadHost />
    </Suspense>
  );
}
