// LDAP / AD 设置 of 目录同步: the server, the encryption, the bind account (its password never
// shown), where people are found and how their attributes and departments are read, the sync
// interval and the disable limit; 保存, and 测试连接, which saves first.
import { useCallback, useState } from 'react';
import { Alert, Button, Card, Checkbox, Col, Form, Input, InputNumber, Radio, Row, Skeleton, Space, Switch } from 'antd';
import { notify, type LdapSettings, type LdapTestResult } from '@app/shared';
import { directoryApi } from '@app/shared/admin';
import { isLdaps, toBody, toValues, type LdapFormValues } from './ldapForm';
import { useSettingsForm } from '../useSettingsForm';

const URL_PATTERN = /^ldaps?:\/\/[^\s/]+/i;
const ATTRIBUTE_PATTERN = /^[A-Za-z][A-Za-z0-9-]*$/;
const attributeRules = [
  { required: true, message: '请填写属性名' },
  { pattern: ATTRIBUTE_PATTERN, message: '应为一个 LDAP 属性名' },
];

const ATTRIBUTE_FIELDS: { key: keyof LdapSettings['attributes']; label: string; placeholder: string }[] = [
  { key: 'userName', label: '用户名', placeholder: 'uid / sAMAccountName' },
  { key: 'displayName', label: '显示名', placeholder: 'cn / displayName' },
  { key: 'mail', label: '邮箱', placeholder: 'mail' },
  { key: 'mobile', label: '手机', placeholder: 'mobile' },
  { key: 'employeeNo', label: '工号', placeholder: 'employeeNumber' },
];

