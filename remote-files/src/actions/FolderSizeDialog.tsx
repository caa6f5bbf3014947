// 计算大小 in 云文档: the size of everything below a folder, with its numbers of files and
// folders (shortcuts are neither followed nor counted).
import { useEffect, useState } from 'react';
import { Button, Descriptions, Modal, Spin, Typography } from 'antd';
import { api, formatBytes, Messages, type FolderSize, type Item } from '@app/shared';

export interface FolderSizeDialogProps {
  folder: Item;
  onClose: () => void;
}

export function FolderSizeDialog({ folder, onClose }: FolderSizeDialogProps) {
  const [state, setState] = useState<{ status: 'loading' | 'ready' | 'error'; data?: FolderSize; message?: string }>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    api
      .calcFolderSize(folder.id, { errorMode: 'none' })
      .then((data) => live && setState({ status: 'ready', data }))
      .catch((e: unknown) => live && setState({ status: 'error', message: e instanceof Error && e.message ? e.message : Messages.requestError }));
    return () => {
      live = false;
    };
  }, [folder.id]);

  return (
    <Modal
      open
      title="计算大小"
      onCancel={onClose}
      footer={<Button onClick={onClose}>关闭</Button>}
      destroyOnHidden
    >
      <Typography.Paragraph ellipsis={{ tooltip: folder.name }}>{folder.name}</Typography.Paragraph>
      {state.status === 'loading' ? (
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, minHeight: 80 }}>
          <Spin size="small" />
          <Typography.Text type="secondary">正在计算…</Typography.Text>
        </div>
      ) : state.status === 'error' ? (
        <Typography.Text type="danger">{state.message}</Typography.Text>
      ) : (
        <Descriptions
          column={1}
          size="small"
          items={[
            { key: 'size', label: '大小', children: formatBytes(state.data?.size ?? 0) },
            { key: 'files', label: '文件数', children: state.data?.fileCount ?? 0 },
            { key: 'folders', label: '文件夹数', children: state.data?.folderCount ?? 0 },
          ]}
        />
      )}
    </Modal>
  );
}
