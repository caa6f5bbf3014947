// The exchange-space remote of 云文档, mounted by the shell at /swapSpace/*: my ferry
// tasks (in approval, completed, rejected), ferry settings, statistics and audit.
import { Navigate, Route, Routes } from 'react-router-dom';
import { NotFoundSection, RemoteNav, RemotePage, UnavailablePage, UnavailableSection } from '@app/shared/ui';
import meta, { MY_FERRY_STATES } from './meta';

const nav = <RemoteNav entries={meta.menu} label="交换空间导航" />;

function MyFerryPage({ state }: { state: string }) {
  return (
    <RemotePage
      title="我的摆渡"
      nav={
        <>
          {nav}
          <RemoteNav entries={MY_FERRY_STATES} variant="segmented" label="摆渡状态" />
        </>
      }
    >
      <UnavailableSection feature={`我的摆渡 · ${state}`} />
    </RemotePage>
  );
}

export default function App() {
  return (
    <Routes>
      <Route index element={<Navigate to="myFerry/processing" replace />} />
      <Route path="myFerry" element={<Navigate to="processing" replace />} />
      {MY_FERRY_STATES.map((s) => (
        <Route key={s.key} path={`myFerry/${s.key}`} element={<MyFerryPage state={s.title} />} />
      ))}
      <Route path="setFerry" element={<UnavailablePage title="摆渡设置" nav={nav} />} />
      <Route path="audit" element={<UnavailablePage title="统计审计" nav={nav} />} />
      <Route path="*" element={<NotFoundSection />} />
    </Routes>
  );
}
