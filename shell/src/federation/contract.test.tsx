// Independent deploys across releases: remotes one contract version behind and one ahead of
// today's shell load and render; a remote far outside the range the shell supports is refused
// with a notice in its place only, logged to the error log, while the menus and the other
// remotes keep working.
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { getErrorLog, REMOTE_CONTRACT_MAX, REMOTE_CONTRACT_MIN, REMOTE_CONTRACT_VERSION } from '@app/shared';
import { useInlineStylesOnly } from '@app/shared/test';
import { fakeModules, fixtureRemote } from '../testing/fakeRemotes';
import { fakeApi, renderShell, resetShell, signedIn } from '../testing/shellHarness';
import { checkContract, contractMismatchMessage, declaredContract, RemoteContractError } from './contract';
import { loadRemoteMeta } from './remotes';

jest.mock('@ant-design/colors/es/generate', () => jest.requireActual('@ant-design/colors/lib/generate'));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);
useInlineStylesOnly();

const BEHIND = REMOTE_CONTRACT_VERSION - 1;
const AHEAD = REMOTE_CONTRACT_VERSION + 1;
const FAR_AHEAD = REMOTE_CONTRACT_MAX + 2;

/** Serves today's fake remotes with some of them replaced. */
function serve(...overrides: Record<string, unknown>[]) {
  const modules = Object.assign({}, fakeModules, ...overrides);
  mockedLoadRemote.mockImplementation(async (id: string) => modules[id] ?? null);
}

const loadedIds = () => mockedLoadRemote.mock.calls.map((c) => c[0]);
const remoteLogEntries = () => getErrorLog().filter((e) => e.type === 'remote');

beforeEach(() => {
  mockedLoadRemote.mockReset();
  resetShell();
  // React reports every error an error boundary caught on console.error: for a refused remote
  // that is expected; anything else still shows
  const realError = console.error;
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (args.some((a) => a instanceof RemoteContractError)) return;
    realError(...args);
  });
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('the contract version', () => {
  it('is declared in shared and the build inlines the same number', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { readContractVersion } = require('../../../shared/build/contract.cjs') as { readContractVersion: () => number };
    expect(readContractVersion()).toBe(REMOTE_CONTRACT_VERSION);
    expect([REMOTE_CONTRACT_MIN, REMOTE_CONTRACT_MAX]).toEqual([REMOTE_CONTRACT_VERSION - 1, REMOTE_CONTRACT_VERSION + 1]);
  });

  it('a meta without a version is version 1; anything but a positive integer is invalid', () => {
    expect(declaredContract({})).toBe(1);
    expect(declaredContract({ contract: 4 })).toBe(4);
    for (const bad of [0, -1, 2.5, '2', null, Number.NaN]) expect(declaredContract({ contract: bad as never })).toBeNull();
  });

  it('runs the same version, one behind and one ahead; refuses the rest', () => {
    expect(checkContract({ contract: REMOTE_CONTRACT_VERSION })).toEqual({ ok: true, version: REMOTE_CONTRACT_VERSION, relation: 'same' });
    expect(checkContract({ contract: BEHIND })).toMatchObject({ ok: true, relation: 'older' });
    expect(checkContract({ contract: AHEAD })).toMatchObject({ ok: true, relation: 'newer' });
    expect(checkContract({ contract: FAR_AHEAD })).toMatchObject({ ok: false, version: FAR_AHEAD, relation: 'newer' });
    expect(checkContract({ contract: 'v2' as never })).toMatchObject({ ok: false, version: null, relation: 'invalid' });
  });

  it('names the mismatch in Chinese, with the way out', () => {
    expect(contractMismatchMessage('files', { ok: false, version: 1, declared: 1, relation: 'older' })).toBe(
      `文件模块的版本（契约 1）与外壳（契约 ${REMOTE_CONTRACT_VERSION}）不兼容，请更新该模块的部署。`,
    );
    expect(contractMismatchMessage('workflow', { ok: false, version: 9, declared: 9, relation: 'newer' })).toBe(
      `流程模块的版本（契约 9）与外壳（契约 ${REMOTE_CONTRACT_VERSION}）不兼容：该模块比外壳新，请先更新外壳的部署，或回退该模块。`,
    );
    expect(contractMismatchMessage('share', { ok: false, version: null, declared: 'v2', relation: 'invalid' })).toBe(
      `分享模块声明的契约版本无效（"v2"），与外壳（契约 ${REMOTE_CONTRACT_VERSION}）不兼容，请检查该模块的部署。`,
    );
  });

  it('loadRemoteMeta adapts a meta it can run and refuses one it cannot', async () => {
    serve(fixtureRemote('files', undefined), fixtureRemote('workflow', FAR_AHEAD));
    await expect(loadRemoteMeta('files')).resolves.toMatchObject({ name: 'files', contract: 1 });
    await expect(loadRemoteMeta('workflow')).rejects.toBeInstanceOf(RemoteContractError);
  });
});

