import type { ReactNode } from 'react';
import { Empty, Typography } from 'antd';

export interface SectionEmptyProps {
  /** The main line (default 暂无数据). */
  description?: ReactNode;
  /** A second, quieter line. */
  note?: ReactNode;
  /** Actions under the text. */
  children?: ReactNode;
}

/** An empty state: nothing to show here, and (optionally) why. */
export function SectionEmpty({ description = '暂无数据', note, children }: SectionEmptyProps) {
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      style={{ padding: '48px 0' }}
      description={
        <>
          <div>{description}</div>
          {note ? (
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
              {note}
            </Typography.Text>
          ) : null}
        </>
      }
    >
      {children}
    </Empty>
  );
}

/** The text shown where a part of 云文档 exists in the menu but is not built yet. */
export const UNAVAILABLE_NOTE = '该功能尚未开放，敬请期待';

/** An honest empty state for a page whose feature is not available yet: no fake data. */
export function UnavailableSection({ feature }: { feature?: string }) {
  return <SectionEmpty note={feature ? `「${feature}」${UNAVAILABLE_NOTE}` : UNAVAILABLE_NOTE} />;
}
