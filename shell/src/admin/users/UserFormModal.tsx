// 新建用户, and the fields it shares with the 编辑 drawer: department, employee number, mobile,
// email, roles (only those the administrator holds can be granted) and the personal quota.
import { Checkbox, Form, Input, InputNumber, Modal, Radio, Tooltip, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import type { AdminDepartmentNode, AdminRole, AdminScope, CreateAdminUserBody } from '@app/shared';
import { ADMIN_ROLE_LABELS, ADMIN_ROLES, adminApi } from '@app/shared/admin';
import { toTreeSelectData, topDepartmentIds } from '../departmentTree';
import { gbToBytes } from '../units';

/** mainland China mobile numbers */
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;

export interface UserFieldValues {
  nickName?: string;
  deptId?: string | null;
  employeeNo?: string;
  mobile?: string;
  email?: string;
  roles?: AdminRole[];
  /** empty: the department's quota, else the default */
  quotaGb?: number | null;
}

/** The form items a new and an existing user share (inside an antd Form). */
export function UserFields({ departments, grantable }: { departments: AdminDepartmentNode[]; grantable: readonly AdminRole[] }) {
  const treeData = useMemo(() => toTreeSelectData(departments), [departments]);
  const expanded = useMemo(() => topDepartmentIds(departments), [departments]);
  return (
    <>
      <Form.Item label="昵称" name="nickName">
        <Input maxLength={50} placeholder="显示给同事的名字" />
      </Form.Item>
      <Form.Item label="部门" name="deptId">
        <TreeSelect
          allowClear
          showSearch
          treeNodeFilterProp="title"
          treeDefaultExpandedKeys={expanded}
          placeholder="请选择部门"
          treeData={treeData}
        />
      </Form.Item>
      <Form.Item label="工号" name="employeeNo">
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item label="手机" name="mobile" rules={[{ pattern: MOBILE_PATTERN, message: '请输入正确的 11 位手机号码' }]}>
        <Input maxLength={11} inputMode="numeric" />
      </Form.Item>
      <Form.Item label="邮箱" name="email" rules={[{ type: 'email', message: '请输入正确的邮箱地址' }]}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item label="角色" name="roles" extra="部门管理员在“部门”中按部门指定">
        <Checkbox.Group>
          {ADMIN_ROLES.map((r) =>
            grantable.includes(r) ? (
              <Checkbox key={r} value={r}>
                {ADMIN_ROLE_LABELS[r]}
              </Checkbox>
            ) : (
              <Tooltip key={r} title="只能授予自己拥有的角色">
                <span>
                  <Checkbox value={r} disabled>
                    {ADMIN_ROLE_LABELS[r]}
                  </Checkbox>
                </span>
              </Tooltip>
            ),
          )}
        </Checkbox.Group>
      </Form.Item>
      <Form.Item label="个人空间配额" name="quotaGb" extra="留空则按部门或默认配额；0 表示不限">
        <InputNumber min={0} max={1024 * 1024} precision={2} suffix="GB" placeholder="按部门或默认" style={{ width: 200 }} />
      </Form.Item>
    </>
  );
}

interface CreateValues extends UserFieldValues {
  userName: string;
  passwordMode: 'auto' | 'manual';
  password?: string;
}

const filled = (s: string | undefined) => (s && s.trim() ? s.trim() : undefined);

function createBody(v: CreateValues): CreateAdminUserBody {
  const body: CreateAdminUserBody = { userName: v.userName.trim() };
  const set = <K extends keyof CreateAdminUserBody>(k: K, value: CreateAdminUserBody[K] | undefined) => {
    if (value !== undefined) body[k] = value;
  };
  set('nickName', filled(v.nickName));
  set('deptId', v.deptId || undefined);
  set('employeeNo', filled(v.employeeNo));
  set('mobile', filled(v.mobile));
  set('email', filled(v.email));
  set('roles', v.roles?.length ? ADMIN_ROLES.filter((r) => v.roles?.includes(r)) : undefined);
  set('quota', v.quotaGb == null ? undefined : gbToBytes(v.quotaGb));
  set('password', v.passwordMode === 'manual' ? v.password : undefined);
  body.mustChangePassword = true;
  return body;
}

export interface CreatedUser {
  userId: string;
  userName: string;
  initialPassword?: string;
}

export function UserFormModal({
  open,
  scope,
  departments,
  defaultDeptId,
  onClose,
  onCreated,
}: {
  open: boolean;
  scope: AdminScope | null;
  departments: AdminDepartmentNode[];
  /** the department a new person starts in (the one the list is filtered to) */
  defaultDeptId?: string;
  onClose: () => void;
  onCreated: (created: CreatedUser) => void;
}) {
  const [form] = Form.useForm<CreateValues>();
  const passwordMode = Form.useWatch('passwordMode', form);
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    let values: CreateValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is wrong
    }
    const body = createBody(values);
    setSaving(true);
    try {
      const r = await adminApi.createUser(body);
      onCreated({ userId: r.userId, userName: body.userName, initialPassword: r.initialPassword });
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title="新建用户"
      okText="创建"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      mask={{ closable: false }}
      width={560}
      destroyOnHidden
    >
      <Form form={form} layout="horizontal" labelCol={{ flex: '96px' }} preserve={false} initialValues={{ passwordMode: 'auto', roles: [], deptId: defaultDeptId }}>
        <Form.Item label="用户名" name="userName" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
          <Input maxLength={50} autoComplete="off" placeholder="登录用的名字" />
        </Form.Item>
        <UserFields departments={departments} grantable={scope?.roles ?? []} />
        <Form.Item label="初始密码" name="passwordMode">
          <Radio.Group>
            <Radio value="auto">自动生成</Radio>
            <Radio value="manual">手动设置</Radio>
          </Radio.Group>
        </Form.Item>
        {passwordMode === 'manual' ? (
          <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入初始密码' }]} extra="须符合密码策略；首次登录须修改">
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
