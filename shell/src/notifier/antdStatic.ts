// antd's static message and modal, used for notices raised before the signed-in layout
// (and its antd App context) is mounted. Loaded on demand only.
import { message, Modal } from 'antd';
import { Messages, type Notifier } from '@app/shared';

let expiredOpen = false;

export const staticNotifier: Notifier = {
  error: (m) => void message.error(m),
  warning: (m) => void message.warning(m),
  success: (m) => void message.success(m),
  info: (m) => void message.info(m),
  modalError: (m) => void Modal.error({ title: Messages.errorTitle, content: m, okText: '确定' }),
  confirmExpired: (onOk) => {
    if (expiredOpen) return;
    expiredOpen = true;
    Modal.warning({
      title: Messages.sessionExpiredTitle,
      content: Messages.sessionExpired,
      okText: Messages.relogin,
      closable: false,
      maskClosable: false,
      keyboard: false,
      onOk: () => {
        expiredOpen = false;
        onOk();
      },
    });
  },
};
