import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { appStore, tokenAtom, WORKFLOW_CHANGED_EVENT } from '@app/shared';
import { WORKFLOW_COUNT_INTERVAL_MS } from './layout/useWorkflowTodo';
import { fakeModules } from './testing/fakeRemotes';
import { allOn, fakeApi, homeOf, renderShell, resetShell, signedIn } from './testing/shellHarness';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

// @ant-design/icons' CommonJS build requires an ES-module file of @ant-design/colors, which
// Jest cannot load; its CommonJS twin is the same code.
jest.mock('@ant-design/colors/es/generate', () => jest.requireActual('@ant-design/colors/lib/generate'));

jest.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: jest.fn(),
  loadRemote: jest.fn(),
}));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;
const mockedRegister = registerRemotes as jest.MockedFunction<typeof registerRemotes>;

// the first import of antd in a test file takes a while
configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(20_000);

const location = () => screen.getByTestId('location').textContent;

beforeEach(() => {
  mockedLoadRemote.mockReset();
  mockedLoadRemote.mockImplementation(async (id: string) => fakeModules[id] ?? null);
  mockedRegister.mockClear();
  resetShell();
});

describe('access rules', () => {
  it('an unauthenticated deep link goes to the login page', async () => {
    fakeApi();
    renderShell('/file/personal/12/34');
    expect(await screen.findByPlaceholderText('请输入用户名')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('请输入密码')).toBeInTheDocument();
    expect(location()).toBe('/login');
  });

  it('public pages open without a token; /agreement shows the service agreement', async () => {
    fakeApi();
    renderShell('/agreement');
    expect(await screen.findByRole('heading', { name: '服务协议' })).toBeInTheDocument();
    expect(location()).toBe('/service');
    // the text the administrator wrote, with its headings and lists
    expect(await screen.findByText('欢迎使用云文档。')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '一、账号' })).toBeInTheDocument();
    expect(screen.getByRole('listitem')).toHaveTextContent('妥善保管密码');
  });

  it('with a token, /login goes to the home page', async () => {
    fakeApi();
    signedIn();
    renderShell('/login');
    expect(await screen.findByText('个人文件页面')).toBeInTheDocument();
    expect(location()).toBe('/file/personal');
  });
});

