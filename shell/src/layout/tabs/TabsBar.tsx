// The tab strip of the 云文档 layout: antd Tabs, a context menu on each tab (right click)
// and on the 更多 button, drag-and-drop reordering. Affix tabs have no close control.
import { useRef } from 'react';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import DownOutlined from '@ant-design/icons/DownOutlined';
import type { TabItem } from './tabsModel';

export type TabAction = 'refresh' | 'close' | 'closeLeft' | 'closeRight' | 'closeOthers' | 'closeAll';

export interface TabsBarProps {
  tabs: TabItem[];
  activeKey: string;
  onSelect: (tab: TabItem) => void;
  onAction: (action: TabAction, key: string) => void;
  onMove: (fromKey: string, toKey: string) => void;
}

function actionItems(tabs: TabItem[], key: string, activeKey: string): MenuProps['items'] {
  const i = tabs.findIndex((t) => t.key === key);
  const tab = tabs[i];
  const closable = (list: TabItem[]) => list.some((t) => !t.affix);
  return [
    { key: 'refresh', label: '刷新', disabled: key !== activeKey },
    { key: 'close', label: '关闭', disabled: !tab || !!tab.affix },
    { type: 'divider' },
    { key: 'closeLeft', label: '关闭左侧', disabled: !closable(tabs.slice(0, Math.max(i, 0))) },
    { key: 'closeRight', label: '关闭右侧', disabled: !closable(tabs.slice(i + 1)) },
    { type: 'divider' },
    { key: 'closeOthers', label: '关闭其他', disabled: !closable(tabs.filter((t) => t.key !== key)) },
    { key: 'closeAll', label: '关闭全部', disabled: !closable(tabs) },
  ];
}

export function TabsBar({ tabs, activeKey, onSelect, onAction, onMove }: TabsBarProps) {
  const dragging = useRef<string | null>(null);

  const label = (tab: TabItem) => (
    <Dropdown
      trigger={['contextMenu']}
      menu={{ items: actionItems(tabs, tab.key, activeKey), onClick: ({ key, domEvent }) => (domEvent.stopPropagation(), onAction(key as TabAction, tab.key)) }}
    >
      <span
        draggable
        data-tab-key={tab.key}
        onDragStart={(e) => {
          dragging.current = tab.key;
          e.dataTransfer.effectAllowed = 'move';
          e.dataTransfer.setData('text/plain', tab.key);
        }}
        onDragOver={(e) => {
          if (dragging.current && dragging.current !== tab.key) e.preventDefault();
        }}
        onDrop={(e) => {
          e.preventDefault();
          const from = dragging.current ?? e.dataTransfer.getData('text/plain');
          dragging.current = null;
          if (from && from !== tab.key) onMove(from, tab.key);
        }}
        onDragEnd={() => {
          dragging.current = null;
        }}
        style={{ userSelect: 'none' }}
      >
        {tab.title}
      </span>
    </Dropdown>
  );

  return (
    <Tabs
      type="editable-card"
      hideAdd
      size="small"
      activeKey={activeKey}
      onChange={(key) => {
        const tab = tabs.find((t) => t.key === key);
        if (tab) onSelect(tab);
      }}
      onEdit={(key, action) => {
        if (action === 'remove' && typeof key === 'string') onAction('close', key);
      }}
      items={tabs.map((tab) => ({ key: tab.key, label: label(tab), closable: !tab.affix }))}
      tabBarStyle={{ margin: 0, padding: '6px 12px 0', background: '#fff' }}
      tabBarExtraContent={{
        right: (
          <Dropdown
            trigger={['click']}
            menu={{ items: actionItems(tabs, activeKey, activeKey), onClick: ({ key }) => onAction(key as TabAction, activeKey) }}
          >
            <Button size="small" type="text" aria-label="标签页操作">
              更多 <DownOutlined />
            </Button>
          </Dropdown>
        ),
      }}
    />
  );
}
