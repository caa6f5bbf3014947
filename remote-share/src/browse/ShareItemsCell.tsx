// The 名称 cell of a share in 分享记录 and 与我共享: the first item's icon and the share's title,
// a link when the row opens the share.
import type { ShareRecord } from '@app/shared';
import { shareTitle } from '@app/shared';
import { FileIcon, RowLink } from '@app/shared/ui';

export function ShareItemsCell({ record, onOpen }: { record: ShareRecord; onOpen?: () => void }) {
  const first = record.items[0];
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <FileIcon extension={first?.extension ?? ''} name={first?.name ?? ''} folder={first?.type === 'folder'} size={24} />
      {onOpen ? <RowLink onClick={onOpen}>{shareTitle(record)}</RowLink> : <span>{shareTitle(record)}</span>}
    </span>
  );
}
