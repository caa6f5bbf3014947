// 注册申请: applications filed on /signUp, approved into a department (the account is made
// then, with the password the applicant chose) or rejected with a reason; and, while no SMS
// gateway is configured, the text messages the log sender kept, so the administrator can pass
// a code on.
import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, Modal, Segmented, Space, Table, Tag, TreeSelect, Typography } from 'antd';
import { api, notify, type DepartmentNode, type Registration, type SmsMessage } from '@app/shared';
import { usePagedList } from './usePagedList';

type Filter = Registration['status'] | 'all';
const PAGE_SIZE = 20;
const STATUS: Record<Registration['status'], { text: string; color: string }> = {
  pending: { text: '待审批', color: 'processing' },
  approved: { text: '已批准', color: 'success' },
  rejected: { text: '已驳回', color: 'default' },
};

interface TreeOption {
  value: string;
  title: string;
  children: TreeOption[];
}
const toOptions = (nodes: DepartmentNode[]): TreeOption[] => nodes.map((n) => ({ value: n.id, title: n.name, children: toOptions(n.children) }));

function ApproveDialog({ target, onClose }: { target: Registration | null; onClose: (done: boolean) => void }) {
  const [tree, setTree] = useState<TreeOption[]>([]);
  const [deptId, setDeptId] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!target) return;
    setDeptId(undefined);
    api
      .getDepartmentTree()
      .then((nodes) => setTree(toOptions(nodes)))
      .catch(() => undefined);
  }, [target]);
  const approve = async () => {
    if (!target) return;
    setSaving(true);
    try {
      await api.approveRegistration(target.id, deptId ?? null);
      notify.success(`已批准，账号“${target.userName}”可以登录了`);
      onClose(true);
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={target !== null} title="批准注册申请" okText="批准" cancelText="取消" confirmLoading={saving} onOk={() => void approve()} onCancel={() => onClose(false)} destroyOnHidden>
      {target ? (
        <Form layout="vertical">
          <Typography.Paragraph>
            将以申请人设置的密码建立账号 <b>{target.userName}</b>（{target.nickName}）。申请人填写的部门：{target.department || '未填写'}。
          </Typography.Paragraph>
          <Form.Item label="放入部门" extra="不选时放在根部门">
            <TreeSelect
              aria-label="放入部门"
              allowClear
              showSearch
              treeNodeFilterProp="title"
              treeDefaultExpandAll
              placeholder="请选择部门"
              value={deptId}
              onChange={(v) => setDeptId(v)}
              treeData={tree}
            />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}

function RejectDialog({ target, onClose }: { target: Registration | null; onClose: (done: boolean) => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setReason('');
    setError('');
  }, [target]);
  const reject = async () => {
    if (!target) return;
    if (!reason.trim()) {
      setError('请填写驳回理由');
      return;
    }
    setSaving(true);
    try {
      await api.rejectRegistration(target.id, reason.trim());
      notify.success('已驳回该申请');
      onClose(true);
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={target !== null} title="驳回注册申请" okText="驳回" okButtonProps={{ danger: true }} cancelText="取消" confirmLoading={saving} onOk={() => void reject()} onCancel={() => onClose(false)} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label="驳回理由" required validateStatus={error ? 'error' : undefined} help={error || undefined}>
          <Input.TextArea aria-label="驳回理由" rows={3} maxLength={200} showCount value={reason} onChange={(e) => setReason(e.target.value)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function SmsCard({ attempt }: { attempt: number }) {
  const [messages, setMessages] = useState<SmsMessage[]>([]);
  useEffect(() => {
    let live = true;
    api
      .getSmsMessages(undefined, { errorMode: 'none' })
      .then((m) => live && setMessages(m))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [attempt]);
  return (
    <Card size="small" title="短信记录" extra={<Typography.Text type="secondary">未接入短信网关时，验证码只记录在这里</Typography.Text>}>
      <Table<SmsMessage>
        size="small"
        rowKey={(m) => `${m.createdAt}-${m.phone}-${m.text}`}
        dataSource={messages}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
        locale={{ emptyText: '暂无短信' }}
        columns={[
          { title: '时间', dataIndex: 'createdAt', width: 180 },
          { title: '手机号', dataIndex: 'phone', width: 140 },
          { title: '内容', dataIndex: 'text' },
        ]}
      />
    </Card>
  );
}

export function RegistrationsTab() {
  const [filter, setFilter] = useState<Filter>('pending');
  const [attempt, setAttempt] = useState(0);
  const { page, setPage, rows, total, loading } = usePagedList(
    (p) => api.getRegistrations({ status: filter === 'all' ? undefined : filter, page: p, pageSize: PAGE_SIZE }),
    [filter, attempt],
  );
  const [approving, setApproving] = useState<Registration | null>(null);
  const [rejecting, setRejecting] = useState<Registration | null>(null);

  const closed = (done: boolean) => {
    setApproving(null);
    setRejecting(null);
    if (done) setAttempt((a) => a + 1);
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Segmented<Filter>
        value={filter}
        onChange={(v) => {
          setPage(1);
          setFilter(v);
        }}
        options={[
          { value: 'pending', label: '待审批' },
          { value: 'approved', label: '已批准' },
          { value: 'rejected', label: '已驳回' },
          { value: 'all', label: '全部' },
        ]}
      />
      <Table<Registration>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={rows}
        locale={{ emptyText: filter === 'pending' ? '没有待审批的申请' : '暂无申请' }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage, showTotal: (n) => `共 ${n} 条` }}
        columns={[
          { title: '申请时间', dataIndex: 'createdAt', width: 170 },
          { title: '用户名', dataIndex: 'userName' },
          { title: '姓名', dataIndex: 'nickName' },
          { title: '手机号', dataIndex: 'phone' },
          { title: '部门', dataIndex: 'department' },
          { title: '申请理由', dataIndex: 'reason', ellipsis: true },
          {
            title: '状态',
            key: 'status',
            render: (_, r) => (
              <span title={r.decisionNote || undefined}>
                <Tag color={STATUS[r.status].color}>{STATUS[r.status].text}</Tag>
              </span>
            ),
          },
          {
            title: '操作',
            key: 'actions',
            render: (_, r) =>
              r.status === 'pending' ? (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => setApproving(r)}>
                    批准
                  </Button>
                  <Button type="link" size="small" danger onClick={() => setRejecting(r)}>
                    驳回
                  </Button>
                </Space>
              ) : (
                <Typography.Text type="secondary">{r.decidedAt}</Typography.Text>
              ),
          },
        ]}
      />
      <SmsCard attempt={attempt} />
      <ApproveDialog target={approving} onClose={closed} />
      <RejectDialog target={rejecting} onClose={closed} />
    </Space>
  );
}
