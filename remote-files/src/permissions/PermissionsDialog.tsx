// 权限设置 of an enterprise file or folder in 云文档 (for users who manage it). An item either
// follows the policy list of the nearest ancestor that has one (or, with none on its path,
// the enterprise default), or has a list of its own: users, departments and user groups,
// each with one of the five access levels. Saving replaces the item's own list; saving an
// empty list makes the item inherit again.
import { useEffect, useRef, useState } from 'react';
import { Alert, App as AntApp, Button, Select, Space, Spin, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { ApartmentOutlined, PlusOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { api, Messages, notify, type AccessLevel, type Item, type PolicyList, type SubjectType } from '@app/shared';
import { AppDialog, LoadError, UserPicker, type UserPickerSelection } from '@app/shared/ui';
import { ACCESS_LEVELS, accessLevelName, DEFAULT_MEMBER_LEVEL, subjectTypeName } from './levels';

export interface PermissionsDialogProps {
  /** the enterprise item whose access is set; the dialog is open while it is set */
  item: Item | null;
  onClose(): void;
  /** runs after the item's policies were saved (including 恢复继承); the dialog then closes */
  onSaved?(): void;
}

export const PERMISSION_TEXTS = {
  defaultNotice: '当前使用企业文件的默认权限：所有成员可预览和下载',
  inheritedNotice: (namePath: string) => `当前权限继承自「${namePath}」`,
  ownNotice: '当前为独立权限，不再继承上级文件夹的权限',
  restoreConfirm: '恢复继承后，此处单独设置的权限将被清除。',
  setOwn: '设置独立权限',
  restore: '恢复继承',
  addMembers: '添加成员',
  emptyOwn: '请至少添加一个成员；如需沿用上级权限，请点击「恢复继承」',
} as const;

/** One entry of the list being edited (or shown read-only). */
export interface PolicyRow {
  subjectType: SubjectType;
  subjectId: string;
  subjectName: string;
  level: AccessLevel;
}

interface LoadState {
  status: 'loading' | 'ready' | 'error';
  list?: PolicyList;
  message?: string;
}

const errorMessage = (e: unknown) => (e instanceof Error && e.message ? e.message : Messages.requestError);
const rowKey = (r: Pick<PolicyRow, 'subjectType' | 'subjectId'>) => `${r.subjectType}:${r.subjectId}`;
const rowsOf = (list: PolicyList): PolicyRow[] =>
  list.policies.map(({ subjectType, subjectId, subjectName, level }) => ({ subjectType, subjectId, subjectName, level }));
/** The item has a list of its own (an own list is never empty: [] means inheriting). */
const hasOwnList = (list: PolicyList) => !list.inherited && list.policies.length > 0;

const SUBJECT_ICONS: Record<SubjectType, typeof UserOutlined> = { 1: UserOutlined, 2: ApartmentOutlined, 3: TeamOutlined };

function SubjectName({ row }: { row: PolicyRow }) {
  const Icon = SUBJECT_ICONS[row.subjectType] ?? UserOutlined;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
      <Icon aria-label={subjectTypeName(row.subjectType)} style={{ color: '#1f6feb' }} />
      <span>{row.subjectName}</span>
    </span>
  );
}

/** The picks of the user-selection dialog as policy rows (users by their display name). */
function rowsFromSelection(selection: UserPickerSelection): PolicyRow[] {
  return [
    ...selection.users.map((u) => ({ subjectType: 1 as const, subjectId: u.userId, subjectName: u.nickName || u.userName, level: DEFAULT_MEMBER_LEVEL })),
    ...selection.departments.map((d) => ({ subjectType: 2 as const, subjectId: d.id, subjectName: d.name, level: DEFAULT_MEMBER_LEVEL })),
    ...selection.groups.map((g) => ({ subjectType: 3 as const, subjectId: g.id, subjectName: g.name, level: DEFAULT_MEMBER_LEVEL })),
  ];
}

export function PermissionsDialog({ item, onClose, onSaved }: PermissionsDialogProps) {
  const { modal } = AntApp.useApp();
  // the dialog keeps showing the last item while it closes
  const last = useRef<Item | null>(item);
  if (item) last.current = item;
  const shown = item ?? last.current;
  const itemId = item?.id;
  // policies exist only in the enterprise space
  const enterprise = item?.spaceType === 1;

  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  /** the item's own list being edited; null while it follows an ancestor or the default */
  const [rows, setRows] = useState<PolicyRow[] | null>(null);
  const [picking, setPicking] = useState(false);
  const [restoring, setRestoring] = useState(false);

  useEffect(() => {
    if (!itemId || !enterprise) return;
    let live = true;
    setState({ status: 'loading' });
    setRows(null);
    setPicking(false);
    api
      .getPolicies(itemId, true)
      .then((list) => {
        if (!live) return;
        setState({ status: 'ready', list });
        setRows(hasOwnList(list) ? rowsOf(list) : null);
      })
      .catch((e: unknown) => {
        if (live) setState({ status: 'error', message: errorMessage(e) });
      });
    return () => {
      live = false;
    };
  }, [itemId, enterprise, attempt]);

  const list = state.list;
  const editing = rows !== null;

  const save = async () => {
    if (!itemId || !rows?.length) return;
    try {
      await api.setPolicies({
        fileId: itemId,
        policies: rows.map(({ subjectType, subjectId, level }) => ({ subjectType, subjectId, level })),
      });
    } catch {
      return; // the http client has shown the server's message; the dialog stays open
    }
    notify.success('权限设置已保存');
    onSaved?.();
    onClose();
  };

  /** Back to the inherited (or default) access: the own list saved so far is cleared. */
  const restore = () => {
    if (!itemId || !list) return;
    // an own list that was never saved is simply dropped
    if (!hasOwnList(list)) {
      setRows(null);
      return;
    }
    modal.confirm({
      title: PERMISSION_TEXTS.restore,
      content: PERMISSION_TEXTS.restoreConfirm,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        setRestoring(true);
        try {
          await api.setPolicies({ fileId: itemId, policies: [] });
        } catch {
          return; // shown by the http client; the dialog stays open
        } finally {
          setRestoring(false);
        }
        notify.success('已恢复继承');
        onSaved?.();
        onClose();
      },
    });
  };

  const addPicked = (selection: UserPickerSelection) => {
    setRows((current) => {
      const present = new Set((current ?? []).map(rowKey));
      const added = rowsFromSelection(selection).filter((r) => {
        if (present.has(rowKey(r))) return false;
        present.add(rowKey(r));
        return true;
      });
      return [...(current ?? []), ...added];
    });
    setPicking(false);
  };

  const setLevel = (key: string, level: AccessLevel) =>
    setRows((current) => current?.map((r) => (rowKey(r) === key ? { ...r, level } : r)) ?? null);
  const removeRow = (key: string) => setRows((current) => current?.filter((r) => rowKey(r) !== key) ?? null);

  const columns: TableColumnsType<PolicyRow> = [
    { key: 'subject', title: '权限对象', ellipsis: true, render: (_: unknown, r) => <SubjectName row={r} /> },
    { key: 'type', title: '类型', width: 90, render: (_: unknown, r) => subjectTypeName(r.subjectType) },
    {
      key: 'level',
      title: '权限',
      width: 150,
      render: (_: unknown, r) =>
        editing ? (
          <Select<AccessLevel>
            aria-label={`${r.subjectName} 的权限`}
            size="small"
            style={{ width: 130 }}
            value={r.level}
            options={ACCESS_LEVELS.map((l) => ({ value: l.value, label: l.label }))}
            onChange={(level) => setLevel(rowKey(r), level)}
          />
        ) : (
          accessLevelName(r.level)
        ),
    },
  ];
  if (editing) {
    columns.push({
      key: 'actions',
      title: '操作',
      width: 80,
      render: (_: unknown, r) => (
        <Button type="link" size="small" danger aria-label={`移除 ${r.subjectName}`} onClick={() => removeRow(rowKey(r))}>
          移除
        </Button>
      ),
    });
  }

  const table = (data: PolicyRow[], label: string) => (
    <Table<PolicyRow>
      aria-label={label}
      rowKey={rowKey}
      size="small"
      columns={columns}
      dataSource={data}
      pagination={false}
      locale={{ emptyText: editing ? '暂无成员，请点击「添加成员」' : '暂无权限设置' }}
    />
  );

  const setOwnButton = (
    <Button type="primary" ghost onClick={() => setRows(list ? rowsOf(list) : [])}>
      {PERMISSION_TEXTS.setOwn}
    </Button>
  );

  let body;
  if (shown && shown.spaceType !== 1) {
    body = <Alert type="info" showIcon title="个人文件不支持设置访问权限" />;
  } else if (state.status === 'error') {
    body = <LoadError message={state.message} onRetry={() => setAttempt((a) => a + 1)} />;
  } else if (state.status === 'loading' || !list) {
    body = (
      <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
        <Spin aria-label="加载中" />
      </div>
    );
  } else if (rows) {
    body = (
      <>
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8, marginBottom: 8 }}>
          <Typography.Text type="secondary">
            {hasOwnList(list)
              ? PERMISSION_TEXTS.ownNotice
              : list.inherited
                ? `保存后将不再继承「${list.inheritedFrom?.namePath ?? '上级文件夹'}」的权限`
                : '保存后将不再使用企业文件的默认权限'}
          </Typography.Text>
          <Space>
            <Button icon={<PlusOutlined />} onClick={() => setPicking(true)}>
              {PERMISSION_TEXTS.addMembers}
            </Button>
            <Button loading={restoring} onClick={restore}>
              {PERMISSION_TEXTS.restore}
            </Button>
          </Space>
        </div>
        {table(rows, '权限列表')}
        {rows.length === 0 ? (
          <Typography.Text type="warning" style={{ display: 'block', marginTop: 8 }}>
            {PERMISSION_TEXTS.emptyOwn}
          </Typography.Text>
        ) : null}
      </>
    );
  } else if (list.inherited) {
    body = (
      <>
        <Alert
          type="info"
          showIcon
          title={PERMISSION_TEXTS.inheritedNotice(list.inheritedFrom?.namePath ?? '上级文件夹')}
          action={setOwnButton}
          style={{ marginBottom: 8 }}
        />
        {table(rowsOf(list), '继承的权限')}
      </>
    );
  } else {
    body = <Alert type="info" showIcon title={PERMISSION_TEXTS.defaultNotice} action={setOwnButton} />;
  }

  return (
    <>
      <AppDialog
        open={!!item}
        title={`权限设置 - ${shown?.name ?? ''}`}
        width={720}
        fullscreenable={false}
        destroyOnHidden
        okText="保存"
        okButtonProps={{ disabled: !editing || !rows?.length || restoring }}
        onOk={save}
        onCancel={() => {
          if (!restoring) onClose();
        }}
      >
        <ul aria-label="权限说明" style={{ margin: '0 0 12px', paddingLeft: 18, color: 'rgba(0, 0, 0, 0.45)', fontSize: 12 }}>
          {ACCESS_LEVELS.map((l) => (
            <li key={l.value}>
              <strong>{l.label}</strong>：{l.help}
            </li>
          ))}
        </ul>
        {body}
      </AppDialog>
      <UserPicker
        open={picking}
        title={PERMISSION_TEXTS.addMembers}
        onOk={addPicked}
        onCancel={() => setPicking(false)}
      />
    </>
  );
}
