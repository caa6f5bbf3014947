// What a grid tile of 云文档's folder view shows above its name: a picture's thumbnail (made once
// per content on the server, GET /api/User/Preview/{id}/Thumbnail), else the type's icon, which
// also stands in while the thumbnail is being made or when there is none.
import { useState } from 'react';
import { apiUrl, type Item } from '@app/shared';
import { ItemIcon } from './itemView';

/** The types the server makes thumbnails of. */
export const THUMBNAIL_TYPES = new Set(['jpg', 'jpeg', 'png', 'webp', 'gif', 'avif']);

export function TileVisual({ item, size }: { item: Item; size: number }) {
  const [failed, setFailed] = useState(false);
  if (item.type !== 'file' || failed || !THUMBNAIL_TYPES.has(item.extension.toLowerCase())) return <ItemIcon item={item} size={size} />;
  return (
    <img
      src={apiUrl(`/User/Preview/${encodeURIComponent(item.id)}/Thumbnail`)}
      alt={`${item.name} 的缩略图`}
      loading="lazy"
      onError={() => setFailed(true)}
      style={{ width: size * 2, height: size * 1.5, objectFit: 'cover', borderRadius: 4, background: '#f5f5f5' }}
    />
  );
}
