import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { renderWithProviders } from '@app/shared/test';
import App from './App';
import SharePage from './SharePage';
import meta from './meta';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

it('meta lists 分享记录 and 与我共享 under /file', () => {
  expect(meta.name).toBe('share');
  expect(meta.menu.map((m) => [m.title, m.path])).toEqual([
    ['分享记录', '/file/sharelist'],
    ['与我共享', '/file/shareme'],
  ]);
});

describe('share lists', () => {
  // the shell may mount the remote on each page's own path or on a wider one
  it.each([
    ['/file/sharelist', '/file/sharelist'],
    ['/file/*', '/file/shareme'],
  ])('mounted at %s, %s shows its page, navigation and note', async (mount, route) => {
    renderWithProviders(
      <>
        <Routes>
          <Route path={mount} element={<App />} />
          <Route path="/file/shareme" element={<App />} />
        </Routes>
        <Where />
      </>,
      { route, session: true },
    );
    const title = route.endsWith('sharelist') ? '分享记录' : '与我共享';
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: title, selected: true })).toBeInTheDocument();
    expect(screen.getByText('暂无数据', { ignore: 'script, style, title' })).toBeInTheDocument();
    expect(screen.getByText(/该功能尚未开放/)).toBeInTheDocument();
  });

  it('the tabs lead from 分享记录 to 与我共享', async () => {
    renderWithProviders(
      <>
        <Routes>
          <Route path="/file/sharelist" element={<App />} />
          <Route path="/file/shareme" element={<App />} />
        </Routes>
        <Where />
      </>,
      { route: '/file/sharelist', session: true },
    );
    fireEvent.click(await screen.findByRole('tab', { name: '与我共享' }));
    expect(await screen.findByRole('heading', { name: '与我共享' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/file/shareme');
  });
});

it('SharePage shows the share id from the link, without a session', async () => {
  renderWithProviders(
    <Routes>
      <Route path="/s/:shareId" element={<SharePage />} />
    </Routes>,
    { route: '/s/Ab3xYz' },
  );
  expect(await screen.findByRole('heading', { name: '外链分享' })).toBeInTheDocument();
  expect(screen.getByText('分享编号')).toBeInTheDocument();
  expect(screen.getByText('Ab3xYz')).toBeInTheDocument();
  expect(screen.getByText(/该功能尚未开放/)).toBeInTheDocument();
});
