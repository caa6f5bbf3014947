// 钉钉通讯录同步 of 目录同步: when DingTalk is not configured (DINGTALK_* environment variables),
// says so; otherwise the settings (自动同步, its interval, the disable limit, the department to
// sync from) with 保存, and 立即同步 with its plan and 应用, as for LDAP.
import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Divider, Form, InputNumber, Skeleton, Switch, Typography } from 'antd';
import { notify, type DingtalkSyncSettings, type DingtalkSyncSettingsBody } from '@app/shared';
import { directoryApi } from '@app/shared/admin';
import { SyncPlan } from './SyncPlanCard';

type DingtalkFormValues = Required<DingtalkSyncSettingsBody>;

export const DINGTALK_NOT_CONFIGURED = '未配置钉钉（请设置 DINGTALK_APP_KEY 和 DINGTALK_APP_SECRET 环境变量）';

const toValues = (s: DingtalkSyncSettings): DingtalkFormValues => ({
  enabled: s.enabled,
  intervalMinutes: s.intervalMinutes,
  maxDisablePercent: s.maxDisablePercent,
  rootDeptId: s.rootDeptId,
});

export function DingtalkCard({
  onRun,
}: {
  /** a run was planned or applied: the record of runs is read again */
  onRun: () => void;
}) {
  const [form] = Form.useForm<DingtalkFormValues>();
  const [settings, setSettings] = useState<DingtalkSyncSettings | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    directoryApi
      .getDingtalk()
      .then((s) => live && setSettings(s))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const save = async () => {
    let v: DingtalkFormValues;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const next = await directoryApi.setDingtalk({
        enabled: Boolean(v.enabled),
        intervalMinutes: v.intervalMinutes,
        maxDisablePercent: v.maxDisablePercent,
        rootDeptId: v.rootDeptId ?? null,
      });
      setSettings(next);
      form.setFieldsValue(toValues(next));
      notify.success('钉钉同步设置已保存');
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  let body: ReactNode;
  if (!settings) body = <Skeleton active />;
  else if (!settings.configured) {
    body = <Alert type="info" showIcon title={DINGTALK_NOT_CONFIGURED} description="设置后重启服务，即可在这里同步钉钉通讯录。" />;
  } else {
    body = (
      <>
        <Form<DingtalkFormValues>
          form={form}
          name="dingtalkSync"
          layout="horizontal"
          labelCol={{ flex: '160px' }}
          labelWrap
          style={{ maxWidth: 820 }}
          initialValues={toValues(settings)}
          onFinish={() => void save()}
        >
          <Form.Item label="自动同步" name="enabled" valuePropName="checked" extra="开启后按间隔自动同步并直接应用；钉钉没有返回任何用户或停用人数超过上限时不应用">
            <Switch />
          </Form.Item>
          <Form.Item label="同步间隔" name="intervalMinutes" rules={[{ required: true, message: '请填写同步间隔' }]}>
            <InputNumber min={5} max={10080} precision={0} suffix="分钟" style={{ width: 180 }} />
          </Form.Item>
          <Form.Item
            label="停用比例上限"
            name="maxDisablePercent"
            extra="一次同步将停用的人数超过已同步用户的这个比例时，不应用并提示"
            rules={[{ required: true, message: '请填写停用比例上限' }]}
          >
            <InputNumber min={0} max={100} suffix="%" style={{ width: 180 }} />
          </Form.Item>
          <Form.Item label="根部门 ID" name="rootDeptId" extra="只同步该钉钉部门及其下级部门的成员；留空则同步整个组织">
            <InputNumber min={1} max={Number.MAX_SAFE_INTEGER} precision={0} placeholder="整个组织" style={{ width: 180 }} />
          </Form.Item>
          <Form.Item label=" " colon={false} style={{ marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
          </Form.Item>
        </Form>
        <Divider />
        <SyncPlan source="dingtalk" hint="先读取钉钉通讯录并列出将做的修改，确认后再应用。" onRun={onRun} />
      </>
    );
  }

  return (
    <Card
      size="small"
      title="钉钉通讯录同步"
      extra={settings?.configured ? <Typography.Text type="secondary">应用 AppKey：{settings.appKey}</Typography.Text> : null}
    >
      {body}
    </Card>
  );
}
