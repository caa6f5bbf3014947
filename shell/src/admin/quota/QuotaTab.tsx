// 空间与配额: the default personal quota, what the spaces, the recycle bin and the uploads under
// way take, what deduplication saves, and the people and folders that take the most.
import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Card, Col, Form, InputNumber, Progress, Row, Skeleton, Space, Statistic, Table, Tag, Typography, theme } from 'antd';
import { formatBytes, notify, type QuotaOverview } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { personLabel } from '../personLabel';
import { bytesToGb, gbToBytes } from '../units';

/** From this share of the quota on, a person is flagged. */
const WARN_PERCENT = 90;

type LargestUser = QuotaOverview['largestUsers'][number];
type LargestFolder = QuotaOverview['largestFolders'][number];

/** Share of the quota used, one decimal; null when the quota is unlimited. */
const percentOf = (u: LargestUser) => (u.quota > 0 ? Math.round((u.used / u.quota) * 1000) / 10 : null);

/** The quota in GB; null when unlimited. */
const toGb = (bytes: number) => (bytes > 0 ? bytesToGb(bytes) : null);

export function QuotaTab() {
  const [form] = Form.useForm<{ quotaGb: number | null }>();
  const [overview, setOverview] = useState<QuotaOverview | null>(null);
  const [saving, setSaving] = useState(false);
  const { token } = theme.useToken();

  const load = useCallback(() => {
    let live = true;
    adminApi
      .getQuotaOverview()
      .then((o) => {
        if (!live) return;
        setOverview(o);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  useEffect(load, [load]);

  useEffect(() => {
    if (overview) form.setFieldsValue({ quotaGb: toGb(overview.defaultQuota) });
  }, [overview, form]);

  const save = async ({ quotaGb }: { quotaGb: number | null }) => {
    setSaving(true);
    try {
      const personalQuota = quotaGb ? gbToBytes(quotaGb) : 0;
      // the other upload settings are written back as they are now
      const policy = await adminApi.getUploadPolicy();
      await adminApi.setUploadPolicy({ ...policy, personalQuota });
      notify.success(personalQuota ? `默认个人空间配额已设为 ${formatBytes(personalQuota)}` : '默认个人空间配额已设为不限');
      load();
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  if (!overview) return <Skeleton active />;
  const { totals, dedup } = overview;
  const stats = [
    { title: '个人空间合计', value: totals.personal },
    { title: '企业空间合计', value: totals.public },
    { title: '回收站', value: totals.recycleBin },
    { title: '上传中', value: totals.uploading },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title="默认个人空间配额">
        <Form form={form} layout="inline" onFinish={(v) => void save(v)}>
          <Form.Item label="默认个人空间配额" name="quotaGb" extra="0 或留空为不限">
            <InputNumber min={0} max={1024 * 1024} precision={2} suffix="GB" placeholder="不限" style={{ width: 180 }} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
          </Form.Item>
        </Form>
        <Alert
          type="info"
          showIcon
          style={{ marginTop: 12 }}
          title="个人配额优先于部门配额，部门配额优先于默认配额；在“用户”和“部门”页设置。超出配额的上传和复制会在传输前被拒绝。"
        />
      </Card>

      <Row gutter={[12, 12]}>
        {stats.map((s) => (
          <Col key={s.title} xs={12} md={8} lg={6} xl={4}>
            <Card size="small">
              <Statistic title={s.title} value={formatBytes(s.value)} />
            </Card>
          </Col>
        ))}
        <Col xs={24} md={16} lg={12} xl={8}>
          <Card size="small">
            <Statistic title="去重节省" value={formatBytes(dedup.saved)} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              逻辑 {formatBytes(dedup.logical)}，实际存储 {formatBytes(dedup.stored)}
            </Typography.Text>
          </Card>
        </Col>
      </Row>

      <Card size="small" title="占用最多的用户">
        <Table<LargestUser>
          size="small"
          rowKey="userId"
          pagination={false}
          dataSource={overview.largestUsers}
          onRow={(u) => {
            const p = percentOf(u);
            if (p == null || p < WARN_PERCENT) return {};
            return { style: { background: p >= 100 ? token.colorErrorBg : token.colorWarningBg } };
          }}
          columns={[
            {
              title: '用户',
              key: 'user',
              render: (_, u) => {
                const p = percentOf(u);
                return (
                  <Space size={4} wrap>
                    <span>{personLabel(u)}</span>
                    {p != null && p >= 100 ? <Tag color="error">已超额</Tag> : p != null && p >= WARN_PERCENT ? <Tag color="warning">即将用满</Tag> : null}
                  </Space>
                );
              },
            },
            {
              title: '已用 / 配额',
              key: 'used',
              width: '40%',
              render: (_, u) => {
                const p = percentOf(u);
                return (
                  <div>
                    {p == null ? null : (
                      <Progress
                        percent={Math.min(100, p)}
                        showInfo={false}
                        size="small"
                        status={p >= 100 ? 'exception' : 'normal'}
                        strokeColor={p >= WARN_PERCENT && p < 100 ? token.colorWarning : undefined}
                        aria-label={`${personLabel(u)}已用 ${p}%`}
                      />
                    )}
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {formatBytes(u.used)} / {u.quota > 0 ? formatBytes(u.quota) : '不限'}
                    </Typography.Text>
                  </div>
                );
              },
            },
            {
              title: '占比',
              key: 'percent',
              width: 100,
              render: (_, u) => {
                const p = percentOf(u);
                return p == null ? '—' : `${p}%`;
              },
            },
          ]}
        />
      </Card>

      <Card size="small" title="占用最多的文件夹">
        <Table<LargestFolder>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={overview.largestFolders}
          columns={[
            { title: '名称', dataIndex: 'name' },
            { title: '空间', dataIndex: 'space', width: 120, render: (s: LargestFolder['space']) => (s === 'personal' ? '个人空间' : '企业空间') },
            { title: '所有者', dataIndex: 'ownerName', width: 160 },
            { title: '大小', dataIndex: 'size', width: 140, render: (n: number) => formatBytes(n) },
          ]}
        />
      </Card>
    </Space>
  );
}
