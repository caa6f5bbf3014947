// 系统管理 › 部门: the organisation's department tree (searched by name; a department dragged
// onto another moves under it, with its sub-departments and people) and the chosen department's
// settings: name, 负责人, 部门管理员, default personal quota, feature switches, sub-departments,
// deletion, and the people directly in it, moved to another department by dragging them onto
// the tree or through 调整部门. Department administrators see the way to their subtrees and
// manage only those; quota, switches and administrators are for system administrators.
import { useEffect, useMemo, useRef, useState, type DragEvent, type Key, type ReactNode } from 'react';
import {
  App as AntApp,
  Button,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Result,
  Select,
  Space,
  Spin,
  Tag,
  Tooltip,
  Tree,
  TreeSelect,
  Typography,
} from 'antd';
import type { TreeDataNode } from 'antd';
import {
  adminApi,
  notify,
  type AdminDepartmentNode,
  type AdminScope,
  type AdminUser,
  type AdminUserRef,
  type FeaturePolicy,
  type FeaturePolicyOverride,
  type OrgUser,
  FEATURE_LABELS,
} from '@app/shared';
import { UserPicker, type UserPickerSelection } from '@app/shared/ui';
import { toTreeSelectData } from '../departmentTree';
import { departmentMoveText, indexDepartments, isInSubtree, planDepartmentDrop, SELF_DROP_ERROR } from './drop';

/** The drag data of a person dragged from the member list onto the tree: the user id. */
export const USER_DRAG_TYPE = 'application/x-yunwendang-user';
/** People listed directly under the chosen department. */
export const DEPARTMENT_PEOPLE_PAGE_SIZE = 50;
const GB = 1024 ** 3;

export const FEATURE_SWITCHES = (Object.keys(FEATURE_LABELS) as (keyof FeaturePolicy)[]).map((key) => ({ key, label: FEATURE_LABELS[key] }));
type SwitchValue = 'inherit' | 'on' | 'off';
const SWITCH_OPTIONS: { value: SwitchValue; label: string }[] = [
  { value: 'inherit', label: '继承' },
  { value: 'on', label: '开启' },
  { value: 'off', label: '关闭' },
];
const toSwitch = (v: boolean | null | undefined): SwitchValue => (v === true ? 'on' : v === false ? 'off' : 'inherit');
const fromSwitch = (v: SwitchValue): boolean | null => (v === 'on' ? true : v === 'off' ? false : null);
const toSwitches = (o: FeaturePolicyOverride | null | undefined) =>
  Object.fromEntries(FEATURE_SWITCHES.map((f) => [f.key, toSwitch(o?.[f.key])])) as Record<keyof FeaturePolicy, SwitchValue>;
/** Bytes shown in GB (two decimals); null: inherited. */
const toGb = (bytes: number | null) => (bytes === null ? null : Math.round((bytes / GB) * 100) / 100);

const refLabel = (u: AdminUserRef) => (u.nickName && u.nickName !== u.userName ? `${u.nickName}（${u.userName}）` : u.userName);
const personName = (u: { nickName: string; userName: string }) => u.nickName || u.userName;
/** The picker wants organisation users; only the id matters for what is already picked. */
const refToOrgUser = (u: AdminUserRef): OrgUser => ({ ...u, deptId: null, deptName: '' });

/** The departments whose name contains `keyword`, with the way to them. */
function filterDepartments(list: AdminDepartmentNode[], keyword: string): AdminDepartmentNode[] {
  if (!keyword) return list;
  const needle = keyword.toLowerCase();
  const out: AdminDepartmentNode[] = [];
  for (const node of list) {
    const children = filterDepartments(node.children ?? [], keyword);
    if (node.name.toLowerCase().includes(needle) || children.length) out.push({ ...node, children });
  }
  return out;
}

const allIds = (list: AdminDepartmentNode[]): string[] => list.flatMap((n) => [n.id, ...allIds(n.children ?? [])]);

