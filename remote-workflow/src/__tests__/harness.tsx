// How the workflow tests render the remote: mounted at /workflow/* as the shell mounts it, with
// the current address and a back button beside it, plus the fixtures of an approval.
import { configure, screen } from '@testing-library/react';
import { Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import type {
  WorkflowDefinition,
  WorkflowInstanceDetail,
  WorkflowInstanceRow,
} from '@app/shared';
import { button, renderWithProviders, type TestSession } from '@app/shared/test';

// the queries every page test uses live in shared/src/test/queries.ts
export { button, panelOf, pickOption, settled, toasts } from '@app/shared/test';
import App from '../App';

// jsdom answers getComputedStyle by matching every rule of every stylesheet antd has injected,
// and ByRole queries call it for each element they look at (visibility) and name (display of
// each child): one such query inside a drawer took seconds. So ByRole skips the visibility
// check (antd mounts what it shows; the dialogs here are destroyed when hidden), and the
// tests find buttons and fields by their text or label (`button`, getByLabelText) instead.
configure({ defaultHidden: true });

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

function Back() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(-1)}>
      浏览器后退
    </button>
  );
}

export function renderAt(route: string, session: TestSession | true = true) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/workflow/*" element={<App />} />
      </Routes>
      <Where />
      <Back />
    </>,
    { route, session },
  );
}


/** The last menu item named `text` of the dropdown menus shown. */
export async function menuItem(text: string) {
  const items = await screen.findAllByText(text, { selector: '.ant-dropdown-menu-title-content' });
  return items[items.length - 1];
}

export const where = () => screen.getByTestId('where').textContent ?? '';
export const ok = (scope: HTMLElement) => button(scope, '确定');

export const lisi = { userId: '7', name: '李四' };
export const zhang = { userId: '1', name: '张三' };

export const row = (over: Partial<WorkflowInstanceRow> = {}): WorkflowInstanceRow => ({
  instanceId: 'i1',
  number: 'SP20261124000012',
  title: '请假申请-张三-2026-11-24',
  definitionId: 'd1',
  source: '',
  sourceId: '',
  definitionName: '请假申请',
  category: '人事',
  initiator: zhang,
  status: 1,
  currentStep: '部门审批',
  pending: [lisi],
  createdAt: '2026-11-24 09:30:00',
  updatedAt: '2026-11-24 09:30:00',
  finishedAt: null,
  ...over,
});

export const leave: WorkflowDefinition = {
  id: 'd1',
  name: '请假申请',
  category: '人事',
  description: '员工请假',
  enabled: true,
  fields: [
    { key: 'days', label: '请假天数', type: 'number', required: true },
    { key: 'start', label: '开始日期', type: 'date', required: true },
    { key: 'kind', label: '请假类型', type: 'select', required: false, options: ['事假', '病假'] },
    { key: 'note', label: '说明', type: 'textarea', required: false },
  ],
  allowFiles: true,
  steps: [{ name: '部门审批', mode: 'sequential', approvers: [{ type: 'initiatorLeader' }] }],
  cc: [],
  revoke: 'untouched',
  autoRemindHours: 0,
  version: 3,
  createdAt: '2026-11-01 10:00:00',
  updatedAt: '2026-11-20 10:00:00',
};

export const expense: WorkflowDefinition = {
  ...leave,
  id: 'd2',
  name: '费用报销',
  category: '财务',
  description: '',
  fields: [],
  allowFiles: false,
  version: 1,
};

export const stopped: WorkflowDefinition = { ...leave, id: 'd3', name: '已停用的流程', enabled: false };

const NONE = { approve: false, reject: false, returnTo: [] as number[], transfer: false, addApprover: false, revoke: false, comment: false, remind: false };

export const detail = (over: Partial<WorkflowInstanceDetail> = {}): WorkflowInstanceDetail => ({
  ...row(),
  fields: [
    { key: 'days', label: '请假天数', type: 'number', value: 3 },
    { key: 'start', label: '开始日期', type: 'date', value: '2026-12-01' },
    { key: 'note', label: '说明', type: 'textarea', value: null },
  ],
  files: [
    { fileId: '12', versionId: '120', name: '病假条.pdf', extension: 'pdf', size: 2048, url: '/Workflow/Instances/i1/Files/12' },
    { fileId: '13', versionId: '130', name: '旧附件.docx', extension: 'docx', size: 1024, url: '' },
  ],
  steps: [
    {
      name: '部门审批',
      mode: 'sequential',
      fallback: false,
      state: 'current',
      tasks: [
        { ...lisi, status: 'pending', from: null },
        { userId: '9', name: '王五', status: 'transferred', from: null },
        { userId: '10', name: '赵六', status: 'approved', from: { userId: '9', name: '王五' } },
      ],
    },
    {
      name: '人事审批',
      mode: 'any',
      fallback: true,
      state: 'waiting',
      tasks: [{ userId: '90', name: '管理员甲', status: 'waiting', from: null }],
    },
  ],
  cc: [{ userId: '20', name: '孙八' }],
  timeline: [
    { id: 'a1', kind: 'start', user: zhang, step: 0, stepName: '部门审批', comment: '家中有事', target: null, toStep: null, status: null, createdAt: '2026-11-24 09:30:00' },
    { id: 'a2', kind: 'transfer', user: { userId: '9', name: '王五' }, step: 0, stepName: '部门审批', comment: '', target: { userId: '10', name: '赵六' }, toStep: null, status: null, createdAt: '2026-11-24 10:00:00' },
    { id: 'a3', kind: 'approve', user: { userId: '10', name: '赵六' }, step: 0, stepName: '部门审批', comment: '同意', target: null, toStep: null, status: null, createdAt: '2026-11-24 10:30:00' },
  ],
  can: NONE,
  ...over,
});

export const CAN_NONE = NONE;
