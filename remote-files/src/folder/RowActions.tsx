// The 操作 column of 云文档's file list: the frequent actions as links, the others under 更多.
import { Dropdown, Space, Typography } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import type { Item } from '@app/shared';
import { allowedActions, menuItems, type ItemActionKey } from './itemActions';

export function RowActions({ item, onAction }: { item: Item; onAction: (key: ItemActionKey, items: Item[]) => void }) {
  // the name opens the item: no 打开 here
  const allowed = allowedActions([item]).filter((a) => a.key !== 'open');
  const inline = allowed.filter((a) => a.inline);
  const more = allowed.filter((a) => !a.inline);
  return (
    <Space size={12} wrap>
      {inline.map((a) => (
        <Typography.Link key={a.key} onClick={() => onAction(a.key, [item])} aria-label={`${a.label} ${item.name}`}>
          {a.label}
        </Typography.Link>
      ))}
      {more.length ? (
        <Dropdown trigger={['click']} menu={{ items: menuItems(more), onClick: ({ key }) => onAction(key as ItemActionKey, [item]) }}>
          <Typography.Link aria-label={`更多操作 ${item.name}`}>
            更多 <DownOutlined style={{ fontSize: 10 }} />
          </Typography.Link>
        </Dropdown>
      ) : null}
    </Space>
  );
}