const toTreeData = (list: AdminDepartmentNode[]): TreeDataNode[] =>
  list.map((n) => ({ key: n.id, title: n.name, children: n.children?.length ? toTreeData(n.children) : undefined }));

/** The departments opened at first: the top two levels and the way to every managed subtree. */
function initialExpanded(tree: AdminDepartmentNode[]): string[] {
  const keys = new Set<string>();
  const walk = (list: AdminDepartmentNode[], depth: number, parentManaged: boolean) => {
    for (const n of list) {
      if (depth < 2 && n.children?.length) keys.add(n.id);
      if (n.manageable && !parentManaged) n.path.split('/').filter((id) => id && id !== n.id).forEach((id) => keys.add(id));
      walk(n.children ?? [], depth + 1, n.manageable);
    }
  };
  walk(tree, 0, false);
  return [...keys];
}

/** Why a department cannot be deleted, or null. */
function deleteBlocker(dept: AdminDepartmentNode, parent: AdminDepartmentNode | undefined): string | null {
  if (dept.parentId === null) return '根部门不能删除';
  if (parent && !parent.manageable) return '不能删除你所管理的最上级部门';
  if (dept.userCount > 0) return `该部门下还有 ${dept.userCount} 名用户，不能删除`;
  if (dept.children?.length) return '该部门下还有下级部门，不能删除';
  return null;
}

const hasUserDrag = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes(USER_DRAG_TYPE);

// ---- dialogs --------------------------------------------------------------------------------

function CreateDepartmentDialog({ parent, onClose }: { parent: AdminDepartmentNode | null; onClose: (createdId: string | null) => void }) {
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

function MoveUserDialog({
  person,
  tree,
  onClose,
}: {
  person: AdminUser | null;
  tree: AdminDepartmentNode[];
  onClose: (moved: boolean) => void;
}) {
  const [deptId, setDeptId] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const options = useMemo(() => toTreeSelectData(tree), [tree]);
  useEffect(() => setDeptId(undefined), [person]);
  const index = useMemo(() => indexDepartments(tree), [tree]);
  const move = async () => {
    if (!person || !deptId) return;
    setSaving(true);
    try {
      await adminApi.updateUser(person.userId, { deptId });
      notify.success(`已将“${personName(person)}”调到“${index.get(deptId)?.name ?? ''}”`);
      onClose(true);
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={person !== null}
      title={person ? `调整“${personName(person)}”的部门` : '调整部门'}
      okText="调整"
      cancelText="取消"
      okButtonProps={{ disabled: !deptId || deptId === person?.deptId }}
      confirmLoading={saving}
      onOk={() => void move()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      {person ? (
        <Form layout="vertical">
          <Typography.Paragraph>当前部门：{person.deptName || '未分配'}</Typography.Paragraph>
          <Form.Item label="调到部门">
            <TreeSelect
              aria-label="调到部门"
              showSearch
              treeNodeFilterProp="title"
              treeDefaultExpandAll
              placeholder="请选择部门"
              value={deptId}
              onChange={(v: string) => setDeptId(v)}
              treeData={options}
            />
          </Form.Item>
        </Form>
      ) : null}
    </Modal>
  );
}

// ---- the chosen department ------------------------------------------------------------------

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} style={{ marginBottom: 20 }}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

function DepartmentPeople({
  dept,
  version,
  onMove,
}: {
  dept: AdminDepartmentNode;
  /** changes with every fresh tree: the list is read again */
  version: number;
  onMove: (person: AdminUser) => void;
}) {
  const [people, setPeople] = useState<{ data: AdminUser[]; total: number }>({ data: [], total: 0 });
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let live = true;
    setLoading(true);
    adminApi
      .getUsers({ deptId: dept.id, directOnly: true, pageSize: DEPARTMENT_PEOPLE_PAGE_SIZE })
      .then((page) => live && setPeople(page))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [dept.id, version]);

  if (loading && !people.data.length) return <Spin size="small" />;
  if (!people.data.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该部门下没有直属人员" />;
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        把人员拖到左侧的部门上即可调动，也可以点“调整部门”。
      </Typography.Paragraph>
      <div role="list" aria-label="直属人员" style={{ maxHeight: 320, overflow: 'auto' }}>
        {people.data.map((p) => (
          <div
            role="listitem"
            key={p.userId}
            draggable
            onDragStart={(e) => {
              e.dataTransfer.setData(USER_DRAG_TYPE, p.userId);
              e.dataTransfer.setData('text/plain', personName(p));
              e.dataTransfer.effectAllowed = 'move';
            }}
            style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '4px 0', cursor: 'grab' }}
          >
            <span style={{ flex: 1, minWidth: 0 }}>
              {personName(p)}
              <Typography.Text type="secondary"> {p.userName}</Typography.Text>
              {p.disabled ? (
                <Tag style={{ marginLeft: 8 }} color="default">
                  已停用
                </Tag>
              ) : null}
            </span>
            <Button type="link" size="small" aria-label={`调整部门 ${personName(p)}`} onClick={() => onMove(p)}>
              调整部门
            </Button>
          </div>
        ))}
      </div>
      {people.total > people.data.length ? (
        <Typography.Text type="secondary">
          只列出前 {people.data.length} 人（共 {people.total} 人），其余人员请在“查看成员”中调整。
        </Typography.Text>
      ) : null}
    </>
  );
}

