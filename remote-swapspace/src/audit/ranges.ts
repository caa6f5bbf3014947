// The date ranges offered beside the date pickers of 统计审计 (云文档's exchange space).
import dayjs, { type Dayjs } from 'dayjs';

/** The last `days` days, today included. */
export const lastDays = (days: number): [Dayjs, Dayjs] => [dayjs().subtract(days - 1, 'day').startOf('day'), dayjs().startOf('day')];

export function rangePresets(): Array<{ label: string; value: [Dayjs, Dayjs] }> {
  return [
    { label: '最近 7 天', value: lastDays(7) },
    { label: '最近 30 天', value: lastDays(30) },
    { label: '最近 90 天', value: lastDays(90) },
    { label: '今年', value: [dayjs().startOf('year'), dayjs().startOf('day')] },
  ];
}
