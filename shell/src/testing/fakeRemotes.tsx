// Fake remote modules for the shell's tests (the real remotes are tested in their packages).
import { Route, Routes, useLocation } from 'react-router-dom';
import { REMOTE_CONTRACT_VERSION, remoteMeta, type RemoteMeta, type RemoteName } from '@app/shared';

export function FilesApp({ section }: { section?: string }) {
  return (
    <Routes>
      <Route path="personal/*" element={<h2>个人文件页面</h2>} />
      <Route path="public/*" element={<h2>企业文件页面</h2>} />
      <Route path="tag" element={<h2>{section === 'setting' ? '标签管理页面' : '标签页面'}</h2>} />
      <Route path="*" element={<h2>文件其他页面</h2>} />
    </Routes>
  );
}

export function WorkflowApp() {
  const { pathname } = useLocation();
  return <h2>流程页面 {pathname}</h2>;
}

export function SwapApp() {
  return <h2>交换空间页面</h2>;
}

export function FerryApp() {
  return <h2>文件摆渡页面</h2>;
}

export function ShareApp() {
  const { pathname } = useLocation();
  return <h2>分享页面 {pathname}</h2>;
}

export const filesMeta: RemoteMeta = {
  name: 'files',
  title: '云文档',
  contract: REMOTE_CONTRACT_VERSION,
  menu: [
    { key: 'personal', path: '/file/personal', title: '个人文件', icon: 'UserOutlined', feature: 'personalSpace' },
    { key: 'public', path: '/file/public', title: '企业文件', icon: 'BankOutlined', feature: 'publicSpace' },
    { key: 'favorite', path: '/file/favorite', title: '我的收藏（远程）', icon: 'StarOutlined' },
  ],
};

export const workflowMeta: RemoteMeta = {
  name: 'workflow',
  title: '流程',
  contract: REMOTE_CONTRACT_VERSION,
  menu: [{ key: 'list', path: '/workflow/list', title: '流程列表', feature: 'workflow' }],
};

export const fakeModules: Record<string, unknown> = {
  'files/App': { default: FilesApp },
  'files/meta': { default: filesMeta },
  'workflow/App': { default: WorkflowApp },
  'workflow/meta': { default: workflowMeta },
  'swapspace/App': { default: SwapApp },
  'swapspace/meta': {
    default: {
      name: 'swapspace',
      title: '交换空间',
      contract: REMOTE_CONTRACT_VERSION,
      menu: [
        { key: 'myFerry', path: '/swapSpace/myFerry/processing', title: '我的摆渡', feature: 'ferrySpaces' },
        { key: 'audit', path: '/swapSpace/audit', title: '统计审计', feature: 'ferrySpaces' },
      ],
    },
  },
  'ferry/App': { default: FerryApp },
  'ferry/meta': { default: { name: 'ferry', title: '文件摆渡', contract: REMOTE_CONTRACT_VERSION, menu: [{ key: 'file', path: '/ferry/file', title: '文件摆渡' }] } },
  'share/App': { default: ShareApp },
  'share/meta': { default: { name: 'share', title: '分享', contract: REMOTE_CONTRACT_VERSION, menu: [] } },
  'share/SharePage': { default: () => <h2>外链分享页面</h2> },
  'files/Preview': {
    default: ({ previewData, mobile }: { previewData: string; mobile?: boolean }) => (
      <h2>
        预览页面 {previewData} {mobile ? '移动端' : '桌面端'}
      </h2>
    ),
  },
};

/**
 * The exposed modules of a remote deployed from another release: its './meta' declares
 * `contract` (none at all for version 1, as remotes built before the contract had a number),
 * and every other module renders 「<name> 远程（契约 N）」 with the props it got.
 * `extraMeta` adds fields a newer release may publish.
 */
export function fixtureRemote(
  name: RemoteName,
  contract: number | undefined,
  { exposes = ['App'], extraMeta = {} }: { exposes?: string[]; extraMeta?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const meta = remoteMeta(name); // no `contract` field
  const modules: Record<string, unknown> = {
    [`${name}/meta`]: { default: { ...meta, ...(contract === undefined ? {} : { contract }), ...extraMeta } },
  };
  for (const expose of exposes) {
    const Fixture = (props: Record<string, unknown>) => (
      <h2>
        {name} 远程（契约 {contract ?? 1}）{Object.keys(props).length ? ` ${JSON.stringify(props)}` : ''}
      </h2>
    );
    modules[`${name}/${expose}`] = { default: Fixture };
  }
  return modules;
}
