// The service agreement and privacy policy of 云文档: built-in texts until an administrator
// writes the organisation's own, kept as settings (one row per text).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { badRequest } from '../../lib/errors';
import { readSetting, writeSetting } from '../settings/repository';
import { AGREEMENT_TITLES, DEFAULT_AGREEMENTS } from './defaults';
import { AGREEMENT_MAX_CHARS, type Agreement, type AgreementKind } from './schemas';

const KEYS = { service: 'serviceAgreement', privacy: 'privacyPolicy' } as const;

export class AgreementsService {
  constructor(private readonly db: Kysely<Database>) {}

  async get(kind: AgreementKind): Promise<Agreement> {
    const stored = (await readSetting(this.db, KEYS[kind])) as { content?: unknown; updatedAt?: unknown } | undefined;
    if (stored && typeof stored.content === 'string' && stored.content && typeof stored.updatedAt === 'number') {
      return { kind, title: AGREEMENT_TITLES[kind], content: stored.content, updatedAt: stored.updatedAt };
    }
    return { kind, title: AGREEMENT_TITLES[kind], content: DEFAULT_AGREEMENTS[kind], updatedAt: null };
  }

  /** Stores the organisation's text; an empty one brings the built-in text back. */
  async set(kind: AgreementKind, content: string): Promise<Agreement> {
    const text = content.replace(/\r\n?/g, '\n').trim();
    if ([...text].length > AGREEMENT_MAX_CHARS) throw badRequest(`协议正文不能超过 ${AGREEMENT_MAX_CHARS} 个字符`);
    const now = Date.now();
    await writeSetting(this.db, KEYS[kind], text ? { content: text, updatedAt: now } : {}, now);
    return this.get(kind);
  }
}
