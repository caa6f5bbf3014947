// 完成, the last step of 批量导入: what was written, and the generated initial passwords, shown
// this once and exportable as CSV.
import { Alert, Button, Result, Space, Table, Typography, type TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { notify, type ImportResult } from '@app/shared';
import { PASSWORDS_CSV_NAME, passwordsCsv, type PasswordRow } from './passwordsCsv';
import { saveText } from './saveText';

const passwordColumns: TableColumnsType<PasswordRow> = [
  { title: '用户名', dataIndex: 'userName' },
  { title: '昵称', dataIndex: 'nickName' },
  {
    title: '初始密码',
    dataIndex: 'initialPassword',
    render: (v: string) => (
      <Typography.Text style={{ fontFamily: 'SFMono-Regular, Consolas, "Liberation Mono", Menlo, monospace', userSelect: 'all' }}>{v}</Typography.Text>
    ),
  },
];

export function ImportDoneStep({
  result,
  exported,
  onExported,
}: {
  result: ImportResult;
  /** the initial passwords were exported */
  exported: boolean;
  onExported: () => void;
}) {
  const exportPasswords = () => {
    if (saveText(passwordsCsv(result.passwords), PASSWORDS_CSV_NAME, 'text/csv;charset=utf-8')) {
      onExported();
    } else {
      notify.warning('当前浏览器无法导出文件，请从表格中复制初始密码');
    }
  };

  return (
    <>
      <Result
        status="success"
        title="导入完成"
        subTitle={`新增 ${result.added} 人，更新 ${result.updated} 人，停用 ${result.disabled} 人，新建部门 ${result.departmentsCreated} 个`}
        style={{ paddingBlock: 16 }}
      />
      {result.passwords.length > 0 ? (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Alert type="warning" showIcon title="初始密码只显示这一次，请立即导出并通过安全渠道转交本人；首次登录须修改密码。" />
          <div>
            <Button icon={<DownloadOutlined />} type={exported ? 'default' : 'primary'} onClick={exportPasswords}>
              导出初始密码 (CSV)
            </Button>
          </div>
          <Table
            size="small"
            rowKey="userName"
            columns={passwordColumns}
            dataSource={result.passwords}
            pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
          />
        </Space>
      ) : null}
    </>
  );
}
