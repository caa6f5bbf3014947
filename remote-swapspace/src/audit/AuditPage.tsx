// 统计审计 (/swapSpace/audit), administrators only: 统计 (figures and charts of what crossed
// between zones) and 审计日志 (the tamper-evident log, its verification and export). The tab is
// kept in the address (?tab=log) so that reload and back keep it. Someone the server refuses
// sees its sentence instead of the page.
import { useCallback, useState, type ReactNode } from 'react';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router-dom';
import { RemotePage } from '@app/shared/ui';
import { Forbidden } from '../adminAccess';
import { AuditLogPanel } from './AuditLogPanel';
import { StatsPanel } from './StatsPanel';

export const AUDIT_PAGE_TEXTS = { title: '统计审计', stats: '统计', log: '审计日志' } as const;

type TabKey = 'stats' | 'log';

export default function AuditPage({ nav }: { nav?: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const tab: TabKey = params.get('tab') === 'log' ? 'log' : 'stats';
  const [forbidden, setForbidden] = useState<string | null>(null);
  const onForbidden = useCallback((message: string) => setForbidden(message), []);

  return (
    <RemotePage title={AUDIT_PAGE_TEXTS.title} nav={nav}>
      {forbidden !== null ? (
        <Forbidden message={forbidden} />
      ) : (
        <Tabs
          activeKey={tab}
          onChange={(key) => {
            const next = new URLSearchParams(params);
            if (key === 'log') next.set('tab', 'log');
            else next.delete('tab');
            setParams(next);
          }}
          items={[
            { key: 'stats', label: AUDIT_PAGE_TEXTS.stats, children: <StatsPanel onForbidden={onForbidden} /> },
            { key: 'log', label: AUDIT_PAGE_TEXTS.log, children: <AuditLogPanel onForbidden={onForbidden} /> },
          ]}
        />
      )}
    </RemotePage>
  );
}
