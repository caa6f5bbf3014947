import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { renderWithProviders } from '@app/shared/test';
import App from './App';
import meta from './meta';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

it('meta has the one file-ferry entry', () => {
  expect(meta.name).toBe('ferry');
  expect(meta.menu.map((m) => [m.title, m.path])).toEqual([['文件摆渡', '/ferry/file']]);
});

it('/ferry goes to 文件摆渡 with its navigation and the note', async () => {
  renderWithProviders(
    <>
      <Routes>
        <Route path="/ferry/*" element={<App />} />
      </Routes>
      <Where />
    </>,
    { route: '/ferry', session: true },
  );
  expect(await screen.findByRole('heading', { name: '文件摆渡' })).toBeInTheDocument();
  expect(screen.getByTestId('where')).toHaveTextContent('/ferry/file');
  expect(screen.getByRole('tab', { name: '文件摆渡', selected: true })).toBeInTheDocument();
  expect(screen.getByText('暂无数据', { ignore: 'script, style, title' })).toBeInTheDocument();
  expect(screen.getByText(/该功能尚未开放/)).toBeInTheDocument();
});
