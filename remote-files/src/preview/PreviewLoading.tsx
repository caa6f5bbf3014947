// The spinner of a preview while something loads, with what it waits for.
import { Spin, Typography } from 'antd';

export function PreviewLoading({ text = '正在加载…' }: { text?: string }) {
  return (
    <div role="status" style={{ padding: 64, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12 }}>
      <Spin />
      <Typography.Text type="secondary">{text}</Typography.Text>
    </div>
  );
}
