// How 云文档 shows a ferry file's automatic checks and the sensitive words found in it, the same
// in the task drawer (我的摆渡, 文件摆渡) and on the approval (摆渡内容): one tag per check, green
// passed, red failed, grey not checked, its message in the tooltip and the accessible name; each
// keyword with its count and the text around it, the keyword marked.
import type { ReactNode } from 'react';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { FERRY_CHECK_TEXT, type FerryCheckResult, type FerryKeywordHit } from '@app/shared';

export const FERRY_CHECK_RESULT_TEXT: Record<FerryCheckResult['result'], string> = { passed: '通过', failed: '未通过', skipped: '未检查' };
export const FERRY_CHECK_RESULT_COLOR: Record<FerryCheckResult['result'], string> = { passed: 'green', failed: 'red', skipped: 'default' };

/** `text` with every occurrence of `keyword` (any case) marked. */
export function highlight(text: string, keyword: string): ReactNode[] {
  if (!keyword) return [text];
  const parts: ReactNode[] = [];
  const haystack = text.toLowerCase();
  const needle = keyword.toLowerCase();
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(
      <mark key={at} style={{ background: '#ffe58f', padding: '0 1px', borderRadius: 2 }}>
        {text.slice(at, at + keyword.length)}
      </mark>,
    );
    from = at + keyword.length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}

export function FerryCheckTag({ check }: { check: FerryCheckResult }) {
  const name = FERRY_CHECK_TEXT[check.name] ?? check.name;
  const result = FERRY_CHECK_RESULT_TEXT[check.result] ?? check.result;
  return (
    <Tooltip title={check.message || result}>
      <Tag
        color={FERRY_CHECK_RESULT_COLOR[check.result] ?? 'default'}
        data-check={check.name}
        data-result={check.result}
        aria-label={`${name}：${result}${check.message ? `。${check.message}` : ''}`}
      >
        {name} {result}
      </Tag>
    </Tooltip>
  );
}

/** Every check of a file (a dash when it has not been checked yet). */
export function FerryCheckTags({ checks, label }: { checks: FerryCheckResult[]; label?: string }) {
  if (!checks.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={[0, 4]} wrap aria-label={label}>
      {checks.map((c) => (
        <FerryCheckTag key={c.name} check={c} />
      ))}
    </Space>
  );
}

/** The sensitive words found in a file, each with its count and the text around it. */
export function FerryKeywordHits({ hits }: { hits: FerryKeywordHit[] }) {
  if (!hits.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <ul aria-label="敏感词命中" style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 4 }}>
      {hits.map((h) => (
        <li key={h.keyword} data-testid="keyword-hit" style={{ display: 'flex', gap: 8, alignItems: 'baseline', flexWrap: 'wrap' }}>
          <Tag color="orange" style={{ marginInlineEnd: 0 }}>
            {h.keyword} ×{h.count}
          </Tag>
          {h.context ? (
            <span style={{ color: '#595959', whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}>“{highlight(h.context, h.keyword)}”</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
