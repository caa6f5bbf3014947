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
        <Route path="/swapSpace/*" element={<App />} />
      </Routes>
      <Where />
    </>,
    { route, session: true },
  );

it('meta lists the exchange-space pages behind the ferrySpaces feature', () => {
  expect(meta.name).toBe('swapspace');
  expect(meta.title).toBe('交换空间');
  expect(meta.menu.map((m) => [m.title, m.path, m.feature])).toEqual([
    ['我的摆渡', '/swapSpace/myFerry/processing', 'ferrySpaces'],
    ['摆渡设置', '/swapSpace/setFerry', 'ferrySpaces'],
    ['统计审计', '/swapSpace/audit', 'ferrySpaces'],
  ]);
});

it('/swapSpace goes to 我的摆渡 · 审批中 with both navigations and the note', async () => {
  renderAt('/swapSpace');
  expect(await screen.findByRole('heading', { name: '我的摆渡' })).toBeInTheDocument();
  expect(screen.getByTestId('where')).toHaveTextContent('/swapSpace/myFerry/processing');
  expect(screen.getByRole('tab', { name: '我的摆渡', selected: true })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: '摆渡设置' })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: '统计审计' })).toBeInTheDocument();
  const states = screen.getByRole('navigation', { name: '摆渡状态' });
  expect(states).toHaveTextContent('审批中');
  expect(states).toHaveTextContent('已完成');
  expect(states).toHaveTextContent('已驳回');
  expect(screen.getByText('暂无数据', { ignore: 'script, style, title' })).toBeInTheDocument();
  expect(screen.getByText(/我的摆渡 · 审批中」该功能尚未开放/)).toBeInTheDocument();
});

it('the segmented control switches to 已驳回', async () => {
  renderAt('/swapSpace/myFerry/processing');
  fireEvent.click(await screen.findByText('已驳回'));
  expect(await screen.findByText(/我的摆渡 · 已驳回」该功能尚未开放/)).toBeInTheDocument();
  expect(screen.getByTestId('where')).toHaveTextContent('/swapSpace/myFerry/rejected');
});

it.each([
  ['/swapSpace/myFerry/completed', '我的摆渡'],
  ['/swapSpace/setFerry', '摆渡设置'],
  ['/swapSpace/audit', '统计审计'],
])('%s shows %s and the note', async (route, title) => {
  renderAt(route);
  expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: title, selected: true })).toBeInTheDocument();
  expect(screen.getByText(/该功能尚未开放/)).toBeInTheDocument();
});

it('the tabs lead to 统计审计', async () => {
  renderAt('/swapSpace/setFerry');
  fireEvent.click(await screen.findByRole('tab', { name: '统计审计' }));
  expect(await screen.findByRole('heading', { name: '统计审计' })).toBeInTheDocument();
  expect(screen.getByTestId('where')).toHaveTextContent('/swapSpace/audit');
});
