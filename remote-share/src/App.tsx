// The share remote of 云文档: share records (/file/sharelist) and shared with me
// (/file/shareme). The page is chosen from the last segment of the current path, so it
// works whichever route of the shell mounts it.
import { useLocation } from 'react-router-dom';
import { NotFoundSection, RemoteNav, RemotePage } from '@app/shared/ui';
import meta from './meta';
import { ReceivedPage } from './received/ReceivedPage';
import { SentPage } from './sent/SentPage';

export default function App() {
  const { pathname } = useLocation();
  const last = pathname.split('/').filter(Boolean).pop();
  const page = meta.menu.find((m) => m.key === last);
  if (!page) return <NotFoundSection />;
  return (
    <RemotePage key={page.key} title={page.title} nav={<RemoteNav entries={meta.menu} label="分享导航" />}>
      {page.key === 'sharelist' ? <SentPage /> : <ReceivedPage />}
    </RemotePage>
  );
}
