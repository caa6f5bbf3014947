// The public outsourced-share page /s/:shareId that external visitors open from a share
// link. It needs no session: the shell renders it outside the signed-in layout.
import { Descriptions } from 'antd';
import { useParams } from 'react-router-dom';
import { RemotePage, UnavailableSection } from '@app/shared/ui';

export default function SharePage() {
  const { shareId = '' } = useParams();
  return (
    <RemotePage title="外链分享">
      <Descriptions
        column={1}
        size="small"
        style={{ maxWidth: 560 }}
        items={[{ key: 'shareId', label: '分享编号', children: shareId || '（无）' }]}
      />
      <UnavailableSection feature="外链分享内容" />
    </RemotePage>
  );
}
