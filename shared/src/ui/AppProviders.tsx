// The providers every 云文档 screen renders inside: the one jotai store, antd's
// ConfigProvider in Chinese and antd's App (whose message/modal feed the notifier).
import { useEffect, type ReactNode } from 'react';
import { Provider as JotaiProvider } from 'jotai';
import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { appStore, setNotifier } from '@app/shared';
import { createAntdNotifier } from './antdNotifier';

dayjs.locale('zh-cn');

export const appTheme: ThemeConfig = {
  token: { colorPrimary: '#1f6feb', borderRadius: 6 },
};

/** Registers antd's context-aware message and modal as the core's notifier while mounted. */
function NotifierBridge() {
  const { message, modal } = AntApp.useApp();
  useEffect(() => {
    const previous = setNotifier(createAntdNotifier(message, modal));
    return () => {
      setNotifier(previous);
    };
  }, [message, modal]);
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider store={appStore}>
      <ConfigProvider locale={zhCN} theme={appTheme}>
        <AntApp>
          <NotifierBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </JotaiProvider>
  );
}
