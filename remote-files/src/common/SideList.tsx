// The list on the left of 我的收藏 and 标签: the categories or tags to choose from, each with
// its count and (when it may be changed) a menu of its own actions; the chosen one is marked.
import type { ReactNode } from 'react';
import { Button, Dropdown, theme, Typography } from 'antd';
import { MoreOutlined } from '@ant-design/icons';

export interface SideEntryAction {
  key: string;
  label: string;
  danger?: boolean;
}

export interface SideEntry {
  key: string;
  name: string;
  /** before the name (a colour dot, an icon) */
  icon?: ReactNode;
  count?: number;
  /** the entry's own actions (重命名, 删除), in a menu after it */
  actions?: SideEntryAction[];
}

export interface SideGroup {
  /** a heading over the group's entries (个人标签, 公共标签) */
  label?: string;
  entries: SideEntry[];
}

export interface SideListProps {
  /** the accessible name of the list (收藏分类, 标签) */
  label: string;
  groups: SideGroup[];
  selectedKey?: string;
  onSelect: (key: string) => void;
  onAction?: (entryKey: string, actionKey: string) => void;
  /** above the entries (a 新建 button) */
  header?: ReactNode;
  /** under the entries (an empty note) */
  footer?: ReactNode;
}

export const SIDE_LIST_WIDTH = 220;

export function SideList({ label, groups, selectedKey, onSelect, onAction, header, footer }: SideListProps) {
  const { token } = theme.useToken();
  return (
    <nav
      aria-label={label}
      style={{
        width: SIDE_LIST_WIDTH,
        flexShrink: 0,
        display: 'flex',
        flexDirection: 'column',
        gap: 8,
        paddingRight: 12,
        marginRight: 16,
        borderRight: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {header}
      {groups.map((group, gi) => (
        <div key={group.label ?? gi} role="group" aria-label={group.label}>
          {group.label ? (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, padding: '4px 8px' }}>
              {group.label}
            </Typography.Text>
          ) : null}
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {group.entries.map((entry) => {
              const selected = entry.key === selectedKey;
              return (
                <li
                  key={entry.key}
                  style={{
                    display: 'flex',
                    alignItems: 'center',
                    borderRadius: token.borderRadius,
                    background: selected ? token.controlItemBgActive : undefined,
                  }}
                >
                  <button
                    type="button"
                    aria-current={selected ? 'true' : undefined}
                    onClick={() => onSelect(entry.key)}
                    style={{
                      flex: 1,
                      minWidth: 0,
                      display: 'flex',
                      alignItems: 'center',
                      gap: 8,
                      padding: '6px 8px',
                      border: 0,
                      background: 'transparent',
                      font: 'inherit',
                      textAlign: 'left',
                      cursor: 'pointer',
                      color: selected ? token.colorPrimary : token.colorText,
                    }}
                  >
                    {entry.icon ? (
                      <span aria-hidden style={{ display: 'inline-flex', flexShrink: 0 }}>
                        {entry.icon}
                      </span>
                    ) : null}
                    <span style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={entry.name}>
                      {entry.name}
                    </span>{' '}
                    {entry.count !== undefined ? <span style={{ color: token.colorTextSecondary, fontSize: 12 }}>{entry.count}</span> : null}
                  </button>
                  {entry.actions?.length ? (
                    <Dropdown
                      trigger={['click']}
                      menu={{
                        'aria-label': `${entry.name} 的操作`,
                        items: entry.actions.map((a) => ({ key: a.key, label: a.label, danger: a.danger })),
                        onClick: ({ key }) => onAction?.(entry.key, key),
                      }}
                    >
                      <Button type="text" size="small" icon={<MoreOutlined />} aria-label={`更多操作 ${entry.name}`} />
                    </Dropdown>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      {footer}
    </nav>
  );
}