describe('login page', () => {
  it('signs in and lands on the first shown menu entry of /api/User/Home', async () => {
    const home = homeOf({ file: false });
    const api = fakeApi({
      home,
      policy: { ...allOn, personalSpace: false, publicSpace: false },
      handlers: {
        'POST /api/login': (config) => {
          const body = JSON.parse(String(config.data));
          expect(body).toEqual({ mode: 'password', userName: 'zhangsan', password: 'secret' });
          return { data: { code: 200, message: null, result: {
            userId: '1', userName: 'zhangsan', nickName: '张三', avatar: '', deptName: '', token: 'new-token', jwtId: 'j',
            isTagAdmin: false, isDocAdmin: false, isLdapUser: false, allowBackendLogin: false, allowRepositoryLogin: false,
            isFlowAdmin: false, showGuide: false, passwordReset: false, totpBind: false, totpCode: false,
          } } };
        },
      },
    });
    const user = userEvent.setup();
    renderShell('/login');
    await user.type(await screen.findByPlaceholderText('请输入用户名'), '  zhangsan ');
    await user.type(screen.getByPlaceholderText('请输入密码'), 'secret{Enter}');
    expect(await screen.findByText('流程页面 /workflow/list')).toBeInTheDocument();
    expect(location()).toBe('/workflow/list');
    expect(appStore.get(tokenAtom)).toBe('new-token');
    expect(api.calls).toContain('GET /api/User/Home');
    // the personal and public spaces are off: no 云文档 in the main menu
    const mainMenu = screen.getByRole('menu', { name: '主菜单' });
    expect(within(mainMenu).queryByText('云文档')).toBeNull();
    expect(within(mainMenu).getByText('流程')).toBeInTheDocument();
  });

  it('shows the branding the administrator set: name, logo, background and the browser tab', async () => {
    fakeApi({
      handlers: {
        'GET /api/Client/Branding': () => ({ data: { code: 200, message: null, result: {
          systemName_Client: '星河文档中心', favroiteIcon: '/api/Client/Branding/Images/favicon-00000000000000aa.png',
          login_Background: '/api/Client/Branding/Images/loginBackground-00000000000000bb.webp', logo_Dark: '',
          logo_Dark_Large: '/api/Client/Branding/Images/logoDarkLarge-00000000000000cc.webp',
          logo_Light: '/api/Client/Branding/Images/logoLight-00000000000000dd.webp',
        } } }),
      },
    });
    const { container } = renderShell('/login');
    expect(await screen.findByRole('heading', { name: '星河文档中心' })).toBeInTheDocument();
    expect(container.querySelector('.yw-brand__logo img')).toHaveAttribute('src', '/api/Client/Branding/Images/logoLight-00000000000000dd.webp');
    expect(container.querySelector('.yw-screen__mark')).toHaveAttribute('src', '/api/Client/Branding/Images/logoDarkLarge-00000000000000cc.webp');
    expect((container.querySelector('.yw-screen') as HTMLElement).style.backgroundImage).toContain('loginBackground-00000000000000bb.webp');
    expect(document.title).toBe('星河文档中心');
    expect(document.querySelector('link[rel="icon"][data-branding]')).toHaveAttribute('href', '/api/Client/Branding/Images/favicon-00000000000000aa.png');
  });

  it('shows the server message when sign-in fails, and keeps the form usable', async () => {
    fakeApi({
      handlers: {
        'POST /api/login': () => ({ status: 400, data: { code: 40001, result: null, message: '用户名或密码错误' } }),
      },
    });
    const user = userEvent.setup();
    renderShell('/login');
    await user.type(await screen.findByPlaceholderText('请输入用户名'), 'zhangsan');
    await user.type(screen.getByPlaceholderText('请输入密码'), 'wrong');
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('用户名或密码错误');
    expect(screen.getByRole('button', { name: '登录' })).toBeEnabled();
    expect(location()).toBe('/login');
    expect(appStore.get(tokenAtom)).toBeNull();
  });

  it('falls back to 登录失败，请稍后重试 without a server message, and checks empty fields', async () => {
    fakeApi({ handlers: { 'POST /api/login': () => ({ status: 500, data: 'oops' }) } });
    const user = userEvent.setup();
    renderShell('/login');
    await user.click(await screen.findByRole('button', { name: '登录' }));
    expect(screen.getByRole('alert')).toHaveTextContent('请输入用户名');
    await user.type(screen.getByPlaceholderText('请输入用户名'), 'a');
    await user.type(screen.getByPlaceholderText('请输入密码'), 'b{Enter}');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('登录失败，请稍后重试'));
  });
});

