// 发布公告: a title (up to 100 characters) and a plain-text body (up to 2000), sent to everyone
// or to the departments chosen in the administrators' department tree (each with the
// departments below it). The server counts the people it reaches; the notices follow within
// seconds.
import { useEffect, useMemo, useState } from 'react';
import { Form, Input, Modal, Radio, TreeSelect, Typography } from 'antd';
import { notify, type AdminDepartmentNode, type Announcement, type AnnouncementScope } from '@app/shared';
import { adminApi, ANNOUNCEMENT_BODY_MAX, ANNOUNCEMENT_TITLE_MAX } from '@app/shared/admin';
import { toTreeSelectData, topDepartmentIds } from '../departmentTree';

interface Values {
  title: string;
  body: string;
  scope: AnnouncementScope;
  departmentIds: string[];
}

const length = (text: string | undefined) => [...(text ?? '')].length;

export function SendAnnouncementDialog({ open, onClose }: { open: boolean; onClose: (sent: Announcement | null) => void }) {
  const [form] = Form.useForm<Values>();
  const [departments, setDepartments] = useState<AdminDepartmentNode[]>([]);
  const [saving, setSaving] = useState(false);
  const treeData = useMemo(() => toTreeSelectData(departments), [departments]);
  const expanded = useMemo(() => topDepartmentIds(departments), [departments]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    adminApi
      .getDepartments()
      .then((d) => live && setDepartments(d))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open]);

  const send = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const sent = await adminApi.sendAnnouncement({
        title: values.title.trim(),
        body: values.body.trim(),
        scope: values.scope,
        ...(values.scope === 'departments' ? { departmentIds: values.departmentIds } : {}),
      });
      notify.success(`公告已发送，共 ${sent.recipients} 人`);
      onClose(sent);
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title="发布公告"
      okText="发送"
      cancelText="取消"
      width={640}
      confirmLoading={saving}
      onOk={() => void send()}
      onCancel={() => onClose(null)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ title: '', body: '', scope: 'all', departmentIds: [] }}>
        <Form.Item
          name="title"
          label="标题"
          rules={[
            { validator: async (_r, v: string) => (v?.trim() ? undefined : Promise.reject(new Error('请填写公告标题'))) },
            { validator: async (_r, v: string) => (length(v?.trim()) <= ANNOUNCEMENT_TITLE_MAX ? undefined : Promise.reject(new Error(`标题不能超过 ${ANNOUNCEMENT_TITLE_MAX} 个字符`))) },
          ]}
        >
          <Input aria-label="公告标题" maxLength={ANNOUNCEMENT_TITLE_MAX} showCount placeholder="例如：机房停电检修通知" />
        </Form.Item>
        <Form.Item
          name="body"
          label="内容"
          extra="纯文本，换行会保留；收到的人在消息中心点开即可看到全文"
          rules={[
            { validator: async (_r, v: string) => (v?.trim() ? undefined : Promise.reject(new Error('请填写公告内容'))) },
            { validator: async (_r, v: string) => (length(v?.trim()) <= ANNOUNCEMENT_BODY_MAX ? undefined : Promise.reject(new Error(`内容不能超过 ${ANNOUNCEMENT_BODY_MAX} 个字符`))) },
          ]}
        >
          <Input.TextArea aria-label="公告内容" rows={8} maxLength={ANNOUNCEMENT_BODY_MAX} showCount />
        </Form.Item>
        <Form.Item name="scope" label="发送给">
          <Radio.Group
            options={[
              { value: 'all', label: '所有人' },
              { value: 'departments', label: '指定部门' },
            ]}
          />
        </Form.Item>
        <Form.Item noStyle shouldUpdate={(a: Values, b: Values) => a.scope !== b.scope}>
          {({ getFieldValue }) =>
            getFieldValue('scope') === 'departments' ? (
              <Form.Item
                name="departmentIds"
                label="部门"
                extra="所选部门的下级部门也会收到"
                rules={[{ validator: async (_r, v: string[]) => (v?.length ? undefined : Promise.reject(new Error('请选择接收公告的部门'))) }]}
              >
                <TreeSelect
                  aria-label="接收公告的部门"
                  multiple
                  allowClear
                  showSearch
                  treeNodeFilterProp="title"
                  treeDefaultExpandedKeys={expanded}
                  placeholder="请选择部门"
                  treeData={treeData}
                />
              </Form.Item>
            ) : (
              <Typography.Paragraph type="secondary">发给所有在用的账号（已停用的账号不会收到）。</Typography.Paragraph>
            )
          }
        </Form.Item>
      </Form>
    </Modal>
  );
}
