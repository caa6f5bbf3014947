// Key/value settings of 云文档, stored as JSON text.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

export type SettingKey = 'featurePolicy' | 'environmentConfig' | 'branding' | 'passwordPolicy' | 'uploadPolicy' | 'ferrySettings' | 'previewPolicy'
  | 'serviceAgreement' | 'privacyPolicy' | 'ldapSettings' | 'dingtalkSyncSettings' | 'mailSettings' | 'noticePolicy';

export async function readSetting(db: Kysely<Database>, key: SettingKey): Promise<unknown> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  if (!row) return undefined;
  try {
    return JSON.parse(row.value) as unknown;
  } catch {
    return undefined;
  }
}

export async function writeSetting(db: Kysely<Database>, key: SettingKey, value: unknown, now: number): Promise<void> {
  const text = JSON.stringify(value);
  await db
    .insertInto('settings')
    .values({ key, value: text, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text, updated_at: now }))
    .execute();
}

/** Stores the value unless the key already has one (seeding). */
export async function insertSettingIfMissing(db: Kysely<Database>, key: SettingKey, value: unknown, now: number): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value), updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}
