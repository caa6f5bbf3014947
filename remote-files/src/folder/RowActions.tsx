// The 操作 column of 云文档's file list: the frequent actions as links, the others under 更多.
// A page shows up to 100 rows, so a row stays light: plain links (RowLink, styled once per
// page by useRowLinkStyle) and a 更多 menu that is only made when it is opened.
import { useState } from 'react';
import { Dropdown } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import type { Item } from '@app/shared';
import { RowLink } from '@app/shared/ui';
import { allowedActions, menuItems, type ItemActionKey } from './itemActions';

export function RowActions({ item, onAction }: { item: Item; onAction: (key: ItemActionKey, items: Item[]) => void }) {
  const [moreOpen, setMoreOpen] = useState(false);
  // the name opens the item: no 打开 or 预览 here
  const allowed = allowedActions([item]).filter((a) => a.key !== 'open' && a.key !== 'preview');
  const inline = allowed.filter((a) => a.inline);
  const more = allowed.filter((a) => !a.inline);
  const moreLink = (
    <RowLink aria-label={`更多操作 ${item.name}`} onClick={() => setMoreOpen(true)}>
      更多 <DownOutlined style={{ fontSize: 10 }} />
    </RowLink>
  );
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 12, rowGap: 4 }}>
      {inline.map((a) => (
        <RowLink key={a.key} onClick={() => onAction(a.key, [item])} aria-label={`${a.label} ${item.name}`}>
          {a.label}
        </RowLink>
      ))}
      {more.length === 0 ? null : moreOpen ? (
        <Dropdown
          open
          trigger={['click']}
          onOpenChange={(open) => setMoreOpen(open)}
          menu={{
            items: menuItems(more),
            onClick: ({ key }) => {
              setMoreOpen(false);
              onAction(key as ItemActionKey, [item]);
            },
          }}
        >
          {moreLink}
        </Dropdown>
      ) : (
        moreLink
      )}
    </span>
  );
}
