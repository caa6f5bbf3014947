// The marks an item of 云文档 carries after its name, wherever it is listed (the folder list,
// 我的收藏, 标签, search results): a gold star for the user's favourites and the item's tags
// (Item.tags: the user's own and the public ones) as small chips in their colours.
import { Tag, Tooltip } from 'antd';
import { StarFilled } from '@ant-design/icons';
import type { Item, TagRef } from '@app/shared';

/** The star's gold (antd's gold-6). */
export const FAVORITE_COLOR = '#faad14';
/** Chips shown after a name; the others are counted in a +N chip that names them on hover. */
export const TAG_CHIPS_MAX = 3;

/** A favourite's mark. */
export function FavoriteStar() {
  return <StarFilled aria-label="已收藏" title="已收藏" style={{ color: FAVORITE_COLOR, fontSize: 14 }} />;
}

/** One tag as a small chip: its name, outlined in its colour (#rrggbb). */
export function TagChip({ tag }: { tag: TagRef }) {
  return (
    <Tag variant="outlined" color={tag.color} data-tag-id={tag.id} style={{ marginInlineEnd: 0, fontSize: 12, lineHeight: '18px' }}>
      {tag.name}
    </Tag>
  );
}

/** An item's tags as chips, at most `max` of them and a +N chip for the rest. */
export function TagChips({ tags, max = TAG_CHIPS_MAX }: { tags: TagRef[]; max?: number }) {
  if (!tags.length) return null;
  const shown = tags.slice(0, max);
  const rest = tags.slice(max);
  return (
    <span aria-label="标签" role="list" style={{ display: 'inline-flex', alignItems: 'center', gap: 4, flexShrink: 0 }}>
      {shown.map((t) => (
        <span role="listitem" key={t.id}>
          <TagChip tag={t} />
        </span>
      ))}
      {rest.length ? (
        <Tooltip title={rest.map((t) => t.name).join('、')}>
          <Tag variant="outlined" style={{ marginInlineEnd: 0, fontSize: 12, lineHeight: '18px' }} aria-label={`另有 ${rest.length} 个标签`}>
            +{rest.length}
          </Tag>
        </Tooltip>
      ) : null}
    </span>
  );
}

/** The star of a favourite and the item's tag chips, shown after its name. */
export function ItemBadges({ item, max }: { item: Pick<Item, 'isFavorite' | 'tags'>; max?: number }) {
  const tags = item.tags ?? [];
  if (!item.isFavorite && !tags.length) return null;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6, flexShrink: 0 }}>
      {item.isFavorite ? <FavoriteStar /> : null}
      <TagChips tags={tags} max={max} />
    </span>
  );
}
