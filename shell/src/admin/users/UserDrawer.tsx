// 编辑用户: the person's details and roles (only what changed is sent), and for system
// administrators the person's own feature switches next to what applies and where it comes from.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Divider, Drawer, Form, Select, Space, Spin, Typography } from 'antd';
import { notify, type AdminDepartmentNode, type AdminScope, type AdminUser, type EffectiveFeaturePolicy, type FeaturePolicyOverride, type UpdateAdminUserBody } from '@app/shared';
import { ADMIN_ROLES, adminApi, USER_SOURCE_LABELS } from '@app/shared/admin';
import { FEATURE_CHOICE_OPTIONS, FEATURE_SWITCHES, fromFeatureChoice, toFeatureChoice, type FeatureChoice } from '../featureChoice';
import { bytesToGb, gbToBytes } from '../units';
import { useLastShown } from './passwordOnce';
import { UserFields, type UserFieldValues } from './UserFormModal';

const onOff = (v: boolean) => (v ? '开启' : '关闭');

const initialValues = (u: AdminUser): UserFieldValues => ({
  nickName: u.nickName ?? '',
  deptId: u.deptId ?? undefined,
  employeeNo: u.employeeNo ?? '',
  mobile: u.mobile ?? '',
  email: u.email ?? '',
  roles: u.roles ?? [],
  quotaGb: u.quota == null ? null : bytesToGb(u.quota),
});

/** The fields that differ from what the person has now. */
function changedFields(u: AdminUser, v: UserFieldValues): UpdateAdminUserBody {
  const before = initialValues(u);
  const body: UpdateAdminUserBody = {};
  for (const k of ['nickName', 'employeeNo', 'mobile', 'email'] as const) {
    const now = (v[k] ?? '').trim();
    if (now !== (before[k] ?? '').trim()) body[k] = now;
  }
  if ((v.deptId ?? null) !== (before.deptId ?? null)) body.deptId = v.deptId ?? null;
  const roles = ADMIN_ROLES.filter((r) => v.roles?.includes(r));
  if (roles.join() !== ADMIN_ROLES.filter((r) => before.roles?.includes(r)).join()) body.roles = roles;
  if ((v.quotaGb ?? null) !== (before.quotaGb ?? null)) body.quota = v.quotaGb == null ? null : gbToBytes(v.quotaGb);
  return body;
}

function FeaturePolicyFields({
  policy,
  own,
  onChange,
}: {
  policy: EffectiveFeaturePolicy;
  own: FeaturePolicyOverride;
  onChange: (next: FeaturePolicyOverride) => void;
}) {
  return (
    <Space orientation="vertical" size={10} style={{ width: '100%' }}>
      {FEATURE_SWITCHES.map(({ key, label }) => {
        const changed = own[key] !== policy.own[key];
        const hint = !changed
          ? `生效：${onOff(policy.effective[key])}（${policy.source[key]}）`
          : own[key] === null
            ? '保存后按部门或全局设置'
            : `保存后：${onOff(own[key] as boolean)}（个人）`;
        return (
          <Space key={key} wrap>
            <span style={{ display: 'inline-block', width: 72 }}>{label}</span>
            <Select<FeatureChoice>
              aria-label={label}
              style={{ width: 110 }}
              value={toFeatureChoice(own[key])}
              onChange={(c) => onChange({ ...own, [key]: fromFeatureChoice(c) })}
              options={FEATURE_CHOICE_OPTIONS}
            />
            <Typography.Text type={changed ? 'warning' : 'secondary'}>{hint}</Typography.Text>
          </Space>
        );
      })}
    </Space>
  );
}

export function UserDrawer({
  user,
  scope,
  departments,
  onClose,
  onSaved,
}: {
  user: AdminUser | null;
  scope: AdminScope | null;
  departments: AdminDepartmentNode[];
  onClose: () => void;
  onSaved: (user: AdminUser) => void;
}) {
  const [form] = Form.useForm<UserFieldValues>();
  const shown = useLastShown(user);
  const showPolicy = !!scope?.system;
  const [policy, setPolicy] = useState<EffectiveFeaturePolicy | null>(null);
  const [own, setOwn] = useState<FeaturePolicyOverride | null>(null);
  const [policyState, setPolicyState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [saving, setSaving] = useState(false);
  const initial = useMemo(() => (shown ? initialValues(shown) : undefined), [shown]);

  useEffect(() => {
    if (!user || !showPolicy) return;
    let live = true;
    setPolicy(null);
    setOwn(null);
    setPolicyState('loading');
    adminApi
      .getUserFeaturePolicy(user.userId)
      .then((p) => {
        if (!live) return;
        setPolicy(p);
        setOwn(p.own);
        setPolicyState('ready');
      })
      .catch(() => live && setPolicyState('failed'));
    return () => {
      live = false;
    };
  }, [user, showPolicy]);

  const save = async () => {
    if (!user) return;
    let values: UserFieldValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is wrong
    }
    const body = changedFields(user, values);
    const policyChanged = !!policy && !!own && FEATURE_SWITCHES.some(({ key }) => own[key] !== policy.own[key]);
    if (Object.keys(body).length === 0 && !policyChanged) {
      notify.info('没有需要保存的修改');
      onClose();
      return;
    }
    setSaving(true);
    try {
      const updated = Object.keys(body).length > 0 ? await adminApi.updateUser(user.userId, body) : user;
      if (policyChanged && own) setPolicy(await adminApi.setUserFeaturePolicy(user.userId, own));
      notify.success(`已保存“${updated.nickName || updated.userName}”的修改`);
      onSaved(updated);
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={user !== null}
      title={shown ? `编辑用户：${shown.nickName || shown.userName}` : ''}
      size={560}
      onClose={onClose}
      destroyOnHidden
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void save()}>
            保存
          </Button>
        </Space>
      }
    >
      {shown ? (
        <Form form={form} layout="horizontal" labelCol={{ flex: '96px' }} preserve={false} initialValues={initial}>
          {shown.source && shown.source !== 'local' ? (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              title={`此账号来自${USER_SOURCE_LABELS[shown.source] ?? shown.source}，昵称、部门等可能在下次同步时被覆盖。`}
            />
          ) : null}
          <Form.Item label="用户名">
            <Typography.Text strong>{shown.userName}</Typography.Text>
          </Form.Item>
          <UserFields departments={departments} grantable={scope?.roles ?? []} />
          {showPolicy ? (
            <>
              <Divider titlePlacement="start">功能开关</Divider>
              <Typography.Paragraph type="secondary">选“继承”时按所在部门的设置，部门未设置时按全局设置。</Typography.Paragraph>
              {policyState === 'loading' ? <Spin size="small" /> : null}
              {policyState === 'failed' ? <Alert type="warning" showIcon title="未能读取此人的功能开关" /> : null}
              {policy && own ? <FeaturePolicyFields policy={policy} own={own} onChange={setOwn} /> : null}
            </>
          ) : null}
        </Form>
      ) : null}
    </Drawer>
  );
}
