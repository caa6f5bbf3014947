import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, type Tag } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { TagPage } from './TagPage';
import { docsFolder, plan, report } from '../__tests__/fixtures';

useInlineStylesOnly();

jest.setTimeout(30_000);

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

const renderTags = (route = '/file/tag') =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/file/tag" element={<TagPage title="标签" />} />
        <Route path="*" element={<span>别处</span>} />
      </Routes>
      <Where />
    </>,
    { route, session: true },
  );

const todo: Tag = { id: 't2', name: '待办', color: '#1677ff', isPublic: false, count: 1, editable: true };
const important: Tag = { id: 't1', name: '重要', color: '#f5222d', isPublic: true, count: 2, editable: false };
const ref = ({ id, name, color }: Tag) => ({ id, name, color });

const tagged: Record<string, typeof report[]> = {
  t1: [{ ...report, tags: [ref(important)] }, { ...docsFolder, tags: [ref(important), ref(todo)] }],
  t2: [{ ...plan, tags: [ref(todo)] }],
};

let getTags: jest.SpyInstance;
let getTagFiles: jest.SpyInstance;
beforeEach(() => {
  getTags = jest.spyOn(api, 'getTags').mockResolvedValue([todo, important]);
  getTagFiles = jest.spyOn(api, 'getTagFiles').mockImplementation(async (id: string) => ({ data: tagged[id] ?? [], total: (tagged[id] ?? []).length }));
});
afterEach(() => jest.restoreAllMocks());

const pane = () => screen.getByRole('navigation', { name: '标签列表' });
const rowOf = (name: string) => screen.getByText(name, { selector: 'td *' }).closest('tr') as HTMLElement;

describe('标签', () => {
  it('lists personal and public tags with their counts and shows the first one’s items', async () => {
    renderTags();
    expect(await screen.findByRole('heading', { name: '标签' })).toBeInTheDocument();
    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
    expect(getTagFiles).toHaveBeenCalledWith('t2', { page: 1, pageSize: 50 });
    const personal = within(pane()).getByRole('group', { name: '个人标签' });
    const shared = within(pane()).getByRole('group', { name: '公共标签' });
    expect(within(personal).getByRole('button', { name: '待办 1' })).toHaveAttribute('aria-current', 'true');
    expect(within(shared).getByRole('button', { name: '重要 2' })).toBeInTheDocument();
    const row = rowOf('计划.xlsx');
    expect(within(row).getByText('个人文件/项目文档')).toBeInTheDocument();
    expect(within(row).getByText('2 MB')).toBeInTheDocument();
  });

  it('shows the items of the tag chosen and keeps it in the URL', async () => {
    renderTags();
    await screen.findByText('计划.xlsx');
    fireEvent.click(within(pane()).getByRole('button', { name: '重要 2' }));
    expect(await screen.findByText('季度报告.docx')).toBeInTheDocument();
    expect(getTagFiles).toHaveBeenLastCalledWith('t1', { page: 1, pageSize: 50 });
    expect(screen.getByText('项目文档')).toBeInTheDocument();
    expect(screen.queryByText('计划.xlsx')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/file/tag?tagId=t1'));
    // the rows carry their tags
    expect(within(rowOf('项目文档')).getByText('待办')).toBeInTheDocument();
  });

  it('opens the tag named in the URL (a reload keeps it), and the first one for a tag that is gone', async () => {
    const { unmount } = renderTags('/file/tag?tagId=t1');
    expect(await screen.findByText('季度报告.docx')).toBeInTheDocument();
    expect(getTagFiles).not.toHaveBeenCalledWith('t2', expect.anything());
    expect(within(pane()).getByRole('button', { name: '重要 2' })).toHaveAttribute('aria-current', 'true');
    unmount();

    renderTags('/file/tag?tagId=t9');
    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
    expect(within(pane()).getByRole('button', { name: '待办 1' })).toHaveAttribute('aria-current', 'true');
  });

  it('移除标签 takes the tag off the item and reloads the list and the counts', async () => {
    const remove = jest.spyOn(api, 'removeTagsFromFiles').mockResolvedValue({ removed: 1 });
    renderTags('/file/tag?tagId=t1');
    await screen.findByText('季度报告.docx');
    expect(getTags).toHaveBeenCalledTimes(1);
    fireEvent.click(within(rowOf('季度报告.docx')).getByLabelText('移除标签 季度报告.docx'));
    await waitFor(() => expect(remove).toHaveBeenCalledWith({ fileIds: ['12'], tagIds: ['t1'] }));
    expect(await screen.findByText('已移除标签')).toBeInTheDocument();
    await waitFor(() => expect(getTagFiles).toHaveBeenCalledTimes(2));
    expect(getTags).toHaveBeenCalledTimes(2);
  });

  it('removes the tag from the selection through the toolbar', async () => {
    const remove = jest.spyOn(api, 'removeTagsFromFiles').mockResolvedValue({ removed: 2 });
    renderTags('/file/tag?tagId=t1');
    await screen.findByText('季度报告.docx');
    fireEvent.click(screen.getByRole('checkbox', { name: '全选' }));
    expect(screen.getByText('已选 2 项')).toBeInTheDocument();
    fireEvent.click(screen.getByText('移除标签', { selector: 'button > span' }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith({ fileIds: ['12', '11'], tagIds: ['t1'] }));
  });

  it('打开所在位置 opens the item’s folder with the item selected', async () => {
    renderTags('/file/tag?tagId=t1');
    await screen.findByText('季度报告.docx');
    fireEvent.click(within(rowOf('季度报告.docx')).getByLabelText('打开所在位置 季度报告.docx'));
    expect(screen.getByTestId('where')).toHaveTextContent('/file/personal/2/10?focus=12');
  });

  it('says so when the user has no tag and leads to 标签管理', async () => {
    getTags.mockResolvedValue([]);
    renderTags();
    expect(await screen.findByText('还没有标签')).toBeInTheDocument();
    expect(getTagFiles).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '前往标签管理' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/setting/tag');
  });

  it('says so when the tag is on no item', async () => {
    getTagFiles.mockResolvedValue({ data: [], total: 0 });
    renderTags();
    expect(await screen.findByText('该标签下暂无文件（夹）')).toBeInTheDocument();
  });
});
