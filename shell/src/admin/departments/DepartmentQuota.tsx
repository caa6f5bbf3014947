// 个人空间默认配额 of the chosen department, typed in GB; empty inherits the department above.
import { useEffect, useState } from 'react';
import { Button, InputNumber, Space, Typography } from 'antd';
import type { AdminDepartmentNode } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { bytesToGb, gbToBytes } from '../units';
import type { SaveDepartment } from './useDepartmentSave';

/** Bytes shown in GB (two decimals); null: inherited. */
const toGb = (bytes: number | null) => (bytes === null ? null : bytesToGb(bytes));

export function DepartmentQuota({ dept, saving, save }: { dept: AdminDepartmentNode; saving: string | null; save: SaveDepartment }) {
  const [quotaGb, setQuotaGb] = useState<number | null>(() => toGb(dept.quota));
  // a fresh tree brings what was saved
  useEffect(() => setQuotaGb(toGb(dept.quota)), [dept.quota]);
  const quotaBytes = quotaGb === null ? null : gbToBytes(quotaGb);

  return (
    <>
      <Space wrap align="start">
        <InputNumber<number>
          aria-label="默认配额（GB）"
          min={0}
          max={1024 * 1024}
          step={1}
          precision={2}
          placeholder="继承上级"
          suffix="GB"
          style={{ width: 180 }}
          value={quotaGb}
          onChange={(v) => setQuotaGb(typeof v === 'number' ? v : null)}
        />
        <Button
          loading={saving === 'quota'}
          disabled={quotaBytes === dept.quota}
          onClick={() =>
            void save('quota', () => adminApi.updateDepartment(dept.id, { quota: quotaBytes }), quotaBytes === null ? '已改为继承上级配额' : '默认配额已保存')
          }
        >
          保存配额
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 4, marginBottom: 0 }}>
        适用于本部门及下级部门中没有单独设置配额的人员；留空为继承上级，0 为不限。
      </Typography.Paragraph>
    </>
  );
}
