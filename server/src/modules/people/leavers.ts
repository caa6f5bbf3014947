// 离职交接: hands a leaver's work to a successor in one audited step.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

export class LeaverHandover {
  constructor(readonly db: Kysely<Database>) {}
}
