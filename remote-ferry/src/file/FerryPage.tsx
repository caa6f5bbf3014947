// 文件摆渡 (/ferry/file), the one page of 云文档's simple mode: 发送文件 (the request form; users
// of the simple mode may have no spaces, so files are uploaded), 我的摆渡 (the user's tasks by
// state) and 收到的文件 (packages from other zones). The tab and the state of 我的摆渡 live in
// the address (?tab=send|tasks|received&status=processing|completed|rejected), so that reload,
// back and forward keep them. The zones are loaded once for the page.
import { useCallback, type ReactNode } from 'react';
import { Segmented, Tabs } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { api, FERRY_TAB_TEXT, FERRY_TABS, useLoad, type FerryTab } from '@app/shared';
import { FerryInboxTable, FerryLoad, FerrySendForm, FerryTaskTable, RemotePage } from '@app/shared/ui';

export const FERRY_PAGE_TABS = [
  { key: 'send', label: '发送文件' },
  { key: 'tasks', label: '我的摆渡' },
  { key: 'received', label: '收到的文件' },
] as const;
export type FerryPageTab = (typeof FERRY_PAGE_TABS)[number]['key'];

const tabOf = (value: string | null): FerryPageTab => (FERRY_PAGE_TABS.some((t) => t.key === value) ? (value as FerryPageTab) : 'send');
const statusOf = (value: string | null): FerryTab => (FERRY_TABS.includes(value as FerryTab) ? (value as FerryTab) : 'processing');

export function FerryPage({ nav }: { nav: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const status = statusOf(params.get('status'));
  const zones = useLoad(useCallback(() => api.getFerryZones({ errorMode: 'none' }), []));

  const go = (next: FerryPageTab, nextStatus?: FerryTab) => {
    const p = new URLSearchParams({ tab: next });
    if (next === 'tasks' && nextStatus && nextStatus !== 'processing') p.set('status', nextStatus);
    setParams(p);
  };

  const body: Record<FerryPageTab, ReactNode> = {
    send: (
      <FerryLoad state={zones.state} onRetry={zones.reload}>
        {(z) => <FerrySendForm zones={z} allowPick={false} onSubmitted={() => go('tasks')} />}
      </FerryLoad>
    ),
    tasks: (
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        <nav aria-label="摆渡状态">
          <Segmented<FerryTab>
            value={status}
            options={FERRY_TABS.map((t) => ({ value: t, label: FERRY_TAB_TEXT[t] }))}
            onChange={(value) => go('tasks', value)}
          />
        </nav>
        <FerryTaskTable tab={status} showApprovalLink={false} />
      </div>
    ),
    received: <FerryInboxTable />,
  };

  return (
    <RemotePage title="文件摆渡" nav={nav}>
      <Tabs
        aria-label="文件摆渡"
        activeKey={tab}
        onChange={(key) => go(key as FerryPageTab)}
        items={FERRY_PAGE_TABS.map((t) => ({ key: t.key, label: t.label, children: body[t.key] }))}
      />
    </RemotePage>
  );
}
