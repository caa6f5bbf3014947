// The cells of the 用户 list that say most at a glance: roles, status and space used.
import { Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { formatBytes, type AdminUser } from '@app/shared';
import { ADMIN_ROLE_LABELS } from '@app/shared/admin';

export function RoleTags({ u }: { u: AdminUser }) {
  const roles = u.roles ?? [];
  const adminOf = u.adminOf ?? [];
  if (roles.length === 0 && adminOf.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap>
      {roles.map((r) => (
        <Tag key={r} color={r === 'admin' ? 'red' : 'blue'}>
          {ADMIN_ROLE_LABELS[r] ?? r}
        </Tag>
      ))}
      {adminOf.length > 0 ? (
        <Tooltip title={`管理：${adminOf.map((d) => d.name).join('、')}`}>
          <Tag color="purple">部门管理员</Tag>
        </Tooltip>
      ) : null}
    </Space>
  );
}

export function StatusTags({ u }: { u: AdminUser }) {
  return (
    <Space size={[0, 4]} wrap>
      {u.disabled ? <Tag>已停用</Tag> : null}
      {u.locked ? <Tag color="red">已锁定</Tag> : null}
      {!u.disabled && !u.locked ? <Tag color="green">正常</Tag> : null}
      {u.mustChangePassword ? <Tag color="orange">须修改密码</Tag> : null}
    </Space>
  );
}

export function SpaceUsage({ u }: { u: AdminUser }) {
  const used = u.used ?? 0;
  const quota = u.effectiveQuota ?? 0;
  if (quota <= 0) return <span style={{ whiteSpace: 'nowrap' }}>{formatBytes(used)} / 不限</span>;
  const percent = Math.min(100, Math.round((used / quota) * 100));
  return (
    <div style={{ minWidth: 130 }}>
      <div style={{ whiteSpace: 'nowrap' }}>
        {formatBytes(used)} / {formatBytes(quota)}
      </div>
      <Progress aria-label={`空间已用 ${percent}%`} percent={percent} size="small" showInfo={false} status={percent >= 90 ? 'exception' : 'normal'} />
    </div>
  );
}
