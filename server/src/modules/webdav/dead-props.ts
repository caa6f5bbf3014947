// WebDAV dead properties (RFC 4918 §4.2, PROPPATCH): kept per item in dav_properties, as the
// XML content of the property element; they go with the item (ON DELETE CASCADE), follow it
// through MOVE (the item stays the same) and are copied by COPY.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { DAV_NS, escapeXml, type XmlElement } from './xml';

export interface DeadProperty {
  ns: string;
  name: string;
  /** the element's content as XML (namespaces declared where used) */
  value: string;
}

export type PatchOp = { kind: 'set'; ns: string; name: string; value: string } | { kind: 'remove'; ns: string; name: string };

/** The content of a property element as XML: its text, then its elements (each declaring its namespace). */
export function contentXml(e: XmlElement): string {
  let n = 0;
  const write = (el: XmlElement): string => {
    const attrs = [...el.attrs].filter(([k]) => !k.includes(':') || k.startsWith('xml:')).map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('');
    let open: string;
    let close: string;
    if (el.ns === '') {
      open = `${el.name} xmlns=""`;
      close = el.name;
    } else {
      const prefix = `V${n++}`;
      open = `${prefix}:${el.name} xmlns:${prefix}="${escapeXml(el.ns)}"`;
      close = `${prefix}:${el.name}`;
    }
    const inner = escapeXml(el.text) + el.children.map(write).join('');
    return inner ? `<${open}${attrs}>${inner}</${close}>` : `<${open}${attrs}/>`;
  };
  return escapeXml(e.text) + e.children.map(write).join('');
}

/** Whether a property is a live one this server keeps itself (every DAV: name is reserved). */
export function isProtected(ns: string): boolean {
  return ns === DAV_NS;
}

export class DavProperties {
  constructor(private readonly db: Kysely<Database>) {}

  /** The dead properties of items, by item. */
  async list(itemIds: number[]): Promise<Map<number, DeadProperty[]>> {
    const out = new Map<number, DeadProperty[]>();
    if (!itemIds.length) return out;
    const rows = await this.db.selectFrom('dav_properties').select(['item_id', 'ns', 'name', 'value']).where('item_id', 'in', itemIds).orderBy('item_id').orderBy('ns').orderBy('name').execute();
    for (const r of rows) {
      const id = Number(r.item_id);
      if (!out.has(id)) out.set(id, []);
      out.get(id)!.push({ ns: r.ns, name: r.name, value: r.value });
    }
    return out;
  }

  /** Applies the instructions in order, all or none (RFC 4918 §9.2). */
  async patch(itemId: number, ops: PatchOp[]): Promise<void> {
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      for (const op of ops) {
        await trx.deleteFrom('dav_properties').where('item_id', '=', itemId).where('ns', '=', op.ns).where('name', '=', op.name).execute();
        if (op.kind === 'set') await trx.insertInto('dav_properties').values({ item_id: itemId, ns: op.ns, name: op.name, value: op.value, updated_at: now }).execute();
      }
    });
  }

  /** COPY: the copy gets the source's dead properties. */
  async copy(from: number, to: number): Promise<void> {
    const rows = await this.db.selectFrom('dav_properties').select(['ns', 'name', 'value']).where('item_id', '=', from).execute();
    if (!rows.length) return;
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('dav_properties').where('item_id', '=', to).execute();
      await trx.insertInto('dav_properties').values(rows.map((r) => ({ item_id: to, ns: r.ns, name: r.name, value: r.value, updated_at: now }))).execute();
    });
  }
}
