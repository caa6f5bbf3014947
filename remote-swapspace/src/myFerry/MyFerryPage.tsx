// 我的摆渡 of 云文档's exchange space (/swapSpace/myFerry/{state}): the user's ferry tasks that
// are 审批中, 已完成 or 已驳回, and 收到的文件 from other zones, one segment each; 发起摆渡 opens
// the request form in a drawer, with files picked from the user's spaces or uploaded.
import { useCallback, useState, type ReactNode } from 'react';
import { Button, Drawer } from 'antd';
import SendOutlined from '@ant-design/icons/SendOutlined';
import { api, useLoad, useRoles } from '@app/shared';
import { FerryInboxTable, FerryLoad, FerrySendForm, FerryTaskTable, RemoteNav, RemotePage } from '@app/shared/ui';
import { MY_FERRY_STATES, type MyFerryState } from '../meta';

export const MY_FERRY_TEXTS = {
  title: '我的摆渡',
  send: '发起摆渡',
} as const;

/** The request form in a drawer; the zones are asked each time it opens. */
function SendDrawer({ onClose }: { onClose: () => void }) {
  const roles = useRoles();
  const zones = useLoad(useCallback(() => api.getFerryZones({ errorMode: 'none' }), []));
  // picking needs a space to pick from
  const allowPick = roles?.personalSpace !== false || roles?.publicSpace !== false;
  return (
    <Drawer open title={MY_FERRY_TEXTS.send} size={720} onClose={onClose}>
      <FerryLoad state={zones.state} onRetry={zones.reload}>
        {(z) => <FerrySendForm zones={z} allowPick={allowPick} onSubmitted={onClose} />}
      </FerryLoad>
    </Drawer>
  );
}

export function MyFerryPage({ state, nav }: { state: MyFerryState; nav: ReactNode }) {
  const [sending, setSending] = useState(false);
  return (
    <RemotePage
      title={MY_FERRY_TEXTS.title}
      extra={
        <Button type="primary" icon={<SendOutlined />} onClick={() => setSending(true)}>
          {MY_FERRY_TEXTS.send}
        </Button>
      }
      nav={
        <>
          {nav}
          <RemoteNav entries={MY_FERRY_STATES} variant="segmented" label="摆渡状态" />
        </>
      }
    >
      {state === 'received' ? <FerryInboxTable /> : <FerryTaskTable tab={state} showApprovalLink />}
      {sending ? <SendDrawer onClose={() => setSending(false)} /> : null}
    </RemotePage>
  );
}
