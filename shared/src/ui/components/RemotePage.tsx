import type { ReactNode } from 'react';
import { Typography } from 'antd';

export interface RemotePageProps {
  /** The page title, shown as the heading. */
  title: ReactNode;
  /** A toolbar on the right of the title (buttons, a search box). */
  extra?: ReactNode;
  /** Navigation under the title (tabs of the section). */
  nav?: ReactNode;
  children?: ReactNode;
}

/** The frame of a page rendered by a remote inside the shell's content area. */
export function RemotePage({ title, extra, nav, children }: RemotePageProps) {
  return (
    <section style={{ display: 'flex', flexDirection: 'column', gap: 12, padding: 16, minHeight: '100%' }}>
      <header style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 16, flexWrap: 'wrap' }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra ? <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>{extra}</div> : null}
      </header>
      {nav}
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
    </section>
  );
}
