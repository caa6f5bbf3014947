import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, localStore } from '@app/shared';
import { folder, mockFilesPage, renderFiles, root, rowOf } from '../__tests__/filesPage';
import { item, page, personalRoot, READ, WRITE } from '../__tests__/fixtures';
import { LIST_SORT_KEY } from './listMode';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(30_000);

const mocks = mockFilesPage();

const a = item({ id: '51', parentId: '10', name: '甲.txt', extension: 'txt', permissions: WRITE });
const b = item({ id: '52', parentId: '10', name: '乙.txt', extension: 'txt', permissions: WRITE });

/** A drag event at `clientY` (jsdom has no DragEvent: the position is set on the event). */
function drag(type: 'dragStart' | 'dragOver' | 'drop', el: HTMLElement, clientY = 0) {
  const event = createEvent[type](el, { dataTransfer: { setData: jest.fn(), dropEffect: 'none', effectAllowed: 'all' } });
  Object.defineProperty(event, 'clientY', { value: clientY });
  fireEvent(el, event);
}

/** rows 40 px high, from y = 100 */
const place = (row: HTMLElement) => {
  row.getBoundingClientRect = () => ({ top: 100, height: 40, bottom: 140, left: 0, right: 800, width: 800, x: 0, y: 100, toJSON: () => ({}) });
  return row;
};

async function chooseManual() {
  fireEvent.click(screen.getByRole('button', { name: /排序/ }));
  fireEvent.click(within(await screen.findByRole('menu', { name: '排序方式' })).getByText('手动排序'));
}

describe('手动排序', () => {
  it('lists in the manual order, keeps the choice, and places a dragged row before or after another', async () => {
    mocks.getItems.mockResolvedValue(page(root, [folder, a, b]));
    const setSort = jest.spyOn(api, 'setSort').mockResolvedValue(a);
    renderFiles();
    await screen.findByText('甲.txt');
    expect(screen.queryByText('拖动可调整顺序')).not.toBeInTheDocument();

    await chooseManual();
    await waitFor(() => expect(mocks.getItems).toHaveBeenLastCalledWith('10', { page: 1, pageSize: 100, sortField: 'manual' }));
    expect(localStore.get(LIST_SORT_KEY)).toEqual({ sortField: 'manual' });
    expect(await screen.findByText('拖动可调整顺序')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /排序：手动排序/ })).toBeInTheDocument();

    const rowA = rowOf('甲.txt');
    const rowB = place(rowOf('乙.txt'));
    expect(rowA).toHaveAttribute('draggable', 'true');

    // upper half of 乙: before it
    drag('dragStart', rowA);
    drag('dragOver', rowB, 110);
    expect(rowB).toHaveAttribute('data-drop-position', 'before');
    const loads = mocks.getItems.mock.calls.length;
    drag('drop', rowB, 110);
    await waitFor(() => expect(setSort).toHaveBeenCalledWith('51', '52', 'before'));
    // then the list is loaded again
    await waitFor(() => expect(mocks.getItems).toHaveBeenCalledTimes(loads + 1));

    // lower half: after it
    await screen.findByText('甲.txt');
    drag('dragStart', rowOf('甲.txt'));
    drag('dragOver', place(rowOf('乙.txt')), 130);
    expect(rowOf('乙.txt')).toHaveAttribute('data-drop-position', 'after');
    drag('drop', rowOf('乙.txt'), 130);
    await waitFor(() => expect(setSort).toHaveBeenLastCalledWith('51', '52', 'after'));
  });

  it('does not let a folder be dropped among files', async () => {
    mocks.getItems.mockResolvedValue(page(root, [folder, a, b]));
    const setSort = jest.spyOn(api, 'setSort');
    renderFiles();
    await screen.findByText('甲.txt');
    await chooseManual();
    await screen.findByText('拖动可调整顺序');

    const target = place(rowOf('甲.txt'));
    drag('dragStart', rowOf('项目文档'));
    drag('dragOver', target, 110);
    expect(target).not.toHaveAttribute('data-drop-position');
    drag('drop', target, 110);
    expect(setSort).not.toHaveBeenCalled();
  });

  it('offers no dragging to a user who cannot change the folder', async () => {
    mocks.getItems.mockResolvedValue(page({ ...personalRoot, permissions: READ }, [a, b]));
    renderFiles();
    await screen.findByText('甲.txt');
    await chooseManual();
    await waitFor(() => expect(mocks.getItems).toHaveBeenLastCalledWith('10', { page: 1, pageSize: 100, sortField: 'manual' }));
    expect(rowOf('甲.txt')).not.toHaveAttribute('draggable');
    expect(screen.queryByText('拖动可调整顺序')).not.toBeInTheDocument();
  });
});
