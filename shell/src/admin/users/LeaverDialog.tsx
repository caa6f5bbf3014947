// 离职交接: what the leaving person holds (personal files, approvals waiting for them, flows
// they started, shares, ferry tasks, and the posts of 部门负责人 and 部门管理员 by full path), the
// successor who takes it all over, whether their shares stay (now the successor's) or are
// cancelled, and the handover in one confirmed step. The account is disabled and marked as left,
// never deleted. Only a system administrator may hand over a 部门管理员's post (the server
// refuses the rest; the dialog says so before).
import { useCallback, useEffect, useState } from 'react';
import { Alert, App as AntApp, Button, Form, Radio, Space, Spin, Tag, Typography } from 'antd';
import { formatBytes, notify, type AdminUser, type HandoverPreview, type HandoverResult, type HandoverSharesChoice, type OrgUser, useUserInfo } from '@app/shared';
import { leaverApi } from '@app/shared/admin';
import { AppDialog, UserPicker } from '@app/shared/ui';
import { useLastShown } from './passwordOnce';

export interface LeaverDialogProps {
  /** the person leaving */
  user: AdminUser | null;
  open: boolean;
  onClose: () => void;
  /** after the handover (the list is to be read again) */
  onDone: (result: HandoverResult) => void;
}

export const LEAVER_WARNING = '账号将被停用并标记为离职，不会删除；全部会话立即结束。';
export const ADMIN_POST_SYSTEM_ONLY = '此人担任部门管理员，只有系统管理员可以为其办理离职交接。';

const nameOf = (u: { nickName?: string; userName: string }) => u.nickName || u.userName;
const labelOf = (u: { nickName?: string; userName: string }) => (u.nickName && u.nickName !== u.userName ? `${u.nickName}（${u.userName}）` : u.userName);

/** The lines of the preview: what is held, and what the handover does with it. */
function heldLines(p: HandoverPreview): { key: string; text: string; note: string }[] {
  return [
    { key: 'files', text: `个人文件 ${p.files.count} 个（${formatBytes(p.files.bytes)}）`, note: '移入接任者个人空间新建的“离职交接-昵称-日期”文件夹，此后计入接任者的空间用量' },
    { key: 'tasks', text: `待审批 ${p.pendingTasks} 项`, note: '转交给接任者，审批记录中可见' },
    { key: 'flows', text: `进行中的流程 ${p.runningFlows} 个`, note: '发起人改为接任者，由其继续跟进' },
    { key: 'shares', text: `分享 ${p.shares.count} 个`, note: '按下方选择保留或取消' },
    { key: 'ferry', text: `摆渡任务 ${p.ferryTasks.count} 个`, note: '申请人改为接任者' },
    ...(p.leaderOf.length ? [{ key: 'leader', text: `部门负责人：${postNames(p.leaderOf)}`, note: '改由接任者担任' }] : []),
    ...(p.adminOf.length ? [{ key: 'admin', text: `部门管理员：${postNames(p.adminOf)}`, note: '改由接任者担任' }] : []),
  ];
}

const postNames = (posts: HandoverPreview['leaderOf']) => posts.map((d) => d.name).join('、');

/** The posts the successor takes over, for the confirmation ('' for none). */
function postsSentence(p: HandoverPreview, successor: string): string {
  const posts = [
    ...(p.leaderOf.length ? [`部门负责人（${postNames(p.leaderOf)}）`] : []),
    ...(p.adminOf.length ? [`部门管理员（${postNames(p.adminOf)}）`] : []),
  ];
  return posts.length ? `其担任的${posts.join('和')}由“${successor}”接任。` : '';
}

