// The exchange-space remote of 云文档, mounted by the shell at /swapSpace/*: my ferry
// tasks (in approval, completed, rejected) and received files, ferry settings, statistics and audit.
import { Navigate, Route, Routes } from 'react-router-dom';
import { NotFoundSection, RemoteNav } from '@app/shared/ui';
import AuditPage from './audit/AuditPage';
import meta, { MY_FERRY_STATES } from './meta';
import { MyFerryPage } from './myFerry/MyFerryPage';
import SettingsPage from './settings/SettingsPage';

const nav = <RemoteNav entries={meta.menu} label="交换空间导航" />;

export default function App() {
  return (
    <Routes>
      <Route index element={<Navigate to="myFerry/processing" replace />} />
      <Route path="myFerry" element={<Navigate to="processing" replace />} />
      {MY_FERRY_STATES.map((s) => (
        <Route key={s.key} path={`myFerry/${s.key}`} element={<MyFerryPage state={s.key} nav={nav} />} />
      ))}
      <Route path="setFerry" element={<SettingsPage nav={nav} />} />
      <Route path="audit" element={<AuditPage nav={nav} />} />
      <Route path="*" element={<NotFoundSection />} />
    </Routes>
  );
}
