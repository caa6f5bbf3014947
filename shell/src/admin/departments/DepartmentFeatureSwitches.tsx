// 功能策略 of the chosen department: each feature 继承, 开启 or 关闭, saved together.
import { useEffect, useState } from 'react';
import { Button, Select, Space, Typography } from 'antd';
import type { AdminDepartmentNode } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { FEATURE_CHOICE_OPTIONS, FEATURE_SWITCHES, fromFeatureChoices, toFeatureChoices, type FeatureChoice } from '../featureChoice';
import type { SaveDepartment } from './useDepartmentSave';

export function DepartmentFeatureSwitches({ dept, saving, save }: { dept: AdminDepartmentNode; saving: string | null; save: SaveDepartment }) {
  const [policy, setPolicy] = useState(() => toFeatureChoices(dept.featurePolicy));
  // a fresh tree brings what was saved
  const policyKey = JSON.stringify(dept.featurePolicy ?? null);
  useEffect(() => setPolicy(toFeatureChoices(dept.featurePolicy)), [policyKey]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <>
      <Space wrap>
        {FEATURE_SWITCHES.map((f) => (
          <Space key={f.key} size={4}>
            <Typography.Text>{f.label}</Typography.Text>
            <Select<FeatureChoice>
              aria-label={f.label}
              style={{ width: 96 }}
              value={policy[f.key]}
              options={FEATURE_CHOICE_OPTIONS}
              onChange={(v) => setPolicy((p) => ({ ...p, [f.key]: v }))}
            />
          </Space>
        ))}
        <Button
          loading={saving === 'policy'}
          onClick={() => void save('policy', () => adminApi.setDepartmentFeaturePolicy(dept.id, fromFeatureChoices(policy)), '功能策略已保存')}
        >
          保存功能策略
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 4, marginBottom: 0 }}>
        “继承”沿用上级部门的设置（最上层沿用全局策略）；个人的设置优先于部门。
      </Typography.Paragraph>
    </>
  );
}