export function LeaverDialog({ user: current, open, onClose, onDone }: LeaverDialogProps) {
  const { modal } = AntApp.useApp();
  const me = useUserInfo();
  const user = useLastShown(current);
  const [preview, setPreview] = useState<HandoverPreview | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [successor, setSuccessor] = useState<OrgUser | null>(null);
  const [shares, setShares] = useState<HandoverSharesChoice>('keep');
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const userId = current?.userId;

  const load = useCallback(() => {
    if (!userId) return () => undefined;
    let live = true;
    setStatus('loading');
    leaverApi
      .getHandover(userId)
      .then((p) => {
        if (!live) return;
        setPreview(p);
        setStatus('ready');
      })
      .catch(() => {
        if (live) setStatus('error');
      });
    return () => {
      live = false;
    };
  }, [userId]);

  // a fresh start every time the dialog opens
  useEffect(() => {
    if (!open) return;
    setPreview(null);
    setSuccessor(null);
    setShares('keep');
    setError(null);
    return load();
  }, [open, load]);

  const leftAlready = preview?.leftAt != null;
  // a department administrator may not hand over a 部门管理员's post (the server refuses it)
  const systemOnly = !leftAlready && !me?.isAdmin && !!preview?.adminOf.length;

  const submit = () => {
    setError(null);
    if (!user || !preview || leftAlready || systemOnly) return;
    if (!successor) return setError('请选择接任者');
    if (successor.userId === user.userId) return setError('接任者不能是离职者本人');
    modal.confirm({
      title: `确认为“${nameOf(user)}”办理离职交接？`,
      content:
        (shares === 'keep'
          ? `其个人文件、待审批、进行中的流程、分享和摆渡任务将交给“${nameOf(successor)}”。`
          : `其个人文件、待审批、进行中的流程和摆渡任务将交给“${nameOf(successor)}”，分享全部取消。`) +
        `${postsSentence(preview, nameOf(successor))}${LEAVER_WARNING}此操作不能撤销。`,
      okText: '确认交接',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        let result: HandoverResult;
        try {
          result = await leaverApi.handover(user.userId, { successorId: successor.userId, shares });
        } catch {
          return; // shown by the http client; the dialog stays open
        }
        notify.success(
          result.folder ? `已完成“${nameOf(user)}”的离职交接，文件已移入“${nameOf(successor)}”的“${result.folder.name}”` : `已完成“${nameOf(user)}”的离职交接`,
        );
        onDone(result);
      },
    });
  };

  return (
    <AppDialog
      open={open}
      title={user ? `离职交接：${labelOf(user)}` : '离职交接'}
      width={600}
      fullscreenable={false}
      destroyOnHidden
      okText="确认交接"
      okButtonProps={{ danger: true, disabled: status !== 'ready' || leftAlready || systemOnly }}
      onOk={submit}
      onCancel={onClose}
    >
      {status === 'loading' ? (
        <Spin />
      ) : status === 'error' || !preview ? (
        <Alert
          type="error"
          showIcon
          title="无法读取此人持有的内容"
          action={
            <Button size="small" onClick={() => load()}>
              重试
            </Button>
          }
        />
      ) : (
        <Form layout="vertical">
          {leftAlready ? <Alert type="info" showIcon title="此人已办理离职交接，不能重复办理。" style={{ marginBottom: 12 }} /> : null}
          {systemOnly ? <Alert type="error" showIcon title={ADMIN_POST_SYSTEM_ONLY} style={{ marginBottom: 12 }} /> : null}
          <Form.Item label="此人持有">
            <ul aria-label="此人持有" style={{ margin: 0, paddingLeft: 20 }}>
              {heldLines(preview).map((l) => (
                <li key={l.key}>
                  <span>{l.text}</span>
                  <Typography.Text type="secondary">：{l.note}</Typography.Text>
                </li>
              ))}
            </ul>
          </Form.Item>
          <Form.Item label="接任者" required>
            <Space wrap>
              {successor ? <Tag color="blue">{labelOf(successor)}</Tag> : null}
              <Button size="small" disabled={leftAlready || systemOnly} onClick={() => setPicking(true)}>
                {successor ? '重新选择' : '选择接任者'}
              </Button>
            </Space>
          </Form.Item>
          <Form.Item label="分享">
            <Radio.Group aria-label="分享" value={shares} disabled={leftAlready} onChange={(e) => setShares(e.target.value as HandoverSharesChoice)}>
              <Radio value="keep">保留（转给接任者）</Radio>
              <Radio value="cancel">取消分享</Radio>
            </Radio.Group>
          </Form.Item>
          <Alert type="warning" showIcon title={LEAVER_WARNING} />
        </Form>
      )}
      {error ? (
        <div role="alert" style={{ marginTop: 8 }}>
          <Typography.Text type="danger">{error}</Typography.Text>
        </div>
      ) : null}
      <UserPicker
        open={picking}
        title="选择接任者"
        limitTypes={['user']}
        multiple={false}
        initialSelection={{ users: successor ? [successor] : [] }}
        onOk={(selection) => {
          setSuccessor(selection.users[0] ?? null);
          setError(null);
          setPicking(false);
        }}
        onCancel={() => setPicking(false)}
      />
    </AppDialog>
  );
}