describe('remotes from other releases against today\'s shell', () => {
  it(`a remote one version behind (contract ${BEHIND}, no version in its meta) loads and renders with today's props`, async () => {
    expect(BEHIND).toBe(1); // today's "one behind" is a remote built before the contract had a number
    fakeApi();
    signedIn();
    serve(fixtureRemote('files', undefined));
    renderShell('/file/personal');
    expect(await screen.findByText(`files 远程（契约 ${BEHIND}） {"section":"file"}`)).toBeInTheDocument();
    expect(screen.queryByText('模块版本不兼容')).not.toBeInTheDocument();
    expect(loadedIds()).toEqual(expect.arrayContaining(['files/meta', 'files/App']));
    expect(remoteLogEntries()).toEqual([]);
  });

  it(`a remote one version ahead (contract ${AHEAD}, with meta fields today's shell does not know) loads and renders`, async () => {
    fakeApi();
    signedIn();
    serve(fixtureRemote('workflow', AHEAD, { extraMeta: { badges: { list: 'todo' } } }));
    renderShell('/workflow/list');
    expect(await screen.findByText(`workflow 远程（契约 ${AHEAD}）`)).toBeInTheDocument();
    // its menu comes through as well
    expect(within(screen.getByRole('menu', { name: '流程菜单' })).getByText('流程列表')).toBeInTheDocument();
    expect(remoteLogEntries()).toEqual([]);
  });

  it('one behind and one ahead side by side: both render while switching between them', async () => {
    fakeApi();
    signedIn();
    serve(fixtureRemote('files', BEHIND === 1 ? undefined : BEHIND), fixtureRemote('workflow', AHEAD));
    const user = userEvent.setup();
    renderShell('/file/personal');
    expect(await screen.findByText(/^files 远程（契约 1）/)).toBeInTheDocument();
    await user.click(within(screen.getByRole('menu', { name: '主菜单' })).getByText('流程'));
    expect(await screen.findByText(`workflow 远程（契约 ${AHEAD}）`)).toBeInTheDocument();
    await user.click(within(screen.getByRole('menu', { name: '主菜单' })).getByText('云文档'));
    expect(await screen.findByText(/^files 远程（契约 1）/)).toBeInTheDocument();
  });

  it('a remote far outside the range is refused in its place only, logged, and the menus and other remotes keep working', async () => {
    fakeApi();
    signedIn();
    serve(fixtureRemote('workflow', FAR_AHEAD));
    const user = userEvent.setup();
    renderShell('/workflow/list');
    const notice = await screen.findByRole('alert');
    expect(within(notice).getByText('模块版本不兼容')).toBeInTheDocument();
    const message = `流程模块的版本（契约 ${FAR_AHEAD}）与外壳（契约 ${REMOTE_CONTRACT_VERSION}）不兼容：该模块比外壳新，请先更新外壳的部署，或回退该模块。`;
    expect(within(notice).getByText(message)).toBeInTheDocument();
    // nothing of the refused remote's pages was loaded
    expect(loadedIds()).not.toContain('workflow/App');
    // the side menu falls back to the shell's own entries
    expect(within(screen.getByRole('menu', { name: '流程菜单' })).getByText('流程列表')).toBeInTheDocument();
    expect(remoteLogEntries()).toEqual([
      expect.objectContaining({
        type: 'remote',
        message,
        url: 'workflow/App',
        detail: `模块契约 ${FAR_AHEAD}，外壳契约 ${REMOTE_CONTRACT_VERSION}，外壳支持契约 ${REMOTE_CONTRACT_MIN}–${REMOTE_CONTRACT_MAX}`,
      }),
    ]);

    // the main menu still works, and today's files remote renders
    await user.click(within(screen.getByRole('menu', { name: '主菜单' })).getByText('云文档'));
    expect(await screen.findByText('个人文件页面')).toBeInTheDocument();
    expect(screen.queryByText('模块版本不兼容')).not.toBeInTheDocument();
  });

  it('the public preview page shows the notice in place of a refused files remote', async () => {
    fakeApi();
    serve(fixtureRemote('files', FAR_AHEAD, { exposes: ['App', 'Preview'] }));
    renderShell('/preview/abc');
    expect(await screen.findByText('模块版本不兼容')).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`^文件模块的版本（契约 ${FAR_AHEAD}）`))).toBeInTheDocument();
    expect(loadedIds()).not.toContain('files/Preview');
  });
});
