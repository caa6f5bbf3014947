// 选择文件, the first step of 批量导入: the templates, the columns the file holds, the mode
// (追加和更新 or 全量同步) and the file itself (.xlsx or .csv, one at a time).
import { Button, Radio, Space, Typography, Upload, type UploadFile } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { apiUrl, downloadByFrame, notify, type ImportMode } from '@app/shared';
import { IMPORT_COLUMNS, adminApi } from '@app/shared/admin';

const ACCEPTED = ['.xlsx', '.csv'];

const MODES: { value: ImportMode; label: string; note: string }[] = [
  { value: 'upsert', label: '追加和更新', note: '按用户名或工号匹配已有用户，同一文件导入两次不会产生变化' },
  { value: 'sync', label: '全量同步', note: '文件中没有的用户将被停用（不会删除）' },
];

const template = (format: 'xlsx' | 'csv') => downloadByFrame(apiUrl(adminApi.importTemplatePath(format)));

export function ImportFileStep({
  mode,
  onModeChange,
  fileList,
  onFileListChange,
  checking,
}: {
  mode: ImportMode;
  onModeChange: (mode: ImportMode) => void;
  fileList: UploadFile[];
  onFileListChange: (list: UploadFile[]) => void;
  /** the file is being checked: nothing can be changed */
  checking: boolean;
}) {
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap>
        <Button type="link" icon={<DownloadOutlined />} onClick={() => template('xlsx')}>
          下载 Excel 模板
        </Button>
        <Button type="link" icon={<DownloadOutlined />} onClick={() => template('csv')}>
          下载 CSV 模板
        </Button>
      </Space>
      <div>
        <Typography.Paragraph style={{ marginBottom: 4 }}>文件第一行为列名，依次为：{IMPORT_COLUMNS.join('、')}。</Typography.Paragraph>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          <ul style={{ margin: 0, paddingInlineStart: 20 }}>
            <li>用户名 必填；</li>
            <li>部门 写成路径，如“总部/研发中心/前端组”，不存在的部门会自动创建；</li>
            <li>角色 用“、”分隔，如“文档管理员、流程管理员”；</li>
            <li>个人空间配额 单位为 GB，留空为沿用部门或默认配额；</li>
            <li>状态 填“正常”或“停用”；</li>
            <li>新增用户的初始密码由系统生成，导入完成后只显示一次。</li>
          </ul>
        </Typography.Paragraph>
      </div>
      <div>
        <Typography.Text strong>导入方式</Typography.Text>
        <Radio.Group
          aria-label="导入方式"
          value={mode}
          disabled={checking}
          onChange={(e) => onModeChange(e.target.value as ImportMode)}
          style={{ display: 'flex', flexDirection: 'column', gap: 8, marginTop: 8 }}
        >
          {MODES.map((m) => (
            <Radio key={m.value} value={m.value}>
              {m.label}
              <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
                {m.note}
              </Typography.Text>
            </Radio>
          ))}
        </Radio.Group>
      </div>
      <Upload.Dragger
        accept={ACCEPTED.join(',')}
        maxCount={1}
        disabled={checking}
        fileList={fileList}
        beforeUpload={(f) => {
          if (!ACCEPTED.some((ext) => f.name.toLowerCase().endsWith(ext))) {
            notify.error('只能导入 .xlsx 或 .csv 文件');
            return Upload.LIST_IGNORE;
          }
          return false;
        }}
        onChange={({ fileList: list }) => onFileListChange(list.slice(-1))}
        onRemove={() => {
          onFileListChange([]);
          return true;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">点击或将文件拖到此处</p>
        <p className="ant-upload-hint">支持 .xlsx 和 .csv 文件，一次导入一个文件</p>
      </Upload.Dragger>
    </Space>
  );
}
