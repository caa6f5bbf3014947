import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { renderWithProviders } from '@app/shared/test';
import App from './App';
import meta from './meta';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

const renderAt = (route: string) =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/workflow/*" element={<App />} />
      </Routes>
      <Where />
    </>,
    { route, session: true },
  );

it('meta lists the workflow pages behind the workflow feature', () => {
  expect(meta.name).toBe('workflow');
  expect(meta.title).toBe('流程');
  expect(meta.menu.map((m) => [m.title, m.path, m.feature])).toEqual([
    ['流程列表', '/workflow/list', 'workflow'],
    ['流程详情', '/workflow/informationDetails', 'workflow'],
  ]);
});

it('/workflow goes to 流程列表: navigation and the not-yet-available note', async () => {
  renderAt('/workflow');
  expect(await screen.findByRole('heading', { name: '流程列表' })).toBeInTheDocument();
  expect(screen.getByTestId('where')).toHaveTextContent('/workflow/list');
  expect(screen.getByRole('tab', { name: '流程列表', selected: true })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: '流程详情' })).toBeInTheDocument();
  expect(screen.getByText('暂无数据', { ignore: 'script, style, title' })).toBeInTheDocument();
  expect(screen.getByText(/该功能尚未开放/)).toBeInTheDocument();
});

it('list/{path...} is the list too, and the tabs lead to 流程详情', async () => {
  renderAt('/workflow/list/a/b');
  expect(await screen.findByRole('heading', { name: '流程列表' })).toBeInTheDocument();
  fireEvent.click(screen.getByRole('tab', { name: '流程详情' }));
  expect(await screen.findByRole('heading', { name: '流程详情' })).toBeInTheDocument();
  expect(screen.getByTestId('where')).toHaveTextContent('/workflow/informationDetails');
  expect(screen.getByText(/该功能尚未开放/)).toBeInTheDocument();
});

it('an unknown path says 页面不存在', async () => {
  renderAt('/workflow/nope');
  expect(await screen.findByText('页面不存在')).toBeInTheDocument();
});