describe('signed-in layout', () => {
  it('shows the product name, the main menu gated by the feature policy, and the user menu', async () => {
    fakeApi();
    signedIn(homeOf(), { ...allOn, workflow: false, ferrySpaces: false });
    renderShell('/file/personal');
    expect(await screen.findByText('个人文件页面')).toBeInTheDocument();
    expect(screen.getByTestId('product-name')).toHaveTextContent('云文档');
    const mainMenu = screen.getByRole('menu', { name: '主菜单' });
    expect(within(mainMenu).getByText('云文档')).toBeInTheDocument();
    expect(within(mainMenu).queryByText('流程')).toBeNull();
    expect(within(mainMenu).queryByText('交换空间')).toBeNull();
    // the side menu comes from files/meta (loaded with the route) plus the shell's entries
    const side = screen.getByRole('menu', { name: '云文档菜单' });
    expect(await within(side).findByText('我的收藏（远程）')).toBeInTheDocument();
    expect(within(side).getByText('分享记录')).toBeInTheDocument();
    expect(within(side).getByText('标签管理')).toBeInTheDocument();
    // the share remote's meta was not requested: its route was not shown
    expect(mockedLoadRemote.mock.calls.map((c) => c[0])).not.toContain('share/meta');
  });

  it('a disabled module in the URL goes back to the home page', async () => {
    fakeApi();
    signedIn(homeOf({ workflow: false }), { ...allOn, workflow: false });
    renderShell('/workflow/list');
    expect(await screen.findByText('个人文件页面')).toBeInTheDocument();
    expect(location()).toBe('/file/personal');
  });

  it('home is the first shown entry; with none, / shows 页面不存在', async () => {
    fakeApi();
    signedIn(homeOf({ file: false, workflow: false, swapSpace: false, setting: false }), {
      personalSpace: false, publicSpace: false, workflow: false, ferrySpaces: false,
    });
    renderShell('/');
    expect((await screen.findAllByText('页面不存在')).length).toBeGreaterThan(0);
    expect(location()).toBe('/404');
  });

  it('redirects /file, /setting, /swapSpace and /workflow to their first pages', async () => {
    fakeApi();
    signedIn();
    const { unmount } = renderShell('/swapSpace');
    expect(await screen.findByText('交换空间页面')).toBeInTheDocument();
    expect(location()).toBe('/swapSpace/myFerry/processing');
    unmount();
    renderShell('/setting');
    expect(await screen.findByText('标签管理页面')).toBeInTheDocument();
    expect(location()).toBe('/setting/tag');
  });

  it('an unknown path shows 页面不存在', async () => {
    fakeApi();
    signedIn();
    renderShell('/nothing/here');
    expect((await screen.findAllByText('页面不存在')).length).toBeGreaterThan(0);
    // its tab is named in Chinese too, not after the path
    await waitFor(() => expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['个人文件', '页面不存在']));
  });

  it('退出登录 in the user menu signs out', async () => {
    const api = fakeApi();
    signedIn();
    const user = userEvent.setup();
    renderShell('/file/personal');
    await user.click(await screen.findByRole('button', { name: /用户菜单/ }));
    await user.click(await screen.findByText('退出登录'));
    expect(await screen.findByPlaceholderText('请输入用户名')).toBeInTheDocument();
    expect(api.calls).toContain('POST /api/login/quit');
    expect(appStore.get(tokenAtom)).toBeNull();
  });
});

