// The full-window drag mask (spec section 2): shown while files are dragged over a page that
// takes drops; says where they go, that hidden dot-files inside folders are included, and
// that more than maxFileCount files may make the page lag.
import InboxOutlined from '@ant-design/icons/InboxOutlined';
import { DRAG_MASK_TEXT } from '@app/shared';

export function DragMask({ maxFileCount, folderName }: { maxFileCount: number; folderName?: string }) {
  return (
    <div
      data-testid="upload-drag-mask"
      role="presentation"
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 2000,
        background: 'rgba(15, 23, 42, 0.55)',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 24,
      }}
    >
      <div
        style={{
          pointerEvents: 'none',
          width: 'min(560px, 100%)',
          padding: '40px 32px',
          border: '2px dashed #9ec1ff',
          borderRadius: 12,
          background: 'rgba(255, 255, 255, 0.96)',
          textAlign: 'center',
          color: '#1f2329',
        }}
      >
        <InboxOutlined style={{ fontSize: 48, color: '#1f6feb' }} />
        <div style={{ fontSize: 18, fontWeight: 600, marginTop: 12 }}>{DRAG_MASK_TEXT.title}</div>
        {folderName ? <div style={{ marginTop: 6, color: '#646a73' }}>{folderName}</div> : null}
        <div style={{ marginTop: 12, color: '#646a73', fontSize: 13 }}>{DRAG_MASK_TEXT.hiddenFiles}</div>
        <div style={{ marginTop: 4, color: '#d48806', fontSize: 13 }}>{DRAG_MASK_TEXT.tooMany(maxFileCount)}</div>
      </div>
    </div>
  );
}
