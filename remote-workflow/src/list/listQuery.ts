// The list's filters and page live in the address (?status=&definitionId=&from=&to=&keyword=
// &page=&pageSize=), so that back, forward and reload keep them; the box is the path's segment.
import type { WorkflowBox, WorkflowInstancesQuery, WorkflowStatus } from '@app/shared';

export const DEFAULT_PAGE_SIZE = 20;
export const PAGE_SIZES = [10, 20, 50, 100];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const positive = (value: string | null, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

export function queryOf(box: WorkflowBox, params: URLSearchParams): WorkflowInstancesQuery {
  const query: WorkflowInstancesQuery = {
    box,
    page: positive(params.get('page'), 1),
    pageSize: Math.min(200, positive(params.get('pageSize'), DEFAULT_PAGE_SIZE)),
  };
  const status = Number(params.get('status'));
  if ([1, 2, 3, 4].includes(status)) query.status = status as WorkflowStatus;
  const definitionId = params.get('definitionId');
  if (definitionId) query.definitionId = definitionId;
  const from = params.get('from');
  const to = params.get('to');
  if (from && DAY.test(from)) query.from = from;
  if (to && DAY.test(to)) query.to = to;
  const keyword = params.get('keyword')?.trim();
  if (keyword) query.keyword = keyword;
  return query;
}

/** The filters of `query` changed by `patch`; a filter change goes back to the first page. */
export function paramsOf(query: WorkflowInstancesQuery, patch: Partial<Omit<WorkflowInstancesQuery, 'box'>>): URLSearchParams {
  const filterChanged = Object.keys(patch).some((k) => k !== 'page' && k !== 'pageSize');
  const next = { ...query, ...patch };
  if (filterChanged || (patch.pageSize && patch.pageSize !== query.pageSize)) next.page = 1;
  const params = new URLSearchParams();
  if (next.status) params.set('status', String(next.status));
  if (next.definitionId) params.set('definitionId', next.definitionId);
  if (next.from) params.set('from', next.from);
  if (next.to) params.set('to', next.to);
  if (next.keyword) params.set('keyword', next.keyword);
  if (next.page > 1) params.set('page', String(next.page));
  if (next.pageSize !== DEFAULT_PAGE_SIZE) params.set('pageSize', String(next.pageSize));
  return params;
}

/** Whether any filter (not the page) is set. */
export const isFiltered = (q: WorkflowInstancesQuery) => Boolean(q.status || q.definitionId || q.from || q.to || q.keyword);