function DepartmentDetails({
  dept,
  version,
  index,
  scope,
  onChanged,
  onDeleted,
  onCreateChild,
  onMovePerson,
  onShowUsers,
}: {
  dept: AdminDepartmentNode;
  version: number;
  index: Map<string, AdminDepartmentNode>;
  scope: AdminScope;
  onChanged: () => void;
  onDeleted: (parentId: string | null) => void;
  onCreateChild: () => void;
  onMovePerson: (person: AdminUser) => void;
  onShowUsers?: (deptId: string) => void;
}) {
  const { modal } = AntApp.useApp();
  const [name, setName] = useState(dept.name);
  const [quotaGb, setQuotaGb] = useState<number | null>(() => toGb(dept.quota));
  const [policy, setPolicy] = useState(() => toSwitches(dept.featurePolicy));
  // a fresh tree brings what was saved; edits not yet saved elsewhere stay
  useEffect(() => setName(dept.name), [dept.name]);
  useEffect(() => setQuotaGb(toGb(dept.quota)), [dept.quota]);
  const policyKey = JSON.stringify(dept.featurePolicy ?? null);
  useEffect(() => setPolicy(toSwitches(dept.featurePolicy)), [policyKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const [picker, setPicker] = useState<'leader' | 'admins' | null>(null);
  const [saving, setSaving] = useState<string | null>(null);

  const pathNames = dept.path
    .split('/')
    .filter(Boolean)
    .map((id) => index.get(id)?.name)
    .filter((n): n is string => !!n);
  const blocker = deleteBlocker(dept, dept.parentId ? index.get(dept.parentId) : undefined);

  /** One save: a success message and a reload, or the http client's error and the edit kept. */
  const save = async (what: string, call: () => Promise<unknown>, done: string) => {
    setSaving(what);
    try {
      await call();
      notify.success(done);
      onChanged();
      return true;
    } catch {
      return false;
    } finally {
      setSaving(null);
    }
  };

  const header = (
    <Space orientation="vertical" size={4} style={{ width: '100%', marginBottom: 16 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {dept.name}
      </Typography.Title>
      {pathNames.length > 1 ? <Typography.Text type="secondary">{pathNames.join(' / ')}</Typography.Text> : null}
      <Space wrap>
        <Typography.Text>直属人员 {dept.userCount} 人</Typography.Text>
        {onShowUsers && dept.manageable ? (
          <Typography.Link onClick={() => onShowUsers(dept.id)}>查看成员</Typography.Link>
        ) : null}
      </Space>
    </Space>
  );

  if (!dept.manageable) {
    return (
      <div>
        {header}
        <Typography.Paragraph type="secondary">你只能看到该部门在组织中的位置，无权管理。</Typography.Paragraph>
      </div>
    );
  }

  const remove = () =>
    modal.confirm({
      title: '删除部门',
      content: `确定删除“${dept.name}”吗？`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await adminApi.deleteDepartment(dept.id);
          notify.success(`已删除“${dept.name}”`);
          onDeleted(dept.parentId);
        } catch {
          /* the reason (people or sub-departments left) is shown by the http client */
        }
      },
    });

  const pickLeader = async (sel: UserPickerSelection) => {
    const picked = sel.users[0];
    if (await save('leader', () => adminApi.updateDepartment(dept.id, { leaderId: picked?.userId ?? null }), picked ? `负责人已设为“${personName(picked)}”` : '已清除负责人'))
      setPicker(null);
  };
  const pickAdmins = async (sel: UserPickerSelection) => {
    if (await save('admins', () => adminApi.setDepartmentAdmins(dept.id, sel.users.map((u) => u.userId)), '部门管理员已保存')) setPicker(null);
  };

  const trimmed = name.trim();
  const quotaBytes = quotaGb === null ? null : Math.round(quotaGb * GB);

  return (
    <div>
      {header}
      <Space wrap style={{ marginBottom: 16 }}>
        <Button onClick={onCreateChild}>新建下级部门</Button>
        {blocker ? (
          <Tooltip title={blocker}>
            <Button danger disabled aria-label="删除部门" aria-describedby={`delete-blocker-${dept.id}`}>
              删除
            </Button>
          </Tooltip>
        ) : (
          <Button danger aria-label="删除部门" onClick={remove}>
            删除
          </Button>
        )}
        {blocker ? (
          <span id={`delete-blocker-${dept.id}`} hidden>
            {blocker}
          </span>
        ) : null}
      </Space>

      <Section title="基本信息">
        <Descriptions
          column={1}
          size="small"
          styles={{ label: { width: 110 } }}
          items={[
            {
              key: 'name',
              label: '名称',
              children: (
                <Space.Compact style={{ width: '100%', maxWidth: 360 }}>
                  <Input aria-label="部门名称" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
                  <Button
                    loading={saving === 'name'}
                    disabled={!trimmed || trimmed === dept.name}
                    onClick={() => void save('name', () => adminApi.updateDepartment(dept.id, { name: trimmed }), `已改名为“${trimmed}”`)}
                  >
                    保存名称
                  </Button>
                </Space.Compact>
              ),
            },
            {
              key: 'leader',
              label: '负责人',
              children: (
                <Space wrap>
                  <span aria-label="负责人">{dept.leader ? refLabel(dept.leader) : <Typography.Text type="secondary">未设置</Typography.Text>}</span>
                  <Button size="small" onClick={() => setPicker('leader')}>
                    选择负责人
                  </Button>
                  {dept.leader ? (
                    <Button
                      size="small"
                      loading={saving === 'leader'}
                      onClick={() => void save('leader', () => adminApi.updateDepartment(dept.id, { leaderId: null }), '已清除负责人')}
                    >
                      清除负责人
                    </Button>
                  ) : null}
                </Space>
              ),
            },
            ...(scope.system
              ? [
                  {
                    key: 'admins',
                    label: '部门管理员',
                    children: (
                      <Space wrap>
                        {dept.admins.length ? (
                          dept.admins.map((a) => <Tag key={a.userId}>{refLabel(a)}</Tag>)
                        ) : (
                          <Typography.Text type="secondary">未设置</Typography.Text>
                        )}
                        <Button size="small" onClick={() => setPicker('admins')}>
                          设置部门管理员
                        </Button>
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Section>

      {scope.system ? (
        <Section title="个人空间默认配额">
          <Space wrap align="start">
            <InputNumber<number>
              aria-label="默认配额（GB）"
              min={0}
              max={1024 * 1024}
              step={1}
              precision={2}
              placeholder="继承上级"
              suffix="GB"
              style={{ width: 180 }}
              value={quotaGb}
              onChange={(v) => setQuotaGb(typeof v === 'number' ? v : null)}
            />
            <Button
              loading={saving === 'quota'}
              disabled={quotaBytes === dept.quota}
              onClick={() =>
                void save(
                  'quota',
                  () => adminApi.updateDepartment(dept.id, { quota: quotaBytes }),
                  quotaBytes === null ? '已改为继承上级配额' : '默认配额已保存',
                )
              }
            >
              保存配额
            </Button>
          </Space>
          <Typography.Paragraph type="secondary" style={{ marginTop: 4, marginBottom: 0 }}>
            适用于本部门及下级部门中没有单独设置配额的人员；留空为继承上级，0 为不限。
          </Typography.Paragraph>
        </Section>
      ) : null}

      {scope.system ? (
        <Section title="功能策略">
          <Space wrap>
            {FEATURE_SWITCHES.map((f) => (
              <Space key={f.key} size={4}>
                <Typography.Text>{f.label}</Typography.Text>
                <Select<SwitchValue>
                  aria-label={f.label}
                  style={{ width: 96 }}
                  value={policy[f.key]}
                  options={SWITCH_OPTIONS}
                  onChange={(v) => setPolicy((p) => ({ ...p, [f.key]: v }))}
                />
              </Space>
            ))}
            <Button
              loading={saving === 'policy'}
              onClick={() => {
                const body = Object.fromEntries(FEATURE_SWITCHES.map((f) => [f.key, fromSwitch(policy[f.key])])) as FeaturePolicyOverride;
                void save('policy', () => adminApi.setDepartmentFeaturePolicy(dept.id, body), '功能策略已保存');
              }}
            >
              保存功能策略
            </Button>
          </Space>
          <Typography.Paragraph type="secondary" style={{ marginTop: 4, marginBottom: 0 }}>
            “继承”沿用上级部门的设置（最上层沿用全局策略）；个人的设置优先于部门。
          </Typography.Paragraph>
        </Section>
      ) : null}

      <Section title="直属人员">
        <DepartmentPeople dept={dept} version={version} onMove={onMovePerson} />
      </Section>

      <UserPicker
        open={picker === 'leader'}
        title="选择负责人"
        limitTypes={['user']}
        multiple={false}
        initialSelection={{ users: dept.leader ? [refToOrgUser(dept.leader)] : [] }}
        onOk={pickLeader}
        onCancel={() => setPicker(null)}
      />
      {scope.system ? (
        <UserPicker
          open={picker === 'admins'}
          title="设置部门管理员"
          limitTypes={['user']}
          initialSelection={{ users: dept.admins.map(refToOrgUser) }}
          onOk={pickAdmins}
          onCancel={() => setPicker(null)}
        />
      ) : null}
    </div>
  );
}

// ---- the tab --------------------------------------------------------------------------------

export interface DepartmentsTabProps {
  /** 查看成员: show the 用户 tab filtered by this department */
  onShowUsers?: (deptId: string) => void;
}

export function DepartmentsTab({ onShowUsers }: DepartmentsTabProps) {
  const { modal } = AntApp.useApp();
  const [scope, setScope] = useState<AdminScope | null>(null);
  const [tree, setTree] = useState<AdminDepartmentNode[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  /** bumped to load the tree again */
  const [attempt, setAttempt] = useState(0);
  /** bumped when a tree arrives: the people list is read again */
  const [loaded, setLoaded] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const [keyword, setKeyword] = useState('');
  const [creatingUnder, setCreatingUnder] = useState<AdminDepartmentNode | null>(null);
  const [movingPerson, setMovingPerson] = useState<AdminUser | null>(null);
  const [personDropTarget, setPersonDropTarget] = useState<string | null>(null);
  /** the department being dragged in the tree */
  const draggingDept = useRef<string | null>(null);
  /** the drop in progress was already refused (the tree itself ignores drops into the dragged subtree) */
  const dropRefused = useRef(false);

  /** bumped by 重试 after a failed first load */
  const [boot, setBoot] = useState(0);

  const reload = () => setAttempt((a) => a + 1);

  useEffect(() => {
    let live = true;
    adminApi
      .getScope()
      .then((s) => live && setScope(s))
      .catch(() => live && setStatus('error'));
    return () => {
      live = false;
    };
  }, [boot]);

  useEffect(() => {
    let live = true;
    adminApi
      .getDepartments()
      .then((list) => {
        if (!live) return;
        setTree(list);
        setLoaded((n) => n + 1);
        setStatus('ready');
        setExpanded((keys) => keys ?? initialExpanded(list));
        const index = indexDepartments(list);
        setSelectedId((id) => {
          if (id && index.has(id)) return id;
          const first = [...index.values()].find((d) => d.manageable);
          return first?.id ?? list[0]?.id ?? null;
        });
      })
      .catch(() => live && setStatus((s) => (s === 'ready' ? s : 'error')));
    return () => {
      live = false;
    };
  }, [attempt, boot]);

  const index = useMemo(() => indexDepartments(tree), [tree]);
  const shown = useMemo(() => filterDepartments(tree, keyword.trim()), [tree, keyword]);
  const treeData = useMemo(() => toTreeData(shown), [shown]);
  const selected = selectedId ? index.get(selectedId) ?? null : null;

  const moveDepartment = (dragId: string, dropId: string, dropToGap: boolean) => {
    const plan = planDepartmentDrop(tree, dragId, dropId, dropToGap);
    if ('error' in plan) {
      notify.warning(plan.error);
      return;
    }
    const drag = index.get(dragId);
    const parent = index.get(plan.parentId);
    if (!drag || !parent) return;
    modal.confirm({
      title: '移动部门',
      content: departmentMoveText(drag.name, parent.name),
      okText: '移动',
      cancelText: '取消',
      onOk: async () => {
        try {
          await adminApi.updateDepartment(drag.id, { parentId: parent.id });
          notify.success(`已将“${drag.name}”移动到“${parent.name}”下`);
          setExpanded((keys) => [...new Set([...(keys ?? []), parent.id])]);
          reload();
        } catch {
          /* shown by the http client */
        }
      },
    });
  };

  const dropPerson = (userId: string, fallbackName: string, dept: AdminDepartmentNode) => {
    const name = fallbackName || userId;
    if (selectedId === dept.id) {
      notify.info(`“${name}”已在“${dept.name}”`);
      return;
    }
    modal.confirm({
      title: '调整部门',
      content: `将“${name}”调到“${dept.name}”？`,
      okText: '调整',
      cancelText: '取消',
      onOk: async () => {
        try {
          await adminApi.updateUser(userId, { deptId: dept.id });
          notify.success(`已将“${name}”调到“${dept.name}”`);
          reload();
        } catch {
          /* shown by the http client */
        }
      },
    });
  };

  const renderTitle = (node: TreeDataNode) => {
    const dept = index.get(String(node.key));
    if (!dept) return null;
    const acceptsPeople = dept.manageable;
    return (
      <span
        data-dept-id={dept.id}
        style={{
          display: 'inline-block',
          width: '100%',
          color: dept.manageable ? undefined : 'rgba(0, 0, 0, 0.45)',
          outline: personDropTarget === dept.id ? '1px dashed #1f6feb' : undefined,
        }}
        onDragEnter={(e) => {
          if (!acceptsPeople || !hasUserDrag(e)) return;
          e.preventDefault();
          e.stopPropagation();
        }}
        onDragOver={(e) => {
          if (!acceptsPeople || !hasUserDrag(e)) return;
          e.preventDefault();
          e.stopPropagation();
          e.dataTransfer.dropEffect = 'move';
          if (personDropTarget !== dept.id) setPersonDropTarget(dept.id);
        }}
        onDragLeave={(e) => {
          if (!hasUserDrag(e)) return;
          e.stopPropagation();
          setPersonDropTarget((t) => (t === dept.id ? null : t));
        }}
        onDrop={(e) => {
          if (!hasUserDrag(e)) {
            // a department dropped on itself or a sub-department: the tree ignores it silently
            const drag = draggingDept.current ? index.get(draggingDept.current) : undefined;
            if (drag && isInSubtree(drag, dept.id)) {
              dropRefused.current = true;
              notify.warning(SELF_DROP_ERROR);
            }
            return;
          }
          e.preventDefault();
          e.stopPropagation();
          setPersonDropTarget(null);
          const userId = e.dataTransfer.getData(USER_DRAG_TYPE);
          if (acceptsPeople && userId) dropPerson(userId, e.dataTransfer.getData('text/plain'), dept);
        }}
      >
        {dept.name}
        <Typography.Text type="secondary" style={{ marginLeft: 6, fontSize: 12 }} aria-label={`${dept.userCount} 人`}>
          {dept.userCount}
        </Typography.Text>
      </span>
    );
  };

  if (status === 'error')
    return (
      <Result
        status="warning"
        title="部门加载失败"
        extra={
          <Button
            onClick={() => {
              setStatus('loading');
              setBoot((b) => b + 1);
            }}
          >
            重试
          </Button>
        }
      />
    );
  if (status === 'loading' || !scope) return <Spin />;

  return (
    <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start' }}>
      <div style={{ width: 300, flex: 'none' }}>
        <Input.Search
          allowClear
          aria-label="搜索部门"
          placeholder="按名称搜索部门"
          style={{ marginBottom: 8 }}
          onChange={(e) => {
            const value = e.target.value;
            setKeyword(value);
            if (value.trim()) setExpanded(allIds(filterDepartments(tree, value.trim())));
          }}
        />
        {treeData.length ? (
          <Tree
            aria-label="部门树"
            blockNode
            showLine
            treeData={treeData}
            expandedKeys={expanded ?? []}
            onExpand={(keys) => setExpanded(keys)}
            selectedKeys={selectedId ? [selectedId] : []}
            onSelect={(keys) => {
              if (keys.length) setSelectedId(String(keys[0]));
            }}
            draggable={{ icon: false, nodeDraggable: (node) => !!index.get(String(node.key))?.manageable }}
            onDragStart={(info) => {
              draggingDept.current = String(info.node.key);
              dropRefused.current = false;
            }}
            onDragEnd={() => {
              draggingDept.current = null;
            }}
            onDrop={(info) => {
              const refused = dropRefused.current;
              dropRefused.current = false;
              draggingDept.current = null;
              if (!refused) moveDepartment(String(info.dragNode.key), String(info.node.key), info.dropToGap);
            }}
            titleRender={renderTitle}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={keyword.trim() ? '没有匹配的部门' : '暂无部门'} />
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, fontSize: 12 }}>
          拖动部门到另一部门上即可调整上下级。
        </Typography.Paragraph>
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>
        {selected ? (
          <DepartmentDetails
            key={selected.id}
            dept={selected}
            version={loaded}
            index={index}
            scope={scope}
            onChanged={reload}
            onDeleted={(parentId) => {
              setSelectedId(parentId);
              reload();
            }}
            onCreateChild={() => setCreatingUnder(selected)}
            onMovePerson={setMovingPerson}
            onShowUsers={onShowUsers}
          />
        ) : (
          <Empty description="请在左侧选择部门" />
        )}
      </div>
      <CreateDepartmentDialog
        parent={creatingUnder}
        onClose={(createdId) => {
          const parent = creatingUnder;
          setCreatingUnder(null);
          if (createdId && parent) {
            setExpanded((keys) => [...new Set([...(keys ?? []), parent.id])]);
            reload();
          }
        }}
      />
      <MoveUserDialog
        person={movingPerson}
        tree={tree}
        onClose={(moved) => {
          setMovingPerson(null);
          if (moved) reload();
        }}
      />
    </div>
  );
}
