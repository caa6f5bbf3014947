import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, REMOTE_CONTRACT_VERSION } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import App from './App';
import meta from './meta';

useInlineStylesOnly();

// whole pages render here (antd forms and tables): on a loaded 2-core machine one can take more
// than jest's default 5 s
jest.setTimeout(20_000);

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

const renderAt = (route: string) =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/file/*" element={<App section="file" />} />
        <Route path="/setting/*" element={<App section="setting" />} />
      </Routes>
      <Where />
    </>,
    { route, session: true },
  );

describe('files meta', () => {
  it('lists the file pages with their paths and feature gates', () => {
    expect(meta.name).toBe('files');
    // the shell ↔ remote contract version this remote reports (shared/src/contract.ts)
    expect(meta.contract).toBe(REMOTE_CONTRACT_VERSION);
    expect(meta.menu.map((m) => [m.title, m.path, m.feature])).toEqual([
      ['个人文件', '/file/personal', 'personalSpace'],
      ['企业文件', '/file/public', 'publicSpace'],
      ['我的收藏', '/file/favorite', undefined],
      ['标签', '/file/tag', undefined],
      ['回收站', '/file/recycle', undefined],
      ['高级搜索', '/file/advancedSearch', undefined],
    ]);
    expect(new Set(meta.menu.map((m) => m.key)).size).toBe(meta.menu.length);
  });
});

describe('files pages', () => {
  beforeEach(() => {
    jest.spyOn(api, 'getFavoriteCategories').mockResolvedValue([{ id: 0, name: '默认收藏夹', count: 0 }]);
    jest.spyOn(api, 'getFavorites').mockResolvedValue({ data: [], total: 0 });
    jest.spyOn(api, 'getTags').mockResolvedValue([]);
  });
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['/file/favorite', '我的收藏'],
    ['/file/tag', '标签'],
    ['/file/advancedSearch', '高级搜索'],
  ])('%s shows %s, a working page (no longer 该功能尚未开放)', async (route, title) => {
    renderAt(route);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.queryByText(/该功能尚未开放/)).not.toBeInTheDocument();
  });

  it('/file goes to personal files and an unknown page says 页面不存在', async () => {
    renderAt('/file/nothing-here');
    expect(await screen.findByText('页面不存在')).toBeInTheDocument();
  });
});

describe('settings section', () => {
  beforeEach(() => jest.spyOn(api, 'getTags').mockResolvedValue([]));
  afterEach(() => jest.restoreAllMocks());

  it('/setting goes to 标签管理 (its own tests are in setting/TagSettingPage.test.tsx)', async () => {
    renderAt('/setting');
    expect(await screen.findByRole('heading', { name: '标签管理' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/setting/tag');
    expect(await screen.findByText('还没有标签')).toBeInTheDocument();
    expect(api.getTags).toHaveBeenCalled();
    expect(screen.queryByText(/该功能尚未开放/)).not.toBeInTheDocument();
  });

  it('关于 names the product and its version, reached through the tabs', async () => {
    renderAt('/setting/tag');
    fireEvent.click(await screen.findByRole('tab', { name: '关于' }));
    expect(await screen.findByRole('heading', { name: '关于' })).toBeInTheDocument();
    expect(screen.getByText('云文档')).toBeInTheDocument();
    expect(screen.getByText('1.1.0')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/setting/about');
  });
});
