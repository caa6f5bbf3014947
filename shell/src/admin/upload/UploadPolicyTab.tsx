// 上传策略: per-chunk MD5 checks, rapid upload and how far it reaches, the largest file accepted
// and how many files one selection may hold. The default personal quota is set on 空间与配额
// and kept as it is here.
import { useEffect, useState } from 'react';
import { Button, Card, Form, InputNumber, Radio, Skeleton, Switch } from 'antd';
import { notify, type AdminUploadPolicy } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { bytesToGb, gbToBytes } from '../units';

interface UploadPolicyForm {
  chunkCheck: boolean;
  rapidUpload: boolean;
  rapidUploadOrganization: boolean;
  /** GB, one decimal */
  maxFileSizeGb: number;
  maxFileCount: number;
}

const toForm = (p: AdminUploadPolicy): UploadPolicyForm => ({
  chunkCheck: p.chunkCheck,
  rapidUpload: p.rapidUpload,
  rapidUploadOrganization: p.rapidUploadOrganization,
  maxFileSizeGb: bytesToGb(p.maxFileSize, 1),
  maxFileCount: p.maxFileCount,
});

export function UploadPolicyTab() {
  const [form] = Form.useForm<UploadPolicyForm>();
  const [initial, setInitial] = useState<UploadPolicyForm | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    adminApi
      .getUploadPolicy()
      .then((p) => live && setInitial(toForm(p)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const save = async (values: UploadPolicyForm) => {
    setSaving(true);
    try {
      // the personal quota is read afresh so that a change made on 空间与配额 is kept
      const current = await adminApi.getUploadPolicy();
      const saved = await adminApi.setUploadPolicy({
        ...current,
        chunkCheck: !!values.chunkCheck,
        rapidUpload: !!values.rapidUpload,
        rapidUploadOrganization: !!values.rapidUploadOrganization,
        maxFileSize: gbToBytes(values.maxFileSizeGb),
        maxFileCount: values.maxFileCount,
      });
      form.setFieldsValue(toForm(saved));
      notify.success('上传策略已保存');
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  if (!initial) return <Skeleton active />;
  return (
    <Form form={form} initialValues={initial} layout="horizontal" labelCol={{ flex: '200px' }} onFinish={(v) => void save(v)} style={{ maxWidth: 680 }}>
      <Card size="small" title="上传策略" style={{ marginBottom: 16 }}>
        <Form.Item label="分片校验" name="chunkCheck" valuePropName="checked" extra="开启后每个分片都计算并校验 MD5，更安全但更慢">
          <Switch />
        </Form.Item>
        <Form.Item label="秒传" name="rapidUpload" valuePropName="checked" extra="服务器上已有相同内容的文件时，不再重复传输">
          <Switch />
        </Form.Item>
        <Form.Item noStyle dependencies={['rapidUpload']}>
          {({ getFieldValue }) => (
            <Form.Item label="秒传范围" name="rapidUploadOrganization" extra={getFieldValue('rapidUpload') ? undefined : '开启秒传后才能选择'}>
              <Radio.Group
                disabled={!getFieldValue('rapidUpload')}
                options={[
                  { value: false, label: '仅限本人可见的文件' },
                  { value: true, label: '全组织' },
                ]}
              />
            </Form.Item>
          )}
        </Form.Item>
        <Form.Item
          label="单个文件大小上限"
          name="maxFileSizeGb"
          extra="达到此大小的文件会被拒绝上传"
          rules={[{ required: true, message: '请输入单个文件大小上限' }]}
        >
          <InputNumber min={0.1} max={1024} step={0.1} precision={1} suffix="GB" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item
          label="一次选择的文件数上限"
          name="maxFileCount"
          extra="超出时只提醒"
          rules={[{ required: true, message: '请输入一次选择的文件数上限' }]}
        >
          <InputNumber min={1} max={10000} precision={0} suffix="个" style={{ width: 180 }} />
        </Form.Item>
      </Card>
      <Button type="primary" htmlType="submit" loading={saving}>
        保存
      </Button>
    </Form>
  );
}
