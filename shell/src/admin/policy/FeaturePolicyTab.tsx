// 全局功能策略: which parts of 云文档 (personal space, enterprise space, approval workflow, ferry)
// everyone may use, unless a department or a person overrides it; and a look at what applies to
// one person, with where each switch comes from.
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import { notify, type EffectiveFeaturePolicy, type FeaturePolicy, type OrgUser } from '@app/shared';
import { adminApi, FEATURE_LABELS } from '@app/shared/admin';
import { UserPicker, type UserPickerSelection } from '@app/shared/ui';

type FeatureKey = keyof FeaturePolicy;

const FEATURE_KEYS = Object.keys(FEATURE_LABELS) as FeatureKey[];

const userLabel = (u: Pick<OrgUser, 'userName' | 'nickName'>) =>
  u.nickName && u.nickName !== u.userName ? `${u.nickName}（${u.userName}）` : u.userName;

export function FeaturePolicyTab() {
  const [form] = Form.useForm<FeaturePolicy>();
  const [initial, setInitial] = useState<FeaturePolicy | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    adminApi
      .getFeaturePolicy()
      .then((p) => live && setInitial(p))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const save = async (values: FeaturePolicy) => {
    setSaving(true);
    try {
      const body = Object.fromEntries(FEATURE_KEYS.map((k) => [k, !!values[k]])) as unknown as FeaturePolicy;
      form.setFieldsValue(await adminApi.setFeaturePolicy(body));
      notify.success('全局功能策略已保存');
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  if (!initial) return <Skeleton active />;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%', maxWidth: 720 }}>
      <Card size="small" title="全局功能策略">
        <Form form={form} initialValues={initial} layout="horizontal" labelCol={{ flex: '160px' }} onFinish={(v) => void save(v)}>
          {FEATURE_KEYS.map((k) => (
            <Form.Item key={k} label={FEATURE_LABELS[k]} name={k} valuePropName="checked" style={{ marginBottom: 12 }}>
              <Switch checkedChildren="开启" unCheckedChildren="关闭" />
            </Form.Item>
          ))}
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="部门和个人可以覆盖全局设置：部门的设置向下级部门继承，个人的设置优先。关闭后，菜单和对应页面对这些人不可用。"
          />
          <Button type="primary" htmlType="submit" loading={saving}>
            保存
          </Button>
        </Form>
      </Card>
      <EffectivePolicyCard />
    </Space>
  );
}

/** What applies to one chosen person, switch by switch. */
function EffectivePolicyCard() {
  const [picking, setPicking] = useState(false);
  const [person, setPerson] = useState<OrgUser | null>(null);
  const [policy, setPolicy] = useState<EffectiveFeaturePolicy | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!person) return;
    let live = true;
    setLoading(true);
    setPolicy(null);
    adminApi
      .getUserFeaturePolicy(person.userId)
      .then((p) => live && setPolicy(p))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [person]);

  const choose = (selection: UserPickerSelection) => {
    const chosen = selection.users[0];
    if (!chosen) {
      notify.warning('请选择一个用户');
      return;
    }
    setPicking(false);
    setPerson(chosen);
  };

  const rows = policy ? FEATURE_KEYS.map((k) => ({ key: k, on: policy.effective[k], source: policy.source[k] })) : [];

  return (
    <Card size="small" title="查看某人的有效策略">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Text type="secondary">部门和个人的设置分别在“部门”和“用户”页修改，这里只查看最终生效的结果。</Typography.Text>
        <Space wrap>
          <Button onClick={() => setPicking(true)}>{person ? '重新选择' : '选择用户'}</Button>
          {person ? <Typography.Text strong>{userLabel(person)}</Typography.Text> : null}
        </Space>
        {person ? (
          <section aria-label={`${userLabel(person)}的有效策略`}>
            <Table
              size="small"
              rowKey="key"
              loading={loading}
              pagination={false}
              dataSource={rows}
              columns={[
                { title: '功能', dataIndex: 'key', render: (k: FeatureKey) => FEATURE_LABELS[k] },
                { title: '有效值', dataIndex: 'on', render: (on: boolean) => (on ? <Tag color="green">开启</Tag> : <Tag>关闭</Tag>) },
                { title: '来源', dataIndex: 'source' },
              ]}
            />
          </section>
        ) : null}
      </Space>
      <UserPicker
        open={picking}
        title="选择用户"
        limitTypes={['user']}
        multiple={false}
        initialSelection={person ? { users: [person] } : undefined}
        onOk={choose}
        onCancel={() => setPicking(false)}
      />
    </Card>
  );
}
