// The file-ferry remote of 云文档, mounted by the shell at /ferry/* (simple mode).
import { Navigate, Route, Routes } from 'react-router-dom';
import { NotFoundSection, RemoteNav, UnavailablePage } from '@app/shared/ui';
import meta from './meta';

export default function App() {
  return (
    <Routes>
      <Route index element={<Navigate to="file" replace />} />
      <Route path="file" element={<UnavailablePage title="文件摆渡" nav={<RemoteNav entries={meta.menu} label="文件摆渡导航" />} />} />
      <Route path="*" element={<NotFoundSection />} />
    </Routes>
  );
}
