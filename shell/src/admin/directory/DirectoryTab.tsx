// 目录同步 of 系统管理 (system administrators): the LDAP/AD settings and 测试连接; 立即同步,
// which reads the directory and shows the plan (adds, updates, moves, disables, departments to
// create, the people skipped) without writing anything, applied on 应用 after a confirmation
// naming how many people it disables; 钉钉通讯录同步 (its settings, and the same 立即同步 and
// 应用) when DingTalk is configured; and the record of runs of both sources, manual and
// scheduled. A plan the server refused (an empty answer, too many disables) shows why and cannot
// be applied.
import { useState } from 'react';
import { Space } from 'antd';
import type { LdapSettings } from '@app/shared';
import { DingtalkCard } from './DingtalkCard';
import { LdapSettingsCard } from './LdapSettingsCard';
import { RunsCard } from './RunsCard';
import { SyncPlanCard } from './SyncPlanCard';

export function DirectoryTab() {
  /** the settings as last read or saved; null until they are read */
  const [saved, setSaved] = useState<LdapSettings | null>(null);
  /** bumped to read the record of runs again */
  const [runsAttempt, setRunsAttempt] = useState(0);
  const reloadRuns = () => setRunsAttempt((a) => a + 1);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <LdapSettingsCard onShown={setSaved} />
      <SyncPlanCard notEnabled={saved !== null && !saved.enabled} onRun={reloadRuns} />
      <DingtalkCard onRun={reloadRuns} />
      <RunsCard version={runsAttempt} onRefresh={reloadRuns} />
    </Space>
  );
}
