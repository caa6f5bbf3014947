// The file-name conflict dialog of 云文档 (spec sections 2 and 3): shows the conflicting
// name and the strategies the server offers; a 'rename to' input only for rename (2),
// pre-filled with the old name without its extension plus '（1）'; 'apply to all later
// conflicts' unless rename is chosen. Used by move / copy and by the upload panel.
import { useEffect, useState } from 'react';
import { Checkbox, Form, Input, Radio, Space, Typography } from 'antd';
import { CONFLICT_DIALOG_WIDTH, ConflictStrategy, RENAME_MAX_LENGTH, type ConflictStrategyOption } from '@app/shared';
import { AppDialog } from '../AppDialog';
import { FILE_NAME_MESSAGES, fileNameError, splitFileName } from './fileName';

export interface ConflictDialogResult {
  /** the chosen strategy value (0 新版本, 1 覆盖, 2 重命名, 3 跳过) */
  operation: ConflictStrategyOption['value'];
  /** apply the strategy to every later conflict (always false for rename) */
  operationAll: boolean;
  /** the whole new name, extension included (rename only) */
  newFileName?: string;
  /** the extension kept from the old name ('.docx', '' for none; rename only) */
  fileExtension?: string;
}

export interface ConflictDialogProps {
  open: boolean;
  conflictInfo: { fileName: string } | null;
  conflictStrategies: ConflictStrategyOption[];
  onOk: (result: ConflictDialogResult) => unknown;
  onCancel: () => void;
  /** the conflicting item is a folder: its name has no extension */
  isFolder?: boolean;
  /** the strategy selected at first (default: the first offered) */
  defaultOperation?: ConflictStrategyOption['value'];
  /** label of the apply-to-all checkbox */
  applyAllLabel?: string;
  width?: number;
}

export const CONFLICT_DIALOG_TITLE = '文件名重复';

export function ConflictDialog({
  open,
  conflictInfo,
  conflictStrategies,
  onOk,
  onCancel,
  isFolder = false,
  defaultOperation,
  applyAllLabel = '后续冲突均执行此操作',
  width = CONFLICT_DIALOG_WIDTH,
}: ConflictDialogProps) {
  const fileName = conflictInfo?.fileName ?? '';
  const { base, extension } = isFolder ? { base: fileName, extension: '' } : splitFileName(fileName);
  const initial = defaultOperation ?? conflictStrategies[0]?.value;
  const [operation, setOperation] = useState<ConflictStrategyOption['value'] | undefined>(initial);
  const [operationAll, setOperationAll] = useState(false);
  const [newBase, setNewBase] = useState(`${base}（1）`);
  const [touched, setTouched] = useState(false);

  // a new conflict starts over
  useEffect(() => {
    if (!open) return;
    setOperation(initial);
    setOperationAll(false);
    setNewBase(`${base}（1）`);
    setTouched(false);
  }, [open, fileName, initial, base]);

  const renaming = operation === ConflictStrategy.Rename;
  const error = renaming ? (newBase.trim() ? fileNameError(`${newBase.trim()}${extension}`) : FILE_NAME_MESSAGES.required) : null;

  const handleOk = () => {
    if (operation === undefined) return;
    if (renaming) {
      setTouched(true);
      if (error) return;
      return onOk({ operation, operationAll: false, newFileName: `${newBase.trim()}${extension}`, fileExtension: extension });
    }
    return onOk({ operation, operationAll });
  };

  return (
    <AppDialog
      open={open}
      title={CONFLICT_DIALOG_TITLE}
      width={width}
      fullscreenable={false}
      destroyOnHidden
      onOk={handleOk}
      onCancel={onCancel}
      okButtonProps={{ disabled: operation === undefined }}
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Text>
          目标位置已存在同名文件（夹）“<Typography.Text strong>{fileName}</Typography.Text>”，请选择处理方式：
        </Typography.Text>
        <Radio.Group
          aria-label="处理方式"
          value={operation}
          onChange={(e) => setOperation(e.target.value as ConflictStrategyOption['value'])}
          options={conflictStrategies.map((s) => ({ label: s.name, value: s.value }))}
        />
        {renaming ? (
          <Form.Item
            label="重命名为"
            style={{ marginBottom: 0 }}
            validateStatus={touched && error ? 'error' : undefined}
            help={touched && error ? error : undefined}
          >
            <Input
              aria-label="重命名为"
              value={newBase}
              count={{ show: true, max: RENAME_MAX_LENGTH - extension.length }}
              suffix={extension || undefined}
              onChange={(e) => {
                setNewBase(e.target.value);
                setTouched(true);
              }}
            />
          </Form.Item>
        ) : (
          <Checkbox checked={operationAll} onChange={(e) => setOperationAll(e.target.checked)}>
            {applyAllLabel}
          </Checkbox>
        )}
      </Space>
    </AppDialog>
  );
}
