// The core's notifier (toasts, error dialogs, the expired-session confirm) on top of antd:
// given antd App's context-aware message and modal inside the signed-in layout, or antd's
// static ones before it is mounted. One expired-session dialog at a time across both.
import type { ModalFuncProps } from 'antd';
import { Messages, type Notifier } from '@app/shared';

interface MessageApi {
  error(content: string): unknown;
  warning(content: string): unknown;
  success(content: string): unknown;
  info(content: string): unknown;
}

interface ModalApi {
  error(props: ModalFuncProps): unknown;
  warning(props: ModalFuncProps): unknown;
}

let expiredOpen = false;

export function createAntdNotifier(message: MessageApi, modal: ModalApi): Notifier {
  return {
    error: (m) => void message.error(m),
    warning: (m) => void message.warning(m),
    success: (m) => void message.success(m),
    info: (m) => void message.info(m),
    modalError: (m) => void modal.error({ title: Messages.errorTitle, content: m, okText: '确定' }),
    confirmExpired: (onOk) => {
      if (expiredOpen) return;
      expiredOpen = true;
      modal.warning({
        title: Messages.sessionExpiredTitle,
        content: Messages.sessionExpired,
        okText: Messages.relogin,
        closable: false,
        mask: { closable: false },
        keyboard: false,
        onOk: () => {
          expiredOpen = false;
          onOk();
        },
      });
    },
  };
}