describe('remote loading', () => {
  it('a failing remote shows 模块加载失败; 重试 loads it again; the menu keeps working', async () => {
    fakeApi();
    signedIn();
    // the files remote's manifest cannot be fetched at first: neither its meta nor its App load
    let filesDown = true;
    mockedLoadRemote.mockImplementation(async (id: string) => {
      if (id.startsWith('files/') && filesDown) throw new Error('[ Federation Runtime ]: RUNTIME-003 Failed to get manifest');
      return fakeModules[id] ?? null;
    });
    const user = userEvent.setup();
    renderShell('/file/personal');
    expect(await screen.findByText('模块加载失败')).toBeInTheDocument();
    // the side menu falls back to the shell's own entries
    expect(within(screen.getByRole('menu', { name: '云文档菜单' })).getByText('个人文件')).toBeInTheDocument();

    // the menu still works while the area has failed
    await user.click(within(screen.getByRole('menu', { name: '主菜单' })).getByText('流程'));
    expect(await screen.findByText('流程页面 /workflow/list')).toBeInTheDocument();

    // the remote is back; back to the files area: it retries on its own mount...
    filesDown = false;
    await user.click(within(screen.getByRole('menu', { name: '主菜单' })).getByText('云文档'));
    expect(await screen.findByText('个人文件页面')).toBeInTheDocument();
    expect(mockedLoadRemote.mock.calls.filter((c) => c[0] === 'files/App')).toHaveLength(1);
  });

  it('重试 re-mounts the area with a fresh load', async () => {
    fakeApi();
    signedIn();
    let attempts = 0;
    mockedLoadRemote.mockImplementation(async (id: string) => {
      if (id === 'workflow/App') {
        attempts += 1;
        if (attempts === 1) throw new Error('network down');
      }
      return fakeModules[id] ?? null;
    });
    renderShell('/workflow/list');
    const retry = await screen.findByRole('button', { name: /重\s?试/ });
    expect(screen.getByText('模块加载失败')).toBeInTheDocument();
    fireEvent.click(retry);
    expect(await screen.findByText('流程页面 /workflow/list')).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('a remote whose module is not a component is a clean failure', async () => {
    fakeApi();
    signedIn();
    mockedLoadRemote.mockImplementation(async (id: string) => (id === 'swapspace/App' ? { default: 42 } : fakeModules[id] ?? null));
    renderShell('/swapSpace/audit');
    expect(await screen.findByText('模块加载失败')).toBeInTheDocument();
    expect(screen.getByText(/模块内容无效/)).toBeInTheDocument();
  });

  it('the public share page renders share/SharePage without signing in', async () => {
    fakeApi();
    renderShell('/s/abc123');
    expect(await screen.findByText('外链分享页面')).toBeInTheDocument();
    expect(mockedLoadRemote).toHaveBeenCalledWith('share/SharePage');
  });

  it('the preview pages render files/Preview without signing in, with the address data', async () => {
    fakeApi();
    const view = renderShell('/preview/eyJmaWxlSWQiOiIxMiJ9');
    expect(await screen.findByText('预览页面 eyJmaWxlSWQiOiIxMiJ9 桌面端')).toBeInTheDocument();
    expect(mockedLoadRemote).toHaveBeenCalledWith('files/Preview');
    expect(location()).toBe('/preview/eyJmaWxlSWQiOiIxMiJ9');
    view.unmount();
    renderShell('/mobilityPreview?previewData=abc');
    expect(await screen.findByText('预览页面 abc 移动端')).toBeInTheDocument();
  });

  it('/previewVideo shows the same preview page', async () => {
    fakeApi();
    renderShell('/previewVideo?previewData=v1');
    expect(await screen.findByText('预览页面 v1 桌面端')).toBeInTheDocument();
  });
});

describe('tabs', () => {
  it('opens a tab per page; the home tab is fixed; 关闭其他 and 关闭全部 keep it', async () => {
    fakeApi();
    signedIn();
    const user = userEvent.setup();
    renderShell('/file/personal');
    expect(await screen.findByText('个人文件页面')).toBeInTheDocument();
    const main = () => within(screen.getByRole('menu', { name: '主菜单' }));
    await user.click(main().getByText('流程'));
    await screen.findByText('流程页面 /workflow/list');
    await user.click(main().getByText('交换空间'));
    await screen.findByText('交换空间页面');
    const tabs = () => screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs()).toEqual(['个人文件', '流程列表', '我的摆渡']);
    // the fixed home tab has no close control
    expect(screen.getAllByRole('tab')[0].parentElement?.querySelector('[aria-label="remove"], .ant-tabs-tab-remove')).toBeNull();

    // right click on 流程列表 → 关闭其他
    fireEvent.contextMenu(screen.getByText('流程列表', { selector: '[data-tab-key]' }));
    await user.click(await screen.findByText('关闭其他'));
    await waitFor(() => expect(tabs()).toEqual(['个人文件', '流程列表']));
    expect(location()).toBe('/workflow/list');

    await user.click(screen.getByRole('button', { name: /标签页操作/ }));
    const closeAll = await screen.findAllByText('关闭全部');
    await user.click(closeAll[closeAll.length - 1]);
    await waitFor(() => expect(tabs()).toEqual(['个人文件']));
    expect(location()).toBe('/file/personal');
  });

  it('a bare section path opens no tab of its own, only the page it leads to', async () => {
    fakeApi();
    signedIn();
    renderShell('/swapSpace');
    expect(await screen.findByText('交换空间页面')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['个人文件', '我的摆渡']));
  });

  it('dragging a tab onto another reorders them', async () => {
    fakeApi();
    signedIn();
    const user = userEvent.setup();
    renderShell('/file/personal');
    await screen.findByText('个人文件页面');
    await user.click(within(screen.getByRole('menu', { name: '主菜单' })).getByText('流程'));
    await screen.findByText('流程页面 /workflow/list');
    const tabLabel = (t: string) => screen.getByText(t, { selector: '[data-tab-key]' });
    const data = new Map<string, string>();
    const dataTransfer = { setData: (k: string, v: string) => data.set(k, v), getData: (k: string) => data.get(k) ?? '', effectAllowed: '' };
    act(() => {
      fireEvent.dragStart(tabLabel('流程列表'), { dataTransfer });
      fireEvent.dragOver(tabLabel('个人文件'), { dataTransfer });
      fireEvent.drop(tabLabel('个人文件'), { dataTransfer });
    });
    await waitFor(() => expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['流程列表', '个人文件']));
  });
});

