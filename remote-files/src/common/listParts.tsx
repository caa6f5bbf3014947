// Parts that 我的收藏, 标签 and 标签管理 share: the confirm before deleting a category or a tag,
// and the selection and paging of their tables.
import type { ReactNode } from 'react';
import type { App, TableProps } from 'antd';
import { notify } from '@app/shared';

type Modal = ReturnType<typeof App.useApp>['modal'];

/**
 * Asks 确定删除<what>“<name>”吗？ with a note on what follows; on 删除 runs `remove`, then
 * says `done` and calls `after`. A failed call has been shown by the http client.
 */
export function confirmDelete(
  modal: Modal,
  o: { title: string; what: string; name: string; note: ReactNode; remove: () => Promise<unknown>; done: string; after: () => void },
) {
  modal.confirm({
    title: o.title,
    content: (
      <>
        <div>
          确定删除{o.what}“{o.name}”吗？
        </div>
        <div>{o.note}</div>
      </>
    ),
    okText: '删除',
    okButtonProps: { danger: true },
    cancelText: '取消',
    onOk: async () => {
      try {
        await o.remove();
      } catch {
        return;
      }
      notify.success(o.done);
      o.after();
    },
  });
}

/** Row selection by id, with labelled checkboxes. */
export function selectionOf<T extends { id: string; name: string }>(selectedKeys: string[], onChange: (keys: string[]) => void): TableProps<T>['rowSelection'] {
  return {
    selectedRowKeys: selectedKeys,
    onChange: (keys) => onChange(keys.map(String)),
    getTitleCheckboxProps: () => ({ 'aria-label': '全选' }),
    getCheckboxProps: (item) => ({ 'aria-label': `选择 ${item.name}` }),
  };
}

/** Server paging of a fixed page size, with the total shown. */
export function pagingOf(page: number, pageSize: number, total: number, onChange: (page: number) => void): TableProps<never>['pagination'] {
  return { current: page, pageSize, total, showSizeChanger: false, showTotal: (n) => `共 ${n} 项`, onChange };
}
