// The workflow remote of 云文档, mounted by the shell at /workflow/*: the workflow list
// (list/{path...}) and the process details. Routes are relative to the mount.
import { Navigate, Route, Routes } from 'react-router-dom';
import { NotFoundSection, RemoteNav, UnavailablePage } from '@app/shared/ui';
import meta from './meta';

const nav = <RemoteNav entries={meta.menu} label="流程导航" />;

export default function App() {
  return (
    <Routes>
      <Route index element={<Navigate to="list" replace />} />
      <Route path="list/*" element={<UnavailablePage title="流程列表" nav={nav} />} />
      <Route path="informationDetails" element={<UnavailablePage title="流程详情" nav={nav} />} />
      <Route path="*" element={<NotFoundSection />} />
    </Routes>
  );
}