describe('the todo count on 流程', () => {
  const countsOf = (todo: number) => () => ({ data: { code: 200, message: null, result: { todo, done: 1, mine: 2, cc: 0 } } });
  const countCalls = (api: { calls: string[] }) => api.calls.filter((c) => c === 'GET /api/Workflow/Counts').length;
  const mainMenu = () => within(screen.getByRole('menu', { name: '主菜单' }));

  it('shows 待我审批 on 流程 and asks again on a change, on entering /workflow and every 60 s; failures stay quiet', async () => {
    const api = fakeApi({ handlers: { 'GET /api/Workflow/Counts': countsOf(3) } });
    const intervals = jest.spyOn(window, 'setInterval');
    signedIn();
    const user = userEvent.setup();
    renderShell('/file/personal');
    expect(await screen.findByText('个人文件页面')).toBeInTheDocument();
    expect(await mainMenu().findByTitle('待我审批 3 条')).toHaveTextContent('3');
    expect(mainMenu().getByText('流程')).toBeInTheDocument();

    // the workflow remote announces a change
    api.handlers['GET /api/Workflow/Counts'] = countsOf(5);
    act(() => {
      window.dispatchEvent(new Event(WORKFLOW_CHANGED_EVENT));
    });
    expect(await mainMenu().findByTitle('待我审批 5 条')).toBeInTheDocument();

    // entering /workflow
    api.handlers['GET /api/Workflow/Counts'] = countsOf(2);
    await user.click(mainMenu().getByText('流程'));
    expect(await screen.findByText('流程页面 /workflow/list')).toBeInTheDocument();
    expect(await mainMenu().findByTitle('待我审批 2 条')).toBeInTheDocument();

    // every 60 s
    const tick = intervals.mock.calls.filter(([, ms]) => ms === WORKFLOW_COUNT_INTERVAL_MS).pop()?.[0] as () => void;
    expect(tick).toBeInstanceOf(Function);
    api.handlers['GET /api/Workflow/Counts'] = countsOf(7);
    act(() => tick());
    expect(await mainMenu().findByTitle('待我审批 7 条')).toBeInTheDocument();

    // a failure: no message, the last number stays
    api.handlers['GET /api/Workflow/Counts'] = () => ({ status: 500, data: { code: 500, result: null, message: '统计服务暂不可用' } });
    const before = countCalls(api);
    act(() => {
      window.dispatchEvent(new Event(WORKFLOW_CHANGED_EVENT));
    });
    await waitFor(() => expect(countCalls(api)).toBe(before + 1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('统计服务暂不可用')).toBeNull();
    expect(mainMenu().getByTitle('待我审批 7 条')).toBeInTheDocument();

    // nothing to do: no number
    api.handlers['GET /api/Workflow/Counts'] = countsOf(0);
    act(() => {
      window.dispatchEvent(new Event(WORKFLOW_CHANGED_EVENT));
    });
    await waitFor(() => expect(mainMenu().queryByTitle(/待我审批/)).toBeNull());
    intervals.mockRestore();
  });

  it('is not asked for when the workflow feature is off', async () => {
    const api = fakeApi({ handlers: { 'GET /api/Workflow/Counts': countsOf(3) } });
    signedIn(homeOf({ workflow: false }), { ...allOn, workflow: false });
    renderShell('/file/personal');
    expect(await screen.findByText('个人文件页面')).toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new Event(WORKFLOW_CHANGED_EVENT));
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(countCalls(api)).toBe(0);
    expect(screen.queryByTitle(/待我审批/)).toBeNull();
  });
});
