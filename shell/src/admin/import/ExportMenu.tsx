// 导出 in the toolbar of 系统管理 › 用户: the people matching the current filters, as Excel or
// CSV, with the columns of the import template so that the file can be edited and imported again.
import { Button, Dropdown, Tooltip, type MenuProps } from 'antd';
import { DownOutlined, ExportOutlined } from '@ant-design/icons';
import { apiUrl, downloadByFrame, type AdminUsersQuery } from '@app/shared';
import { adminApi } from '@app/shared/admin';

export type ExportFilter = Omit<AdminUsersQuery, 'page' | 'pageSize'>;

export const EXPORT_TIP = '导出当前筛选条件下的用户，列与导入模板相同，可修改后重新导入';

const items: MenuProps['items'] = [
  { key: 'xlsx', label: '导出为 Excel' },
  { key: 'csv', label: '导出为 CSV' },
];

export function ExportMenu({ filter }: { filter: ExportFilter }) {
  const onClick: MenuProps['onClick'] = ({ key }) => {
    downloadByFrame(apiUrl(adminApi.exportUsersPath(key as 'xlsx' | 'csv', filter)));
  };
  return (
    <Tooltip title={EXPORT_TIP}>
      <span style={{ display: 'inline-block' }}>
        <Dropdown menu={{ items, onClick }} trigger={['click']}>
          <Button icon={<ExportOutlined />}>
            导出 <DownOutlined />
          </Button>
        </Dropdown>
      </span>
    </Tooltip>
  );
}
