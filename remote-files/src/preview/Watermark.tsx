// The watermark of a preview: the text repeated over the whole viewer, faint and slanted, above
// the content but never catching the pointer. It is drawn over the page, never into the file.
import { memo } from 'react';

const TILES = 160;

export const Watermark = memo(function Watermark({ text, mobile = false }: { text: string; mobile?: boolean }) {
  return (
    <div
      aria-hidden="true"
      data-watermark=""
      style={{ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none', userSelect: 'none', zIndex: 20 }}
    >
      <div
        style={{
          position: 'absolute',
          inset: '-50%',
          display: 'flex',
          flexWrap: 'wrap',
          alignContent: 'flex-start',
          gap: mobile ? '56px 64px' : '96px 128px',
          padding: 48,
          transform: 'rotate(-24deg)',
        }}
      >
        {Array.from({ length: TILES }, (_, i) => (
          <span key={i} style={{ color: 'rgba(0, 0, 0, 0.09)', fontSize: mobile ? 13 : 16, whiteSpace: 'nowrap' }}>
            {text}
          </span>
        ))}
      </div>
    </div>
  );
});
