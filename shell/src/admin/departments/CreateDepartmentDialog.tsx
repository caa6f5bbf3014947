// 新建下级部门: the name of a new department under the chosen one.
import { useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { notify, type AdminDepartmentNode } from '@app/shared';
import { adminApi } from '@app/shared/admin';

export function CreateDepartmentDialog({ parent, onClose }: { parent: AdminDepartmentNode | null; onClose: (createdId: string | null) => void }) {
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    if (!parent) return;
    let values: { name: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const created = await adminApi.createDepartment({ name: values.name.trim(), parentId: parent.id });
      notify.success(`已新建部门“${values.name.trim()}”`);
      onClose(created.id);
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={parent !== null}
      title={parent ? `在“${parent.name}”下新建部门` : '新建部门'}
      okText="新建"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={() => onClose(null)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={() => void submit()}>
        <Form.Item
          label="部门名称"
          name="name"
          rules={[
            { required: true, whitespace: true, message: '请输入部门名称' },
            { max: 64, message: '部门名称不能超过 64 个字符' },
          ]}
        >
          <Input aria-label="部门名称" placeholder="例如：前端组" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