export function LdapSettingsCard({
  onShown,
}: {
  /** the settings as read at first and after every save (a stable function, such as a state setter) */
  onShown: (settings: LdapSettings) => void;
}) {
  const [form] = Form.useForm<LdapFormValues>();
  const [hasBindPassword, setHasBindPassword] = useState(false);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<LdapTestResult | null>(null);

  const url = Form.useWatch('url', form);
  const startTls = Form.useWatch('startTls', form);
  const departmentsFrom = Form.useWatch('departmentsFrom', form);
  const ldaps = isLdaps(url);

  const show = useCallback(
    (s: LdapSettings) => {
      form.setFieldsValue(toValues(s));
      setHasBindPassword(s.hasBindPassword);
      onShown(s);
    },
    [form, onShown],
  );


  const { loaded, saving, save } = useSettingsForm(form, { load: directoryApi.getLdap, store: directoryApi.setLdap, toBody, show, saved: 'LDAP 设置已保存' });

  const test = async () => {
    setTested(null);
    if (!(await save(true))) return;
    setTesting(true);
    try {
      setTested(await directoryApi.testLdap());
    } catch {
      /* shown by the http client */
    } finally {
      setTesting(false);
    }
  };

  return (
    <Card size="small" title="LDAP / AD 设置">
      {loaded ? (
        <Form<LdapFormValues> form={form} layout="horizontal" labelCol={{ flex: '160px' }} labelWrap style={{ maxWidth: 820 }} onFinish={() => void save()}>
          <Form.Item label="启用 LDAP 同步与目录登录" name="enabled" valuePropName="checked" extra="启用后按下方间隔自动同步，目录用户用目录中的密码登录">
            <Switch />
          </Form.Item>
          <Form.Item
            label="服务器地址"
            name="url"
            dependencies={['enabled']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, value: string | undefined) => {
                  const v = (value ?? '').trim();
                  if (!v) return getFieldValue('enabled') ? Promise.reject(new Error('请填写服务器地址')) : Promise.resolve();
                  return URL_PATTERN.test(v) ? Promise.resolve() : Promise.reject(new Error('地址应以 ldap:// 或 ldaps:// 开头，如 ldap://ldap.example.com:389'));
                },
              }),
            ]}
          >
            <Input placeholder="ldap://ldap.example.com:389 或 ldaps://ldap.example.com:636" autoComplete="off" />
          </Form.Item>
          <Form.Item
            label="连接加密"
            extra={ldaps ? '地址为 ldaps://，连接全程使用 LDAPS 加密' : 'LDAPS 由地址决定（ldaps://）；StartTLS 仅用于 ldap:// 地址'}
          >
            <Space wrap size={16}>
              <Form.Item name="startTls" noStyle>
                <Radio.Group
                  aria-label="连接加密"
                  disabled={ldaps}
                  options={[
                    { value: false, label: '无' },
                    { value: true, label: 'StartTLS' },
                  ]}
                />
              </Form.Item>
              <Form.Item name="tlsVerify" valuePropName="checked" noStyle>
                <Checkbox disabled={!ldaps && !startTls}>校验服务器证书</Checkbox>
              </Form.Item>
            </Space>
          </Form.Item>
          <Form.Item label="绑定 DN" name="bindDn" extra="用于查询目录的服务账号">
            <Input placeholder="cn=admin,dc=example,dc=com" autoComplete="off" />
          </Form.Item>
          <Form.Item label="绑定密码" name="bindPassword">
            <Input.Password placeholder={hasBindPassword ? '已保存，留空则不修改' : '服务账号的密码'} autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="基准 DN"
            name="baseDn"
            dependencies={['enabled']}
            extra="在其下查找用户"
            rules={[({ getFieldValue }) => ({ required: Boolean(getFieldValue('enabled')), whitespace: true, message: '请填写基准 DN' })]}
          >
            <Input placeholder="dc=example,dc=com" autoComplete="off" />
          </Form.Item>
          <Form.Item
            label="用户筛选条件"
            name="userFilter"
            rules={[{ pattern: /^\s*(\(.*\))?\s*$/, message: '应为一个用括号括起来的 LDAP 过滤器，如 (objectClass=inetOrgPerson)' }]}
          >
            <Input placeholder="(objectClass=inetOrgPerson)" autoComplete="off" />
          </Form.Item>
          <Form.Item label="属性映射" extra="目录中对应各项的属性名" style={{ marginBottom: 0 }}>
            <Row gutter={12}>
              {ATTRIBUTE_FIELDS.map((f) => (
                <Col key={f.key} xs={24} md={12}>
                  <Form.Item label={f.label} name={['attributes', f.key]} labelCol={{ flex: '64px' }} rules={attributeRules}>
                    <Input placeholder={f.placeholder} autoComplete="off" />
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </Form.Item>
          <Form.Item label="部门来源" name="departmentsFrom">
            <Radio.Group
              aria-label="部门来源"
              options={[
                { value: 'ou', label: '按 OU 层级' },
                { value: 'attribute', label: '按属性' },
              ]}
            />
          </Form.Item>
          {departmentsFrom === 'attribute' ? (
            <Form.Item label="部门属性" name="departmentAttribute" extra="属性值为部门路径，如 研发中心/前端组" rules={attributeRules}>
              <Input placeholder="departmentNumber" autoComplete="off" style={{ maxWidth: 320 }} />
            </Form.Item>
          ) : null}
          <Form.Item label="自动同步间隔" name="intervalMinutes" extra="0 为不自动同步" rules={[{ required: true, message: '请填写同步间隔' }]}>
            <InputNumber min={0} max={10080} precision={0} suffix="分钟" style={{ width: 180 }} />
          </Form.Item>
          <Form.Item
            label="停用比例上限"
            name="maxDisablePercent"
            extra="一次同步将停用的人数超过已同步用户的这个比例时，不应用并提示，防止目录配置错误时误停用所有人"
            rules={[{ required: true, message: '请填写停用比例上限' }]}
          >
            <InputNumber min={0} max={100} suffix="%" style={{ width: 180 }} />
          </Form.Item>
          <Form.Item label=" " colon={false} style={{ marginBottom: tested ? 16 : 0 }}>
            <Space>
              <Button type="primary" htmlType="submit" loading={saving && !testing}>
                保存
              </Button>
              <Button loading={testing} disabled={saving} onClick={() => void test()}>
                测试连接
              </Button>
            </Space>
          </Form.Item>
          {tested ? (
            <Alert
              type={tested.ok ? 'success' : 'error'}
              showIcon
              closable={{ onClose: () => setTested(null) }}
              title={tested.message}
              description={tested.ok && tested.sample.length ? `示例用户：${tested.sample.join('、')}` : undefined}
            />
          ) : null}
        </Form>
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}
