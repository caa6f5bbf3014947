// The name dialog of 云文档: 新建文件夹 and 重命名 of the file list (spec section 5: at most 150
// characters, with a counter) by default, and any other one-name dialog with its own check and
// limit (favourites categories). Server errors are shown by the shared http client; the dialog
// then stays open.
import { useEffect, useState } from 'react';
import { Form, Input } from 'antd';
import { RENAME_MAX_LENGTH } from '@app/shared';
import { AppDialog, fileNameError } from '@app/shared/ui';

export interface NameDialogProps {
  open: boolean;
  title: string;
  /** the label of the input (名称, 文件夹名称) */
  label: string;
  initialValue?: string;
  /** receives the trimmed name; a rejection keeps the dialog open */
  onSubmit: (name: string) => Promise<unknown>;
  onCancel: () => void;
  /** why a value cannot be saved, or null (default: a file or folder name's rules) */
  validate?: (value: string) => string | null;
  /** the counter's limit (default RENAME_MAX_LENGTH) */
  maxLength?: number;
  /** how the counter counts (default: UTF-16 units, as antd does) */
  countLength?: (value: string) => number;
}

export function NameDialog({
  open,
  title,
  label,
  initialValue = '',
  onSubmit,
  onCancel,
  validate = fileNameError,
  maxLength = RENAME_MAX_LENGTH,
  countLength,
}: NameDialogProps) {
  const [value, setValue] = useState(initialValue);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setValue(initialValue);
      setTouched(false);
    }
  }, [open, initialValue]);

  const error = validate(value);

  const submit = async () => {
    setTouched(true);
    if (error) return;
    try {
      await onSubmit(value.trim());
    } catch {
      /* the http client has shown the server's message; the dialog stays open */
    }
  };

  return (
    <AppDialog open={open} title={title} fullscreenable={false} destroyOnHidden onOk={submit} onCancel={onCancel}>
      <Form layout="vertical" component="div">
        <Form.Item label={label} required validateStatus={touched && error ? 'error' : undefined} help={touched && error ? error : undefined}>
          <Input
            aria-label={label}
            autoFocus
            placeholder={`请输入${label}`}
            value={value}
            count={{ show: true, max: maxLength, ...(countLength ? { strategy: countLength } : {}) }}
            onChange={(e) => {
              setValue(e.target.value);
              setTouched(true);
            }}
            onPressEnter={() => void submit()}
          />
        </Form.Item>
      </Form>
    </AppDialog>
  );
}
