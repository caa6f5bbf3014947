// 系统管理 › 用户组: the organisation's user groups (used in access policies and approvals) with
// their member counts; a group is created, renamed or deleted here, and its members are set
// with the user picker, starting from every current member. Saving replaces the whole member
// list, so the picker starts from the administrators' list, which includes the disabled members:
// they show as 已停用 and stay in the group unless the administrator removes them.
import { useEffect, useState } from 'react';
import { Alert, App as AntApp, Button, Form, Input, Modal, Space, Table, Typography } from 'antd';
import { api, notify, type AdminGroupMember, type UserGroup } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { UserPicker, type UserPickerSelection } from '@app/shared/ui';

/** Members are read this many at a time, until all are in. */
export const GROUP_MEMBERS_PAGE_SIZE = 1000;

/** Every member of a group, the disabled ones included: GET /api/Admin/Groups/{id}/Members, page by page. */
export async function loadGroupMembers(groupId: string): Promise<AdminGroupMember[]> {
  const members: AdminGroupMember[] = [];
  for (let page = 1; ; page += 1) {
    const result = await adminApi.getGroupMembers(groupId, { page, pageSize: GROUP_MEMBERS_PAGE_SIZE });
    members.push(...result.data);
    if (!result.data.length || members.length >= result.total) return members;
  }
}

const isDisabled = (u: UserPickerSelection['users'][number]) => 'disabled' in u && u.disabled === true;

function GroupNameDialog({
  open,
  title,
  okText,
  initialName,
  others,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  okText: string;
  initialName: string;
  /** names of the other groups: a name must be unique */
  others: string[];
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    let values: { name: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await onSubmit(values.name.trim());
      onClose();
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={{ name: initialName }} onFinish={() => void submit()}>
        <Form.Item
          label="用户组名称"
          name="name"
          rules={[
            { required: true, whitespace: true, message: '请输入用户组名称' },
            { max: 64, message: '用户组名称不能超过 64 个字符' },
            {
              validator: async (_, value: string | undefined) => {
                if (value && others.includes(value.trim())) throw new Error('已有同名的用户组');
              },
            },
          ]}
        >
          <Input aria-label="用户组名称" placeholder="例如：项目评审组" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function GroupsTab() {
  const { modal } = AntApp.useApp();
  const [groups, setGroups] = useState<UserGroup[]>([]);
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<UserGroup | null>(null);
  const [loadingMembers, setLoadingMembers] = useState<string | null>(null);
  const [editingMembers, setEditingMembers] = useState<{ group: UserGroup; members: AdminGroupMember[] } | null>(null);

  const reload = () => setAttempt((a) => a + 1);

  useEffect(() => {
    let live = true;
    setLoading(true);
    api
      .getUserGroups()
      .then((list) => live && setGroups(list))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [attempt]);

  const remove = (g: UserGroup) =>
    modal.confirm({
      title: '删除用户组',
      content: `确定删除“${g.name}”吗？成员本身不受影响，但按该用户组设置的权限和审批人随之失效。`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await adminApi.deleteGroup(g.id);
          notify.success(`已删除“${g.name}”`);
        } catch {
          /* shown by the http client */
        }
        reload();
      },
    });

  const openMembers = async (g: UserGroup) => {
    setLoadingMembers(g.id);
    try {
      const members = await loadGroupMembers(g.id);
      setEditingMembers({ group: g, members });
    } catch {
      /* shown by the http client */
    } finally {
      setLoadingMembers(null);
    }
  };

  const saveMembers = async (selection: UserPickerSelection) => {
    if (!editingMembers) return;
    const { group } = editingMembers;
    // the disabled members still picked are sent along: leaving them out would remove them
    const disabledKept = selection.users.filter(isDisabled).length;
    try {
      const saved = await adminApi.setGroupMembers(
        group.id,
        selection.users.map((u) => u.userId),
      );
      const enabled = saved?.memberCount ?? selection.users.length - disabledKept;
      notify.success(
        disabledKept
          ? `“${group.name}”的成员已保存：已启用 ${enabled} 人，另保留已停用的成员 ${disabledKept} 人`
          : `“${group.name}”的成员已保存，共 ${enabled} 人`,
      );
      setEditingMembers(null);
      reload();
    } catch {
      /* shown by the http client; the picker stays open */
    }
  };

  const disabledMembers = editingMembers?.members.filter((m) => m.disabled).length ?? 0;

  const names = (except?: UserGroup) => groups.filter((g) => g.id !== except?.id).map((g) => g.name);

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Button type="primary" onClick={() => setCreating(true)}>
        新建用户组
      </Button>
      <Table<UserGroup>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={groups}
        pagination={groups.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        locale={{ emptyText: '还没有用户组' }}
        columns={[
          { title: '名称', dataIndex: 'name' },
          { title: '成员数', dataIndex: 'memberCount', width: 120 },
          {
            title: '操作',
            key: 'actions',
            width: 240,
            render: (_, g) => (
              <Space size={0}>
                <Button type="link" size="small" aria-label={`成员 ${g.name}`} loading={loadingMembers === g.id} onClick={() => void openMembers(g)}>
                  成员
                </Button>
                <Button type="link" size="small" aria-label={`重命名 ${g.name}`} onClick={() => setRenaming(g)}>
                  重命名
                </Button>
                <Button type="link" size="small" danger aria-label={`删除 ${g.name}`} onClick={() => remove(g)}>
                  删除
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Typography.Text type="secondary">成员数只计已启用的用户；已停用的成员在设置成员时标为“已停用”。</Typography.Text>

      <GroupNameDialog
        open={creating}
        title="新建用户组"
        okText="新建"
        initialName=""
        others={names()}
        onSubmit={async (name) => {
          await adminApi.createGroup(name);
          notify.success(`已新建用户组“${name}”`);
          reload();
        }}
        onClose={() => setCreating(false)}
      />
      <GroupNameDialog
        open={renaming !== null}
        title="重命名用户组"
        okText="保存"
        initialName={renaming?.name ?? ''}
        others={names(renaming ?? undefined)}
        onSubmit={async (name) => {
          if (!renaming) return;
          await adminApi.renameGroup(renaming.id, name);
          notify.success(`已改名为“${name}”`);
          reload();
        }}
        onClose={() => setRenaming(null)}
      />
      <UserPicker
        open={editingMembers !== null}
        title={editingMembers ? `设置“${editingMembers.group.name}”的成员` : '设置成员'}
        limitTypes={['user']}
        initialSelection={{ users: editingMembers?.members ?? [] }}
        notice={
          disabledMembers ? (
            <Alert
              type="info"
              showIcon
              title={`该用户组有 ${disabledMembers} 名已停用的成员，在“已选择”中标为“已停用”。保存时会保留他们；如需移出，请点击其标签上的 ×。`}
            />
          ) : null
        }
        onOk={saveMembers}
        onCancel={() => setEditingMembers(null)}
      />
    </Space>
  );
}
