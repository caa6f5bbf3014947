// The name dialog of 云文档's file list: 新建文件夹 and 重命名 (spec section 5: at most 150
// characters, with a counter). Server errors are shown by the shared http client; the
// dialog then stays open.
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
}

export function NameDialog({ open, title, label, initialValue = '', onSubmit, onCancel }: NameDialogProps) {
  const [value, setValue] = useState(initialValue);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setValue(initialValue);
      setTouched(false);
    }
  }, [open, initialValue]);

  const error = fileNameError(value);

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
            count={{ show: true, max: RENAME_MAX_LENGTH }}
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
