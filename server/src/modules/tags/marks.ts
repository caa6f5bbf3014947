// What a caller has put on items: favourites and tags (api-contract.md: Items carry
// `isFavorite` and `tags`). Item building stays synchronous; lists are marked afterwards in
// two queries for the whole page.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { Item } from '../folders/schemas';

export class ItemMarks {
  constructor(private readonly db: Kysely<Database>) {}

  /** Sets isFavorite and tags (the caller's personal tags and the public ones) on `items`. */
  async mark<T extends Pick<Item, 'id' | 'isFavorite' | 'tags'>>(userId: number, items: T[]): Promise<T[]> {
    const ids = [...new Set(items.map((i) => Number(i.id)))];
    if (!ids.length) return items;
    const favorites = new Set<number>();
    const tags = new Map<number, Item['tags']>();
    for (let at = 0; at < ids.length; at += 1000) {
      const slice = ids.slice(at, at + 1000);
      const [favs, tagged] = await Promise.all([
        this.db.selectFrom('favorites').select('item_id').where('user_id', '=', userId).where('item_id', 'in', slice).execute(),
        this.db
          .selectFrom('item_tags as it')
          .innerJoin('tags as t', 't.id', 'it.tag_id')
          .select(['it.item_id', 't.id', 't.name', 't.color'])
          .where('it.item_id', 'in', slice)
          .where((eb) => eb.or([eb('t.owner_id', '=', userId), eb('t.is_public', '=', 1)]))
          .orderBy('t.is_public', 'desc')
          .orderBy('t.name_key')
          .orderBy('t.id')
          .execute(),
      ]);
      for (const f of favs) favorites.add(Number(f.item_id));
      for (const t of tagged) {
        const list = tags.get(Number(t.item_id)) ?? [];
        list.push({ id: String(t.id), name: t.name, color: t.color });
        tags.set(Number(t.item_id), list);
      }
    }
    for (const item of items) {
      item.isFavorite = favorites.has(Number(item.id));
      item.tags = tags.get(Number(item.id)) ?? [];
    }
    return items;
  }
}
