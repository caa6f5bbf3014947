// The workflow remote of 云文档 (issue 12, approvals), mounted by the shell at /workflow/*:
// - list/{box}: 待我审批 (todo), 我已审批 (done), 我发起的 (mine), 抄送我的 (cc), with 发起审批;
//   list and any other list/{path...} lead to list/todo;
// - list/definitions: 流程管理 for flow admins;
// - informationDetails?id=: one approval.
// Routes are relative to the mount.
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router-dom';
import type { WorkflowBox } from '@app/shared';
import { NotFoundSection, RemoteNav } from '@app/shared/ui';
import { DefinitionsPage } from './definitions/DefinitionsPage';
import { DetailsPage } from './details/DetailsPage';
import { ListPage } from './list/ListPage';
import meta from './meta';
import { BOXES, paths } from './texts';

const nav = <RemoteNav entries={meta.menu} label="流程导航" />;

/** /workflow/list (and an unknown list/{path...}) opens 待我审批, keeping the query. */
function ToTodo() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: paths.list('todo'), search }} replace />;
}

function ListRoute() {
  const { box = '', '*': rest = '' } = useParams();
  if (box === 'definitions' && !rest) return <DefinitionsPage nav={nav} />;
  if (!BOXES.includes(box as WorkflowBox) || rest) return <ToTodo />;
  return <ListPage box={box as WorkflowBox} nav={nav} />;
}

export default function App() {
  return (
    <Routes>
      <Route index element={<ToTodo />} />
      <Route path="list" element={<ToTodo />} />
      <Route path="list/:box/*" element={<ListRoute />} />
      <Route path="informationDetails" element={<DetailsPage nav={nav} />} />
      <Route path="*" element={<NotFoundSection />} />
    </Routes>
  );
}
