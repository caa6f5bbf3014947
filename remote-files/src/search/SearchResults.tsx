// The results of a search, for the advanced search page and the search box of the folder pages:
// a table paged on the server with each item's icon, its name (the keyword marked), the text
// around the hit of a full-text search, where it lives, size, date and owner. A file's name opens
// its preview (the other files of the page as its neighbours); a folder opens as the folder
// shown; 打开所在位置 shows any result selected in its folder.
import type { ReactNode } from 'react';
import { Alert, Table, Typography } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { TableRowSelection } from 'antd/es/table/interface';
import { formatBytes, formatDateTime, jumpToFile, SEARCH_TOTAL_LIMIT, useRoles, type SearchItem, type SearchResult } from '@app/shared';
import { RowLink, SectionEmpty, useOpenPreview, useRowLinkStyle } from '@app/shared/ui';
import { ItemIcon } from '../folder/itemView';
import { ItemBadges } from '../folder/ItemBadges';
import { Highlighted } from './highlight';
import { SEARCH_PAGE_SIZES } from './searchInfo';

/** The results' least width: a narrower window scrolls the table sideways. */
const TABLE_MIN_WIDTH = 900;

export const LIMITED_NOTICE = `结果超过 ${SEARCH_TOTAL_LIMIT} 条，仅显示前 ${SEARCH_TOTAL_LIMIT} 条，请缩小搜索范围`;
export const noResultsText = (keyword: string) => `没有找到与“${keyword}”相关的文件`;

/** The folder an item lives in, from its namePath (which ends with the item's own name). */
export function locationOf(item: Pick<SearchItem, 'namePath' | 'name'>): string {
  const path = (item.namePath ?? '').replace(/\/+$/, '');
  if (path === item.name) return '';
  if (path.endsWith(`/${item.name}`)) return path.slice(0, path.length - item.name.length - 1);
  return path.split('/').slice(0, -1).join('/');
}

export interface SearchResultsProps {
  /** the keyword searched: marked in the names and snippets */
  keyword: string;
  /** the page loaded (undefined before the first answer) */
  result?: SearchResult;
  /** the rows shown, when they differ from `result.data` (changed in place by an action) */
  rows?: SearchItem[];
  loading: boolean;
  page: number;
  pageSize: number;
  onPage: (page: number, pageSize: number) => void;
  /** called after a result (or its location) was opened */
  onOpened?: (item: SearchItem) => void;
  /** the folder page's selection of results */
  rowSelection?: TableRowSelection<SearchItem>;
  /** props of a row (the folder page's highlight of a jump, its double click) */
  onRow?: TableProps<SearchItem>['onRow'];
  /** more actions after 打开所在位置 */
  renderActions?: (item: SearchItem) => ReactNode;
}

export function SearchResults(props: SearchResultsProps) {
  const { keyword, result, loading, page, pageSize, onPage, onOpened, renderActions } = props;
  const roles = useRoles();
  const navigate = useNavigate();
  const openPreview = useOpenPreview();
  useRowLinkStyle();
  const shown = props.rows ?? result?.data ?? [];

  /** A file opens its preview, a folder as the folder shown; shortcuts (and 打开所在位置) select the item in its folder. */
  const open = (item: SearchItem, where: 'item' | 'location') => {
    if (where === 'item' && item.type === 'file') {
      void openPreview({ fileId: item.id, extension: item.extension, name: item.name, siblings: shown });
      return;
    }
    const type = where === 'item' && item.type === 'folder' ? 'folder' : 'file';
    if (jumpToFile({ idPath: item.idPath, type }, roles, navigate)) onOpened?.(item);
  };

  const columns: TableColumnsType<SearchItem> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: '名称',
      render: (_: unknown, item) => (
        <div style={{ display: 'flex', alignItems: 'flex-start', gap: 8, minWidth: 0 }}>
          <ItemIcon item={item} size={24} />
          <div style={{ minWidth: 0 }}>
            <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
              <RowLink onClick={() => open(item, 'item')} title={item.name}>
                <Highlighted text={item.name} keyword={keyword} />
              </RowLink>
              <ItemBadges item={item} />
            </span>
            {item.highlight ? (
              <Typography.Paragraph type="secondary" data-snippet style={{ margin: '4px 0 0', fontSize: 12 }} ellipsis={{ rows: 2 }}>
                <Highlighted text={item.highlight} keyword={keyword} />
              </Typography.Paragraph>
            ) : null}
          </div>
        </div>
      ),
    },
    {
      key: 'location',
      title: '位置',
      width: 220,
      ellipsis: true,
      render: (_: unknown, item) => <span title={locationOf(item)}>{locationOf(item)}</span>,
    },
    {
      key: 'size',
      dataIndex: 'size',
      title: '大小',
      width: 100,
      render: (_: unknown, item) => (item.type === 'folder' ? '—' : formatBytes(item.size)),
    },
    { key: 'updatedAt', dataIndex: 'updatedAt', title: '修改时间', width: 160, render: (v: string) => formatDateTime(v) },
    { key: 'ownerName', dataIndex: 'ownerName', title: '所有者', width: 110, ellipsis: true },
    {
      key: 'actions',
      title: '操作',
      width: renderActions ? 320 : 120,
      render: (_: unknown, item) => (
        <span style={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 12, rowGap: 4 }}>
          <RowLink onClick={() => open(item, 'location')} aria-label={`打开所在位置 ${item.name}`}>
            打开所在位置
          </RowLink>
          {renderActions?.(item)}
        </span>
      ),
    },
  ];

  return (
    <>
      {result?.limited ? <Alert type="info" showIcon title={LIMITED_NOTICE} style={{ marginBottom: 8 }} /> : null}
      <Table<SearchItem>
        rowKey="id"
        size="middle"
        scroll={{ x: TABLE_MIN_WIDTH }}
        columns={columns}
        dataSource={shown}
        loading={loading}
        rowSelection={props.rowSelection}
        onRow={props.onRow}
        locale={{ emptyText: loading && !result ? <span /> : <SectionEmpty description={noResultsText(keyword)} note="请尝试其他关键字或调整筛选条件" /> }}
        pagination={{
          current: page,
          pageSize,
          total: result?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: SEARCH_PAGE_SIZES.map(String),
          showTotal: (total) => `共 ${total} 项`,
          onChange: (p, size) => onPage(size !== pageSize ? 1 : p, size),
        }}
      />
    </>
  );
}
