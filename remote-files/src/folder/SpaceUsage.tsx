// The personal space's usage bar under its folder tree: what the files take (the recycle bin
// counted, as the quota counts it) against the quota, with the uploads under way.
import { Progress, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { api, formatBytes, type PersonalPolicy, type PersonalUsage } from '@app/shared';

/** From this share of the quota on, the bar turns to a warning. */
const WARN_PERCENT = 90;

export function SpaceUsage({ refresh }: { refresh: number }) {
  const [state, setState] = useState<{ usage: PersonalUsage; policy: PersonalPolicy } | null>(null);

  useEffect(() => {
    let live = true;
    // a usage bar that cannot load shows nothing rather than an error beside the files
    Promise.all([api.getPersonalUsage({ errorMode: 'none' }), api.getPersonalPolicy({ errorMode: 'none' })])
      .then(([usage, policy]) => live && setState({ usage, policy }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [refresh]);

  if (!state) return null;
  const { usage, policy } = state;
  const details = [
    usage.recycleBin > 0 ? `回收站 ${formatBytes(usage.recycleBin)}` : null,
    usage.uploading > 0 ? `上传中 ${formatBytes(usage.uploading)}` : null,
  ].filter(Boolean);
  const percent = policy.unlimited ? 0 : Math.min(100, Math.round((usage.used / policy.quota) * 1000) / 10);
  const label = policy.unlimited ? `已用 ${formatBytes(usage.used)}（不限容量）` : `已用 ${formatBytes(usage.used)} / ${formatBytes(policy.quota)}`;
  return (
    <section aria-label="个人空间用量" style={{ padding: '12px 8px 4px' }}>
      {policy.unlimited ? null : (
        <Progress
          percent={percent}
          showInfo={false}
          size="small"
          status={percent >= 100 ? 'exception' : 'normal'}
          strokeColor={percent >= WARN_PERCENT && percent < 100 ? '#faad14' : undefined}
          aria-label={`个人空间已用 ${percent}%`}
        />
      )}
      <Typography.Text type={percent >= WARN_PERCENT ? 'warning' : 'secondary'} style={{ fontSize: 12 }}>
        {label}
      </Typography.Text>
      {details.length ? (
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
          {details.join('，')}
        </Typography.Text>
      ) : null}
    </section>
  );
}
