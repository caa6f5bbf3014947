// The charts of 云文档's ferry statistics, drawn with plain CSS (no chart library): columns over
// time and horizontal bars for the breakdowns. Every bar carries its numbers as its accessible
// name and as its tooltip (title), so a screen reader, a hover and a test read the same words.
import type { ReactNode } from 'react';
import { Typography } from 'antd';

export interface ChartItem {
  key: string;
  /** what the bar stands for (a day, a direction, a state) */
  label: string;
  /** the bar's length */
  value: number;
  /** the numbers in words, e.g. 2026-11-24：摆渡 7 次，文件 18 个，共 3 MB */
  text: string;
  /** the number printed beside the bar (default: value) */
  shown?: ReactNode;
  color?: string;
}

const BAR_COLOR = '#1f6feb';
const EMPTY = '暂无数据';

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <figure aria-label={title} style={{ margin: 0, minWidth: 0 }}>
      <figcaption style={{ fontWeight: 500, marginBottom: 8 }}>{title}</figcaption>
      {children}
    </figure>
  );
}

const share = (value: number, max: number) => (max > 0 ? Math.max(0, (value / max) * 100) : 0);

/** Horizontal bars, one row per item, longest = the largest value. */
export function BarChart({ title, items }: { title: string; items: ChartItem[] }) {
  const max = Math.max(0, ...items.map((i) => i.value));
  return (
    <Frame title={title}>
      {items.length ? (
        <ul role="list" style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 6 }}>
          {items.map((i) => (
            <li
              key={i.key}
              aria-label={i.text}
              title={i.text}
              style={{ display: 'grid', gridTemplateColumns: 'minmax(80px, 35%) 1fr auto', alignItems: 'center', gap: 8 }}
            >
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{i.label}</span>
              <span aria-hidden="true" style={{ background: '#f0f2f5', borderRadius: 3, height: 14, overflow: 'hidden' }}>
                <span
                  data-bar=""
                  style={{
                    display: 'block',
                    height: '100%',
                    width: `${share(i.value, max)}%`,
                    minWidth: i.value > 0 ? 2 : 0,
                    background: i.color ?? BAR_COLOR,
                    borderRadius: 3,
                  }}
                />
              </span>
              <span style={{ fontVariantNumeric: 'tabular-nums', minWidth: 32, textAlign: 'right' }}>{i.shown ?? i.value}</span>
            </li>
          ))}
        </ul>
      ) : (
        <Typography.Text type="secondary">{EMPTY}</Typography.Text>
      )}
    </Frame>
  );
}

/** Columns along time, left to right; a label under every column when they fit, else under some. */
export function ColumnChart({ title, items, height = 160 }: { title: string; items: ChartItem[]; height?: number }) {
  const max = Math.max(0, ...items.map((i) => i.value));
  const every = Math.max(1, Math.ceil(items.length / 12));
  return (
    <Frame title={title}>
      {items.length ? (
        <div style={{ overflowX: 'auto' }}>
          <ul
            role="list"
            style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', alignItems: 'stretch', gap: 4, minWidth: items.length * 18 }}
          >
            {items.map((i, n) => (
              <li key={i.key} aria-label={i.text} title={i.text} style={{ flex: '1 1 0', minWidth: 14, display: 'flex', flexDirection: 'column' }}>
                <span aria-hidden="true" style={{ fontSize: 11, textAlign: 'center', color: '#595959', fontVariantNumeric: 'tabular-nums' }}>
                  {i.shown ?? i.value}
                </span>
                <span aria-hidden="true" style={{ height, display: 'flex', alignItems: 'flex-end' }}>
                  <span
                    data-bar=""
                    style={{
                      display: 'block',
                      width: '100%',
                      height: `${share(i.value, max)}%`,
                      minHeight: i.value > 0 ? 2 : 0,
                      background: i.color ?? BAR_COLOR,
                      borderRadius: '3px 3px 0 0',
                    }}
                  />
                </span>
                <span
                  aria-hidden="true"
                  style={{ fontSize: 11, color: '#8c8c8c', textAlign: 'center', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', borderTop: '1px solid #d9d9d9' }}
                >
                  {n % every === 0 ? i.label : '\u00a0'}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <Typography.Text type="secondary">{EMPTY}</Typography.Text>
      )}
    </Frame>
  );
}
