// The file-ferry remote of 云文档, mounted by the shell at /ferry/* (simple mode): /ferry/file is
// 文件摆渡 (send, my tasks, received files).
import { Navigate, Route, Routes } from 'react-router-dom';
import { NotFoundSection, RemoteNav } from '@app/shared/ui';
import { FerryPage } from './file/FerryPage';
import meta from './meta';

const nav = <RemoteNav entries={meta.menu} label="文件摆渡导航" />;

export default function App() {
  return (
    <Routes>
      <Route index element={<Navigate to="file" replace />} />
      <Route path="file" element={<FerryPage nav={nav} />} />
      <Route path="*" element={<NotFoundSection />} />
    </Routes>
  );
}
