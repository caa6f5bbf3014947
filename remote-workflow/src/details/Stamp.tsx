// The seal an ended approval carries on its details page (and on paper): a double circle in the
// colour of the decision, the decision in the middle, the approval's number along the upper rim
// and the decision date under the decision, turned 15° anticlockwise. Pure SVG, so it prints
// sharp at any size.
import { useId } from 'react';
import type { WorkflowStatus } from '@app/shared';

export type StampStatus = Exclude<WorkflowStatus, 1>;

export const STAMP_STYLES: Record<StampStatus, { label: string; color: string }> = {
  2: { label: '已通过', color: '#389e0d' },
  3: { label: '已驳回', color: '#cf1322' },
  4: { label: '已撤销', color: '#8c8c8c' },
};

export interface StampProps {
  status: StampStatus;
  /** the approval's number, e.g. SP20261124000012 */
  number: string;
  /** the decision date, YYYY-MM-DD */
  date: string;
  /** rendered size in pixels (default 148) */
  size?: number;
}

export function Stamp({ status, number, date, size = 148 }: StampProps) {
  const { label, color } = STAMP_STYLES[status];
  const arcId = `stamp-arc-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  return (
    <svg
      role="img"
      aria-label={`${label} ${number} ${date}`}
      width={size}
      height={size}
      viewBox="0 0 160 160"
      xmlns="http://www.w3.org/2000/svg"
      data-status={status}
    >
      <g transform="rotate(-15 80 80)" fill="none" stroke={color} opacity={0.9}>
        <circle cx="80" cy="80" r="74" strokeWidth="4" />
        <circle cx="80" cy="80" r="66" strokeWidth="1.5" />
        <path id={arcId} d="M 24 80 A 56 56 0 0 1 136 80" stroke="none" />
        <text fill={color} stroke="none" fontSize="11" fontWeight="600" letterSpacing="0.5" fontFamily="Arial, Helvetica, sans-serif">
          <textPath href={`#${arcId}`} startOffset="50%" textAnchor="middle">
            {number}
          </textPath>
        </text>
        <line x1="30" y1="62" x2="130" y2="62" strokeWidth="1.2" />
        <line x1="30" y1="100" x2="130" y2="100" strokeWidth="1.2" />
        <text
          x="80"
          y="91"
          fill={color}
          stroke="none"
          textAnchor="middle"
          fontSize="27"
          fontWeight="700"
          letterSpacing="2"
          fontFamily="'SimHei', 'Heiti SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"
        >
          {label}
        </text>
        <text x="80" y="118" fill={color} stroke="none" textAnchor="middle" fontSize="12" fontFamily="Arial, Helvetica, sans-serif">
          {date}
        </text>
      </g>
    </svg>
  );
}
