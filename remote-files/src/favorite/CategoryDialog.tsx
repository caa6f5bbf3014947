// 新建分类 and 重命名 of 我的收藏: one name, at most TAG_NAME_MAX_LENGTH characters, unlike the
// other categories' names. Server errors are shown by the shared http client; the dialog
// then stays open.
import { useEffect, useState } from 'react';
import { Form, Input } from 'antd';
import { TAG_NAME_MAX_LENGTH } from '@app/shared';
import { AppDialog } from '@app/shared/ui';
import { nameLength, shortNameError } from '../common/shortName';

export interface CategoryDialogProps {
  open: boolean;
  title: string;
  initialValue?: string;
  /** the names it must differ from (the other categories, 默认收藏夹 included) */
  taken: string[];
  /** receives the trimmed name; a rejection keeps the dialog open */
  onSubmit: (name: string) => Promise<unknown>;
  onCancel: () => void;
}

const LABEL = '分类名称';

export function CategoryDialog({ open, title, initialValue = '', taken, onSubmit, onCancel }: CategoryDialogProps) {
  const [value, setValue] = useState(initialValue);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setValue(initialValue);
      setTouched(false);
    }
  }, [open, initialValue]);

  const error = shortNameError(value, '分类', taken);

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
        <Form.Item label={LABEL} required validateStatus={touched && error ? 'error' : undefined} help={touched && error ? error : undefined}>
          <Input
            aria-label={LABEL}
            autoFocus
            placeholder={`请输入${LABEL}`}
            value={value}
            count={{ show: true, max: TAG_NAME_MAX_LENGTH, strategy: nameLength }}
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
