// The 云文档 schema: one list of migrations, in code, run by Kysely's Migrator at start-up on
// SQLite and PostgreSQL alike. Add a migration at the end; never edit one that has shipped.
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { DialectName } from './connection';
import { PG_NAME_GRAMS } from '../modules/search/grams';

export function buildMigrations(dialect: DialectName): Record<string, Migration> {
  const pg = dialect === 'postgres';
  /** integers that may outgrow 32 bits: ids, sizes, epoch milliseconds */
  const big = pg ? 'bigint' : 'integer';
  const idColumn = (c: ColumnDefinitionBuilder) =>
    pg ? c.generatedByDefaultAsIdentity().primaryKey() : c.autoIncrement().primaryKey();

  return {
    '2026-11-01-0001-initial': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('departments')
          .addColumn('id', big, idColumn)
          .addColumn('parent_id', big, (c) => c.references('departments.id').onDelete('restrict'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('path', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('departments_parent').on('departments').columns(['parent_id', 'sort_order']).execute();

        await db.schema
          .createTable('users')
          .addColumn('id', big, idColumn)
          .addColumn('user_name', 'text', (c) => c.notNull())
          .addColumn('user_name_key', 'text', (c) => c.notNull().unique())
          .addColumn('nick_name', 'text', (c) => c.notNull())
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('dept_id', big, (c) => c.references('departments.id').onDelete('set null'))
          .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_doc_admin', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_flow_admin', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_tag_admin', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('is_ldap_user', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('allow_backend_login', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('allow_repository_login', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_login_at', big)
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('users_dept').on('users').column('dept_id').execute();

        await db.schema
          .createTable('sessions')
          .addColumn('id', big, idColumn)
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('jwt_id_hash', 'text', (c) => c.notNull().unique())
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('last_seen_at', big, (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('revoked_at', big)
          .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'revoked_at']).execute();

        await db.schema
          .createTable('settings')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('items')
          .addColumn('id', big, idColumn)
          .addColumn('parent_id', big, (c) => c.references('items.id').onDelete('restrict'))
          .addColumn('space_type', 'integer', (c) => c.notNull())
          .addColumn('owner_id', big, (c) => c.notNull().references('users.id').onDelete('restrict'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('type_order', 'integer', (c) => c.notNull())
          .addColumn('extension', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('size', big, (c) => c.notNull().defaultTo(0))
          .addColumn('id_path', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('name_path', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .addColumn('deleted_at', big)
          .addCheckConstraint('items_space_type', sql`space_type in (1, 2)`)
          .addCheckConstraint('items_type', sql`type in ('folder', 'file', 'shortcut')`)
          .execute();
        // one live item of a name (case-insensitive) per folder
        await db.schema
          .createIndex('items_live_name')
          .unique()
          .on('items')
          .columns(['parent_id', 'name_key'])
          .where(sql<boolean>`deleted_at is null`)
          .execute();
        // one root folder per space and owner (the enterprise root has one owner: the admin)
        await db.schema
          .createIndex('items_root')
          .unique()
          .on('items')
          .columns(['space_type', 'owner_id'])
          .where(sql<boolean>`parent_id is null and deleted_at is null`)
          .execute();
        // paged, sorted listing of one folder, folders first, without scanning it: one index per
        // sort field, walked forwards or backwards (ties are broken by name, then id)
        for (const [name, column] of [
          ['items_list_name', null],
          ['items_list_size', 'size'],
          ['items_list_updated', 'updated_at'],
          ['items_list_extension', 'extension'],
        ] as const) {
          const columns = ['parent_id', 'deleted_at', 'type_order', ...(column ? [column] : []), 'name_key', 'id'];
          await db.schema.createIndex(name).on('items').columns(columns).execute();
        }
        await db.schema.createIndex('items_id_path').on('items').column('id_path').execute();
        await db.schema.createIndex('items_owner').on('items').columns(['owner_id', 'space_type']).execute();

        await db.schema
          .createTable('login_failures')
          .addColumn('id', big, idColumn)
          .addColumn('account_key', 'text', (c) => c.notNull())
          .addColumn('ip', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('login_failures_account').on('login_failures').columns(['account_key', 'created_at']).execute();
        await db.schema.createIndex('login_failures_ip').on('login_failures').columns(['ip', 'created_at']).execute();
        await db.schema.createIndex('login_failures_time').on('login_failures').column('created_at').execute();
      },
      async down(db: Kysely<any>) {
        for (const table of ['login_failures', 'items', 'settings', 'sessions', 'users', 'departments']) {
          await db.schema.dropTable(table).ifExists().execute();
        }
      },
    },
    // recycle bin: who deleted an item, and for descendants the deleted top item they went with
    '2026-11-21-0001-recycle-bin': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('items').addColumn('deleted_by', big).execute();
        await db.schema.alterTable('items').addColumn('deleted_with', big).execute();
        await db.schema.createIndex('items_deleted_with').on('items').column('deleted_with').execute();
        await db.schema.createIndex('items_deleted_at').on('items').column('deleted_at').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('items_deleted_at').ifExists().execute();
        await db.schema.dropIndex('items_deleted_with').ifExists().execute();
        await db.schema.alterTable('items').dropColumn('deleted_with').execute();
        await db.schema.alterTable('items').dropColumn('deleted_by').execute();
      },
    },
    // organisation: user groups, and a normalised nickname so that user search can compare
    // case-insensitively the same way on SQLite and PostgreSQL
    '2026-11-21-0002-groups-user-search': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('groups')
          .addColumn('id', big, idColumn)
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('group_members')
          .addColumn('group_id', big, (c) => c.notNull().references('groups.id').onDelete('cascade'))
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
          .execute();
        await db.schema.createIndex('group_members_user').on('group_members').column('user_id').execute();

        await db.schema.alterTable('users').addColumn('nick_name_key', 'text', (c) => c.notNull().defaultTo('')).execute();
        const users: { id: number; nick_name: string }[] = await db.selectFrom('users').select(['id', 'nick_name']).execute();
        for (const u of users) {
          const key = u.nick_name.trim().normalize('NFKC').toLowerCase();
          await db.updateTable('users').set({ nick_name_key: key }).where('id', '=', u.id).execute();
        }
        // the search pages enabled users by user name; department subtrees are found by path
        await db.schema.createIndex('users_search').on('users').columns(['disabled', 'user_name_key', 'id']).execute();
        await db.schema.createIndex('departments_path').on('departments').column('path').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('departments_path').ifExists().execute();
        await db.schema.dropIndex('users_search').ifExists().execute();
        await db.schema.alterTable('users').dropColumn('nick_name_key').execute();
        await db.schema.dropTable('group_members').ifExists().execute();
        await db.schema.dropTable('groups').ifExists().execute();
      },
    },
    // live child counts of every item (folders, and files with shortcuts, separately), kept by
    // every write that changes a folder's live children, so that a folder listing's total needs
    // no count of the folder; deleted items have no live children and count 0
    '2026-11-21-0003-item-child-counts': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('items').addColumn('child_folders', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('items').addColumn('child_files', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        const live = (typeOrder: string) =>
          sql<number>`(select count(*) from items c where c.parent_id = items.id and c.deleted_at is null and c.type_order ${sql.raw(typeOrder)})`;
        await db
          .updateTable('items')
          .set({ child_folders: live('= 0'), child_files: live('<> 0') })
          .where('deleted_at', 'is', null)
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('items').dropColumn('child_files').execute();
        await db.schema.alterTable('items').dropColumn('child_folders').execute();
      },
    },
    // access policies of enterprise items: per item, a list of (subject, level) entries; the
    // nearest list on an item's path decides (docs/integration.md, "Rights")
    '2026-11-21-0004-access-policies': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('access_policies')
          .addColumn('id', big, idColumn)
          .addColumn('item_id', big, (c) => c.notNull().references('items.id').onDelete('cascade'))
          .addColumn('subject_type', 'integer', (c) => c.notNull())
          .addColumn('subject_id', big, (c) => c.notNull())
          .addColumn('level', 'integer', (c) => c.notNull())
          .addColumn('created_by', big)
          .addColumn('created_at', big, (c) => c.notNull())
          .addCheckConstraint('access_policies_subject_type', sql`subject_type in (1, 2, 3)`)
          .addCheckConstraint('access_policies_level', sql`level between 0 and 4`)
          .addUniqueConstraint('access_policies_subject', ['item_id', 'subject_type', 'subject_id'])
          .execute();
        await db.schema.createIndex('access_policies_item').on('access_policies').column('item_id').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('access_policies').ifExists().execute();
      },
    },
    // file versions over content-addressed, reference-counted blobs (every file gets its
    // version 1: empty files have no blob); shortcuts point at their target; a manual order of
    // each folder's live children, new items last (sort_order leaves gaps between neighbours)
    '2026-11-21-0005-versions-shortcuts-order': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('blobs')
          .addColumn('id', big, idColumn)
          .addColumn('md5', 'text', (c) => c.notNull())
          .addColumn('size', big, (c) => c.notNull())
          .addColumn('storage_key', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('ref_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', big, (c) => c.notNull())
          .addUniqueConstraint('blobs_content', ['md5', 'size'])
          .execute();

        await db.schema
          .createTable('file_versions')
          .addColumn('id', big, idColumn)
          .addColumn('item_id', big, (c) => c.notNull().references('items.id').onDelete('cascade'))
          .addColumn('version_no', 'integer', (c) => c.notNull())
          .addColumn('blob_id', big, (c) => c.references('blobs.id').onDelete('restrict'))
          .addColumn('size', big, (c) => c.notNull().defaultTo(0))
          .addColumn('md5', 'text')
          .addColumn('is_master', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('creator_id', big, (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addUniqueConstraint('file_versions_number', ['item_id', 'version_no'])
          .execute();
        // one master per file
        await db.schema
          .createIndex('file_versions_master')
          .unique()
          .on('file_versions')
          .column('item_id')
          .where(sql<boolean>`is_master = 1`)
          .execute();
        await db.schema.createIndex('file_versions_blob').on('file_versions').column('blob_id').execute();
        // every file, live or in the recycle bin (it may come back), starts with its content as version 1
        await sql`insert into file_versions (item_id, version_no, blob_id, size, md5, is_master, creator_id, created_at)
          select id, 1, null, size, null, 1, owner_id, updated_at from items where type = 'file'`.execute(db);

        await db.schema.alterTable('items').addColumn('target_id', big).execute();
        await db.schema.createIndex('items_target').on('items').column('target_id').execute();

        // manual order: positions with room between neighbours; existing items keep
        // their creation order
        if (pg) await sql`alter table items alter column sort_order type bigint`.execute(db);
        await sql`update items set sort_order = id * 65536`.execute(db);
        await db.schema
          .createIndex('items_list_manual')
          .on('items')
          .columns(['parent_id', 'type_order', 'sort_order', 'id'])
          .where(sql<boolean>`deleted_at is null`)
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('items_list_manual').ifExists().execute();
        await db.schema.dropIndex('items_target').ifExists().execute();
        await db.schema.alterTable('items').dropColumn('target_id').execute();
        await db.schema.dropTable('file_versions').ifExists().execute();
        await db.schema.dropTable('blobs').ifExists().execute();
      },
    },
    // chunked, resumable uploads (one row per session, one per chunk received and on disk)
    // and a minimal `shares` table for external uploads (docs/integration.md, "Upload (issue 4)")
    '2026-11-21-0006-uploads': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('shares')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('owner_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('root_item_id', big, (c) => c.notNull().references('items.id').onDelete('cascade'))
          .addColumn('access_key_hash', 'text', (c) => c.notNull())
          .addColumn('allow_upload', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('expires_at', big)
          .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('shares_owner').on('shares').column('owner_id').execute();
        await db.schema.createIndex('shares_root').on('shares').column('root_item_id').execute();

        await db.schema
          .createTable('upload_sessions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('owner_key', 'text', (c) => c.notNull())
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('share_id', 'text')
          .addColumn('task_id', 'text', (c) => c.notNull())
          .addColumn('folder_id', big, (c) => c.notNull())
          .addColumn('relative_dir', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('size', big, (c) => c.notNull())
          .addColumn('chunk_size', big, (c) => c.notNull())
          .addColumn('total_chunks', 'integer', (c) => c.notNull())
          .addColumn('strategy', 'integer')
          .addColumn('target_item_id', big)
          .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
          .addColumn('result_item_id', big)
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('upload_sessions_task').on('upload_sessions').columns(['owner_key', 'task_id']).execute();
        await db.schema.createIndex('upload_sessions_updated').on('upload_sessions').column('updated_at').execute();

        await db.schema
          .createTable('upload_chunks')
          .addColumn('session_id', 'text', (c) => c.notNull().references('upload_sessions.id').onDelete('cascade'))
          .addColumn('chunk_no', 'integer', (c) => c.notNull())
          .addColumn('size', big, (c) => c.notNull())
          .addColumn('md5', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('upload_chunks_pk', ['session_id', 'chunk_no'])
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('upload_chunks').ifExists().execute();
        await db.schema.dropTable('upload_sessions').ifExists().execute();
        await db.schema.dropTable('shares').ifExists().execute();
      },
    },
    // blobs by size: an upload is told at once whether an instant upload could succeed
    '2026-11-23-0007-blobs-size': {
      async up(db: Kysely<any>) {
        await db.schema.createIndex('blobs_size').on('blobs').column('size').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('blobs_size').ifExists().execute();
      },
    },
    // sharing (spec sections 2, 6, 7, 8): internal and external shares of one or more items at a
    // level, their recipients, the record of every visit, download and upload, and wrong keys
    // (the throttle lives here, so that every instance sees it)
    '2026-11-24-0008-sharing': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('shares').addColumn('share_type', 'integer', (c) => c.notNull().defaultTo(2)).execute();
        await db.schema.alterTable('shares').addColumn('level', 'integer', (c) => c.notNull().defaultTo(2)).execute();
        await db.schema.alterTable('shares').addColumn('download_limit', big).execute();
        await db.schema.alterTable('shares').addColumn('download_count', big, (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('shares').addColumn('visit_count', big, (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('shares').addColumn('cancelled_at', big).execute();
        await db.schema.alterTable('shares').addColumn('updated_at', big).execute();
        await sql`update shares set level = case when allow_upload = 1 then 3 else 2 end, updated_at = created_at`.execute(db);

        await db.schema
          .createTable('share_items')
          .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
          .addColumn('item_id', big, (c) => c.notNull().references('items.id').onDelete('cascade'))
          .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('share_items_pk', ['share_id', 'item_id'])
          .execute();
        await db.schema.createIndex('share_items_item').on('share_items').column('item_id').execute();
        await sql`insert into share_items (share_id, item_id, position) select id, root_item_id, 0 from shares`.execute(db);

        await db.schema
          .createTable('share_targets')
          .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
          .addColumn('target_type', 'integer', (c) => c.notNull())
          .addColumn('target_id', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('share_targets_pk', ['share_id', 'target_type', 'target_id'])
          .execute();
        await db.schema.createIndex('share_targets_target').on('share_targets').columns(['target_type', 'target_id']).execute();

        await db.schema
          .createTable('share_events')
          .addColumn('id', big, idColumn)
          .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('user_id', big)
          .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('item_id', big)
          .addColumn('item_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('share_events_share').on('share_events').columns(['share_id', 'created_at']).execute();

        await db.schema
          .createTable('share_key_failures')
          .addColumn('share_id', 'text', (c) => c.notNull())
          .addColumn('address', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('share_key_failures_share').on('share_key_failures').columns(['share_id', 'created_at']).execute();
        await db.schema.createIndex('share_key_failures_address').on('share_key_failures').columns(['share_id', 'address', 'created_at']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('share_key_failures').ifExists().execute();
        await db.schema.dropTable('share_events').ifExists().execute();
        await db.schema.dropTable('share_targets').ifExists().execute();
        await db.schema.dropTable('share_items').ifExists().execute();
        for (const c of ['updated_at', 'cancelled_at', 'visit_count', 'download_count', 'download_limit', 'level', 'share_type']) {
          await db.schema.alterTable('shares').dropColumn(c).execute();
        }
      },
    },
    // approvals (issue 12): definitions (a version per change), instances with the definition
    // version they started with and their engine state (version-checked writes), who takes part
    // in what role (the boxes), the append-only action log, the attached file versions (their
    // content pinned), and each instance's end handed to the module that started it
    '2026-11-24-0009-workflow': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('departments').addColumn('leader_id', big, (c) => c.references('users.id').onDelete('set null')).execute();

        await db.schema
          .createTable('workflow_definitions')
          .addColumn('id', big, idColumn)
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_by', big, (c) => c.references('users.id').onDelete('set null'))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('workflow_instances')
          .addColumn('id', big, idColumn)
          .addColumn('definition_id', big, (c) => c.notNull().references('workflow_definitions.id'))
          .addColumn('definition_version', 'integer', (c) => c.notNull())
          .addColumn('definition', 'text', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('form', 'text', (c) => c.notNull())
          .addColumn('initiator_id', big, (c) => c.notNull().references('users.id'))
          .addColumn('status', 'integer', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('source_id', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('end_handled_at', big)
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .addColumn('finished_at', big)
          .execute();
        await db.schema.createIndex('workflow_instances_initiator').on('workflow_instances').columns(['initiator_id', 'created_at']).execute();
        await db.schema.createIndex('workflow_instances_definition').on('workflow_instances').column('definition_id').execute();
        await db.schema.createIndex('workflow_instances_unhandled').on('workflow_instances').columns(['source', 'end_handled_at']).execute();

        await db.schema
          .createTable('workflow_participants')
          .addColumn('instance_id', big, (c) => c.notNull().references('workflow_instances.id').onDelete('cascade'))
          .addColumn('user_id', big, (c) => c.notNull())
          .addColumn('role', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('workflow_participants_pk', ['instance_id', 'user_id', 'role'])
          .execute();
        await db.schema.createIndex('workflow_participants_user').on('workflow_participants').columns(['user_id', 'role', 'instance_id']).execute();

        await db.schema
          .createTable('workflow_actions')
          .addColumn('id', big, idColumn)
          .addColumn('instance_id', big, (c) => c.notNull().references('workflow_instances.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('user_id', big)
          .addColumn('step', 'integer', (c) => c.notNull())
          .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('target_id', big)
          .addColumn('to_step', 'integer')
          .addColumn('status', 'integer')
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('workflow_actions_instance').on('workflow_actions').columns(['instance_id', 'id']).execute();

        await db.schema
          .createTable('workflow_files')
          .addColumn('instance_id', big, (c) => c.notNull().references('workflow_instances.id').onDelete('cascade'))
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('item_id', big, (c) => c.notNull())
          .addColumn('version_id', big, (c) => c.notNull())
          .addColumn('blob_id', big, (c) => c.references('blobs.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('extension', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('size', big, (c) => c.notNull())
          .addColumn('md5', 'text', (c) => c.notNull().defaultTo(''))
          .addPrimaryKeyConstraint('workflow_files_pk', ['instance_id', 'position'])
          .execute();
      },
      async down(db: Kysely<any>) {
        for (const t of ['workflow_files', 'workflow_actions', 'workflow_participants', 'workflow_instances', 'workflow_definitions']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
        await db.schema.alterTable('departments').dropColumn('leader_id').execute();
      },
    },
    // the ferry's audit log (issue 13): append-only, hash-chained, with the chain's head (its
    // last position and hash) in a one-row table whose row lock orders the appends
    '2026-11-24-0010-ferry-audit': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('ferry_audit')
          .addColumn('id', big, idColumn)
          .addColumn('seq', big, (c) => c.notNull().unique())
          .addColumn('at', big, (c) => c.notNull())
          .addColumn('actor_id', big)
          .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('event', 'text', (c) => c.notNull())
          .addColumn('task_id', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('detail', 'text', (c) => c.notNull())
          .addColumn('prev_hash', 'text', (c) => c.notNull())
          .addColumn('hash', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('ferry_audit_at').on('ferry_audit').column('at').execute();
        await db.schema.createIndex('ferry_audit_task').on('ferry_audit').column('task_id').execute();
        await db.schema
          .createTable('ferry_audit_head')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('seq', big, (c) => c.notNull())
          .addColumn('hash', 'text', (c) => c.notNull())
          .execute();
        await db.insertInto('ferry_audit_head').values({ id: 1, seq: 0, hash: '0'.repeat(64) }).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('ferry_audit_head').ifExists().execute();
        await db.schema.dropTable('ferry_audit').ifExists().execute();
      },
    },
    // the ferry (issue 13): tasks and their pinned files on the sending side; received packages,
    // their files and recipients, the ids seen (replays) and the receipts going back, on the
    // receiving side; background work is leased in the rows, so another instance resumes it
    '2026-11-24-0011-ferry': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('ferry_tasks')
          .addColumn('id', big, idColumn)
          .addColumn('requester_id', big, (c) => c.notNull())
          .addColumn('requester_name', 'text', (c) => c.notNull())
          .addColumn('dept_id', big)
          .addColumn('from_zone', 'text', (c) => c.notNull())
          .addColumn('to_zone', 'text', (c) => c.notNull())
          .addColumn('recipients', 'text', (c) => c.notNull())
          .addColumn('reason', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('status_reason', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('instance_id', big)
          .addColumn('package_id', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .addColumn('decided_at', big)
          .addColumn('sent_at', big)
          .addColumn('delivered_at', big)
          .addColumn('downloaded_at', big)
          .addColumn('expires_at', big)
          .addColumn('lease_until', big, (c) => c.notNull().defaultTo(0))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema.createIndex('ferry_tasks_requester').on('ferry_tasks').columns(['requester_id', 'status', 'created_at']).execute();
        await db.schema.createIndex('ferry_tasks_work').on('ferry_tasks').columns(['status', 'lease_until']).execute();
        await db.schema.createIndex('ferry_tasks_created').on('ferry_tasks').column('created_at').execute();
        await db.schema.createIndex('ferry_tasks_instance').on('ferry_tasks').column('instance_id').execute();

        await db.schema
          .createTable('ferry_task_files')
          .addColumn('task_id', big, (c) => c.notNull().references('ferry_tasks.id').onDelete('cascade'))
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('item_id', big, (c) => c.notNull())
          .addColumn('version_id', big, (c) => c.notNull())
          .addColumn('blob_id', big, (c) => c.references('blobs.id'))
          .addColumn('released', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('extension', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('size', big, (c) => c.notNull())
          .addColumn('md5', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('sha256', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('detected_type', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('checks', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('keyword_hits', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('ferry_task_files_pk', ['task_id', 'position'])
          .execute();

        await db.schema
          .createTable('ferry_inbox')
          .addColumn('id', big, idColumn)
          .addColumn('package_id', 'text', (c) => c.notNull().unique())
          .addColumn('task_id', 'text', (c) => c.notNull())
          .addColumn('task_number', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('from_zone', 'text', (c) => c.notNull())
          .addColumn('sender_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('recipients', 'text', (c) => c.notNull())
          .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('received_at', big, (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('downloaded_at', big)
          .addColumn('downloaded_by', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema.createIndex('ferry_inbox_expiry').on('ferry_inbox').columns(['status', 'expires_at']).execute();
        await db.schema
          .createTable('ferry_inbox_files')
          .addColumn('inbox_id', big, (c) => c.notNull().references('ferry_inbox.id').onDelete('cascade'))
          .addColumn('idx', 'integer', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('size', big, (c) => c.notNull())
          .addColumn('sha256', 'text', (c) => c.notNull())
          .addColumn('md5', 'text', (c) => c.notNull())
          .addColumn('blob_id', big, (c) => c.references('blobs.id'))
          .addPrimaryKeyConstraint('ferry_inbox_files_pk', ['inbox_id', 'idx'])
          .execute();
        await db.schema
          .createTable('ferry_inbox_users')
          .addColumn('inbox_id', big, (c) => c.notNull().references('ferry_inbox.id').onDelete('cascade'))
          .addColumn('user_id', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('ferry_inbox_users_pk', ['inbox_id', 'user_id'])
          .execute();
        await db.schema.createIndex('ferry_inbox_users_user').on('ferry_inbox_users').columns(['user_id', 'inbox_id']).execute();
        await db.schema
          .createTable('ferry_seen')
          .addColumn('package_id', 'text', (c) => c.primaryKey())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('at', big, (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('ferry_receipts')
          .addColumn('id', big, idColumn)
          .addColumn('to_zone', 'text', (c) => c.notNull())
          .addColumn('task_id', 'text', (c) => c.notNull())
          .addColumn('package_id', 'text', (c) => c.notNull())
          .addColumn('event', 'text', (c) => c.notNull())
          .addColumn('at', big, (c) => c.notNull())
          .addColumn('by_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('sent_at', big)
          .addColumn('lease_until', big, (c) => c.notNull().defaultTo(0))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        // audit retention: the chain verifies from the last record pruned (its position and hash)
        await db.schema.alterTable('ferry_audit_head').addColumn('pruned_seq', big, (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('ferry_audit_head').addColumn('pruned_hash', 'text', (c) => c.notNull().defaultTo('0'.repeat(64))).execute();
        await db.schema.createIndex('ferry_receipts_pending').on('ferry_receipts').columns(['sent_at', 'lease_until']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('ferry_audit_head').dropColumn('pruned_hash').execute();
        await db.schema.alterTable('ferry_audit_head').dropColumn('pruned_seq').execute();
        for (const t of ['ferry_receipts', 'ferry_seen', 'ferry_inbox_users', 'ferry_inbox_files', 'ferry_inbox', 'ferry_task_files', 'ferry_tasks']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
    // favourites in categories, personal and public tags on items, and the name index of search
    // (docs/integration.md, "Favourites, tags and search"): SQLite keeps two FTS5 indexes of
    // items.name_key up to date by triggers (trigram for 3+ characters, 1- and 2-character
    // tokens made by the connection's name_grams function); PostgreSQL uses pg_trgm and an
    // expression index over the same tokens
    '2026-11-24-0012-favorites-tags-search': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('favorite_categories')
          .addColumn('id', big, idColumn)
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addUniqueConstraint('favorite_categories_name', ['user_id', 'name_key'])
          .execute();
        await db.schema
          .createTable('favorites')
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('item_id', big, (c) => c.notNull().references('items.id').onDelete('cascade'))
          // null: 默认收藏夹 (a deleted category's favourites fall back to it)
          .addColumn('category_id', big, (c) => c.references('favorite_categories.id').onDelete('set null'))
          .addColumn('created_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'item_id'])
          .execute();
        await db.schema.createIndex('favorites_user_time').on('favorites').columns(['user_id', 'created_at', 'item_id']).execute();
        await db.schema.createIndex('favorites_category').on('favorites').columns(['user_id', 'category_id', 'created_at', 'item_id']).execute();
        await db.schema.createIndex('favorites_item').on('favorites').column('item_id').execute();

        await db.schema
          .createTable('tags')
          .addColumn('id', big, idColumn)
          // the owner of a personal tag; 0 for a public tag (unique names per owner)
          .addColumn('owner_id', big, (c) => c.notNull())
          .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', 'text', (c) => c.notNull())
          .addColumn('color', 'text', (c) => c.notNull())
          .addColumn('created_by', big, (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addUniqueConstraint('tags_name', ['owner_id', 'name_key'])
          .execute();
        await db.schema
          .createTable('item_tags')
          .addColumn('tag_id', big, (c) => c.notNull().references('tags.id').onDelete('cascade'))
          .addColumn('item_id', big, (c) => c.notNull().references('items.id').onDelete('cascade'))
          .addColumn('created_by', big, (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('item_tags_pk', ['tag_id', 'item_id'])
          .execute();
        await db.schema.createIndex('item_tags_item').on('item_tags').column('item_id').execute();
        await db.schema.createIndex('item_tags_time').on('item_tags').columns(['tag_id', 'created_at', 'item_id']).execute();

        // search results, newest first, without a sort of the matches
        await db.schema.createIndex('items_updated').on('items').columns(['updated_at', 'id']).execute();

        if (pg) {
          await sql.raw(PG_NAME_GRAMS).execute(db);
          await sql`create index items_name_grams on items using gin (to_tsvector('simple', name_grams(name_key)))`.execute(db);
          // pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it;
          // without it, names of 3+ characters are matched by a scan
          const available = await sql<{ n: number }>`select count(*) as n from pg_available_extensions where name = 'pg_trgm'`.execute(db);
          if (Number(available.rows[0]?.n) > 0) {
            await sql`create extension if not exists pg_trgm`.execute(db);
            await sql`create index items_name_trgm on items using gin (name_key gin_trgm_ops)`.execute(db);
          }
        } else {
          await sql`create virtual table items_name_trigram using fts5(name_key, content='items', content_rowid='id', tokenize='trigram', detail='none')`.execute(db);
          await sql`create virtual table items_name_grams using fts5(grams, content='', contentless_delete=1, detail='none')`.execute(db);
          await sql`insert into items_name_trigram(items_name_trigram) values ('rebuild')`.execute(db);
          await sql`insert into items_name_grams(rowid, grams) select id, name_grams(name_key) from items`.execute(db);
          await sql`create trigger items_name_ai after insert on items begin
              insert into items_name_trigram(rowid, name_key) values (new.id, new.name_key);
              insert into items_name_grams(rowid, grams) values (new.id, name_grams(new.name_key));
            end`.execute(db);
          await sql`create trigger items_name_ad after delete on items begin
              insert into items_name_trigram(items_name_trigram, rowid, name_key) values ('delete', old.id, old.name_key);
              delete from items_name_grams where rowid = old.id;
            end`.execute(db);
          await sql`create trigger items_name_au after update of name_key on items begin
              insert into items_name_trigram(items_name_trigram, rowid, name_key) values ('delete', old.id, old.name_key);
              insert into items_name_trigram(rowid, name_key) values (new.id, new.name_key);
              delete from items_name_grams where rowid = old.id;
              insert into items_name_grams(rowid, grams) values (new.id, name_grams(new.name_key));
            end`.execute(db);
        }
      },
      async down(db: Kysely<any>) {
        if (pg) {
          await sql`drop index if exists items_name_trgm`.execute(db);
          await sql`drop index if exists items_name_grams`.execute(db);
          await sql`drop function if exists name_grams(text)`.execute(db);
        } else {
          for (const t of ['items_name_ai', 'items_name_ad', 'items_name_au']) await sql.raw(`drop trigger if exists ${t}`).execute(db);
          await sql`drop table if exists items_name_grams`.execute(db);
          await sql`drop table if exists items_name_trigram`.execute(db);
        }
        await db.schema.dropIndex('items_updated').ifExists().execute();
        for (const t of ['item_tags', 'tags', 'favorites', 'favorite_categories']) await db.schema.dropTable(t).ifExists().execute();
      },
    },
    // full-text search (docs/integration.md, "Search"): the text of each file's master version,
    // extracted in the background from jobs that a trigger on file_versions queues for every new
    // master (upload, new version, copy, rollback); SQLite indexes it with FTS5 (trigram, and
    // content_grams tokens for 1–2 CJK characters), PostgreSQL with pg_trgm
    '2026-11-24-0013-content-search': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('item_texts')
          .addColumn('item_id', big, (c) => c.primaryKey().references('items.id').onDelete('cascade'))
          .addColumn('blob_id', big)
          // done (text holds it), failed (error says why), skipped (too large), stale (to be read again)
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('truncated', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('extracted_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('item_texts_blob').on('item_texts').column('blob_id').execute();
        await db.schema
          .createTable('content_jobs')
          .addColumn('item_id', big, (c) => c.primaryKey().references('items.id').onDelete('cascade'))
          .addColumn('queued_at', big, (c) => c.notNull())
          .addColumn('lease_until', big, (c) => c.notNull().defaultTo(0))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('content_jobs_due').on('content_jobs').columns(['lease_until', 'queued_at']).execute();
        const nowMs = pg ? sql`(extract(epoch from clock_timestamp()) * 1000)::bigint` : sql`cast((julianday('now') - 2440587.5) * 86400000 as integer)`;
        // every live file that has content is queued once
        await sql`insert into content_jobs (item_id, queued_at, lease_until, attempts)
          select v.item_id, ${nowMs}, 0, 0 from file_versions v join items i on i.id = v.item_id
          where v.is_master = 1 and i.deleted_at is null`.execute(db);
        if (pg) {
          await sql.raw(`create or replace function queue_content_job() returns trigger language plpgsql as $$
            begin
              if new.is_master = 1 then
                insert into content_jobs (item_id, queued_at, lease_until, attempts)
                values (new.item_id, (extract(epoch from clock_timestamp()) * 1000)::bigint, 0, 0)
                on conflict (item_id) do update set queued_at = excluded.queued_at, lease_until = 0, attempts = 0;
              end if;
              return new;
            end $$`).execute(db);
          await sql`create trigger file_versions_content after insert or update of is_master, blob_id on file_versions
            for each row execute function queue_content_job()`.execute(db);
          const trgm = await sql<{ n: number }>`select count(*) as n from pg_extension where extname = 'pg_trgm'`.execute(db);
          if (Number(trgm.rows[0]?.n) > 0) await sql`create index item_texts_trgm on item_texts using gin (text gin_trgm_ops)`.execute(db);
        } else {
          const queue = `insert into content_jobs (item_id, queued_at, lease_until, attempts)
              values (new.item_id, cast((julianday('now') - 2440587.5) * 86400000 as integer), 0, 0)
              on conflict (item_id) do update set queued_at = excluded.queued_at, lease_until = 0, attempts = 0;`;
          await sql.raw(`create trigger file_versions_content_ai after insert on file_versions when new.is_master = 1 begin ${queue} end`).execute(db);
          await sql.raw(`create trigger file_versions_content_au after update of is_master, blob_id on file_versions when new.is_master = 1 begin ${queue} end`).execute(db);
          await sql`create virtual table item_texts_trigram using fts5(text, content='item_texts', content_rowid='item_id', tokenize='trigram', detail='none')`.execute(db);
          await sql`create virtual table item_texts_grams using fts5(grams, content='', contentless_delete=1, detail='none')`.execute(db);
          await sql`create trigger item_texts_ai after insert on item_texts begin
              insert into item_texts_trigram(rowid, text) values (new.item_id, new.text);
              insert into item_texts_grams(rowid, grams) values (new.item_id, content_grams(new.text));
            end`.execute(db);
          await sql`create trigger item_texts_ad after delete on item_texts begin
              insert into item_texts_trigram(item_texts_trigram, rowid, text) values ('delete', old.item_id, old.text);
              delete from item_texts_grams where rowid = old.item_id;
            end`.execute(db);
          await sql`create trigger item_texts_au after update of text on item_texts begin
              insert into item_texts_trigram(item_texts_trigram, rowid, text) values ('delete', old.item_id, old.text);
              insert into item_texts_trigram(rowid, text) values (new.item_id, new.text);
              delete from item_texts_grams where rowid = old.item_id;
              insert into item_texts_grams(rowid, grams) values (new.item_id, content_grams(new.text));
            end`.execute(db);
        }
      },
      async down(db: Kysely<any>) {
        if (pg) {
          await sql`drop trigger if exists file_versions_content on file_versions`.execute(db);
          await sql`drop function if exists queue_content_job()`.execute(db);
        } else {
          for (const t of ['file_versions_content_ai', 'file_versions_content_au', 'item_texts_ai', 'item_texts_ad', 'item_texts_au']) {
            await sql.raw(`drop trigger if exists ${t}`).execute(db);
          }
          await sql`drop table if exists item_texts_grams`.execute(db);
          await sql`drop table if exists item_texts_trigram`.execute(db);
        }
        await db.schema.dropTable('content_jobs').ifExists().execute();
        await db.schema.dropTable('item_texts').ifExists().execute();
      },
    },
    // speed of the finding lists (docs/integration.md, "Favourites, tags and search"):
    // - favourites and tag rows carry copies of their item's state (in the recycle bin, space,
    //   owner), kept by triggers, so that a list is counted and paged from one partial index
    //   of the live rows instead of a lookup of every item;
    // - SQLite: the indexes by update time and by id path also hold name_key, so that a name
    //   search driven by a date range or a folder checks names in the index before it reads
    //   an item (PostgreSQL's planner has pg_trgm); the text index's 1–2-character tokens
    //   cover every script (Latin keywords such as "AI" or "v2" were a scan)
    '2026-11-24-0014-find-speed': {
      async up(db: Kysely<any>) {
        for (const table of ['favorites', 'item_tags']) {
          await db.schema.alterTable(table).addColumn('item_deleted', 'integer', (c) => c.notNull().defaultTo(0)).execute();
          await db.schema.alterTable(table).addColumn('item_space_type', 'integer', (c) => c.notNull().defaultTo(0)).execute();
          await db.schema.alterTable(table).addColumn('item_owner_id', big, (c) => c.notNull().defaultTo(0)).execute();
          await sql
            .raw(
              `update ${table} set (item_deleted, item_space_type, item_owner_id) =
                (select case when i.deleted_at is null then 0 else 1 end, i.space_type, i.owner_id from items i where i.id = ${table}.item_id)`,
            )
            .execute(db);
        }
        const copyTo = (table: string) =>
          `update ${table} set item_deleted = case when new.deleted_at is null then 0 else 1 end,
             item_space_type = new.space_type, item_owner_id = new.owner_id where item_id = new.id;`;
        if (pg) {
          await sql
            .raw(
              `create or replace function items_marks_copy() returns trigger language plpgsql as $$
                begin ${copyTo('favorites')} ${copyTo('item_tags')} return new; end $$`,
            )
            .execute(db);
          await sql`create trigger items_marks after update of deleted_at, space_type, owner_id on items for each row
            when ((old.deleted_at is null) <> (new.deleted_at is null) or old.space_type <> new.space_type or old.owner_id <> new.owner_id)
            execute function items_marks_copy()`.execute(db);
          await sql
            .raw(
              `create or replace function marks_item_state() returns trigger language plpgsql as $$
                begin
                  select case when i.deleted_at is null then 0 else 1 end, i.space_type, i.owner_id
                    into new.item_deleted, new.item_space_type, new.item_owner_id from items i where i.id = new.item_id;
                  return new;
                end $$`,
            )
            .execute(db);
          for (const table of ['favorites', 'item_tags']) {
            await sql.raw(`create trigger ${table}_item_state before insert on ${table} for each row execute function marks_item_state()`).execute(db);
          }
        } else {
          await sql
            .raw(
              `create trigger items_marks_au after update of deleted_at, space_type, owner_id on items
                when (old.deleted_at is null) <> (new.deleted_at is null) or old.space_type <> new.space_type or old.owner_id <> new.owner_id
                begin ${copyTo('favorites')} ${copyTo('item_tags')} end`,
            )
            .execute(db);
          for (const [table, key] of [
            ['favorites', 'user_id = new.user_id'],
            ['item_tags', 'tag_id = new.tag_id'],
          ]) {
            await sql
              .raw(
                `create trigger ${table}_item_state after insert on ${table} begin
                  update ${table} set (item_deleted, item_space_type, item_owner_id) =
                    (select case when i.deleted_at is null then 0 else 1 end, i.space_type, i.owner_id from items i where i.id = new.item_id)
                  where ${key} and item_id = new.item_id;
                end`,
              )
              .execute(db);
          }
          await db.schema.dropIndex('items_updated').execute();
          await db.schema.createIndex('items_updated').on('items').columns(['updated_at', 'id', 'name_key']).execute();
          await db.schema.dropIndex('items_id_path').execute();
          await db.schema.createIndex('items_id_path').on('items').columns(['id_path', 'name_key']).execute();
          // the texts' 1–2-character tokens now cover every script, not CJK alone
          await sql`delete from item_texts_grams`.execute(db);
          await sql`insert into item_texts_grams(rowid, grams) select item_id, content_grams(text) from item_texts`.execute(db);
        }
        // the live rows in the orders the lists are paged in, with what their scope checks
        await db.schema.dropIndex('favorites_user_time').execute();
        await db.schema.dropIndex('favorites_category').execute();
        await db.schema.dropIndex('item_tags_time').execute();
        await db.schema
          .createIndex('favorites_live_time')
          .on('favorites')
          .columns(['user_id', 'created_at', 'item_id', 'category_id', 'item_space_type', 'item_owner_id'])
          .where(sql.ref('item_deleted'), '=', 0)
          .execute();
        await db.schema
          .createIndex('favorites_live_category')
          .on('favorites')
          .columns(['user_id', 'category_id', 'created_at', 'item_id', 'item_space_type', 'item_owner_id'])
          .where(sql.ref('item_deleted'), '=', 0)
          .execute();
        await db.schema
          .createIndex('item_tags_live_time')
          .on('item_tags')
          .columns(['tag_id', 'created_at', 'item_id', 'item_space_type', 'item_owner_id'])
          .where(sql.ref('item_deleted'), '=', 0)
          .execute();
      },
      async down(db: Kysely<any>) {
        for (const i of ['favorites_live_time', 'favorites_live_category', 'item_tags_live_time']) await db.schema.dropIndex(i).ifExists().execute();
        await db.schema.createIndex('favorites_user_time').on('favorites').columns(['user_id', 'created_at', 'item_id']).execute();
        await db.schema.createIndex('favorites_category').on('favorites').columns(['user_id', 'category_id', 'created_at', 'item_id']).execute();
        await db.schema.createIndex('item_tags_time').on('item_tags').columns(['tag_id', 'created_at', 'item_id']).execute();
        if (pg) {
          await sql`drop trigger if exists items_marks on items`.execute(db);
          for (const table of ['favorites', 'item_tags']) await sql.raw(`drop trigger if exists ${table}_item_state on ${table}`).execute(db);
          await sql`drop function if exists items_marks_copy()`.execute(db);
          await sql`drop function if exists marks_item_state()`.execute(db);
        } else {
          for (const t of ['items_marks_au', 'favorites_item_state', 'item_tags_item_state']) await sql.raw(`drop trigger if exists ${t}`).execute(db);
          await db.schema.dropIndex('items_updated').execute();
          await db.schema.createIndex('items_updated').on('items').columns(['updated_at', 'id']).execute();
          await db.schema.dropIndex('items_id_path').execute();
          await db.schema.createIndex('items_id_path').on('items').column('id_path').execute();
        }
        for (const table of ['favorites', 'item_tags']) {
          for (const c of ['item_deleted', 'item_space_type', 'item_owner_id']) await db.schema.alterTable(table).dropColumn(c).execute();
        }
      },
    },
    // preview (docs/integration.md, "Preview"): what is made of a content once (MD5 and size)
    // for previews: the PDF of an office document (LibreOffice), a picture's thumbnail and its
    // scaled view, from jobs that any instance's workers lease
    '2026-11-24-0015-preview': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('preview_conversions')
          // `${kind}:${md5}-${size}` of the source content
          .addColumn('content_key', 'text', (c) => c.primaryKey())
          // pdf, thumb, view
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('blob_id', big, (c) => c.notNull())
          .addColumn('extension', 'text', (c) => c.notNull())
          // queued, running, done (output holds the PDF), failed (error says why)
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('lease_until', big, (c) => c.notNull().defaultTo(0))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
          // relative to $DATA_DIR/previews
          .addColumn('output', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('bytes', big, (c) => c.notNull().defaultTo(0))
          .addColumn('requested_at', big, (c) => c.notNull())
          .addColumn('finished_at', big, (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.createIndex('preview_conversions_due').on('preview_conversions').columns(['kind', 'status', 'requested_at']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('preview_conversions').ifExists().execute();
      },
    },
    // sign-in (docs/integration.md, "Sign-in"): password age, forced changes and history for the
    // password policy, a user's TOTP key (sealed) and the last time step used (no replay), and
    // the second steps of a sign-in in progress (password reset, TOTP binding, TOTP code)
    '2026-11-25-0016-sign-in': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('users').addColumn('password_changed_at', big, (c) => c.notNull().defaultTo(0)).execute();
        await db.updateTable('users').set({ password_changed_at: sql`created_at` }).execute();
        await db.schema.alterTable('users').addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('users').addColumn('totp_required', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
        await db.schema.alterTable('users').addColumn('totp_last_step', big, (c) => c.notNull().defaultTo(0)).execute();
        await db.schema
          .createTable('password_history')
          .addColumn('id', big, idColumn)
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('password_history_user').on('password_history').columns(['user_id', 'created_at']).execute();
        await db.schema
          .createTable('login_steps')
          // SHA-256 (hex) of the actionToken
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          // passwordReset, totpBind, totpCode
          .addColumn('kind', 'text', (c) => c.notNull())
          // totpBind: the sealed key being bound
          .addColumn('secret', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('used_at', big)
          .execute();
        await db.schema.createIndex('login_steps_expiry').on('login_steps').column('expires_at').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('login_steps').ifExists().execute();
        await db.schema.dropTable('password_history').ifExists().execute();
        for (const c of ['totp_last_step', 'totp_secret', 'totp_required', 'must_change_password', 'password_changed_at']) {
          await db.schema.alterTable('users').dropColumn(c).execute();
        }
      },
    },
    // registration (docs/integration.md, "Registration"): a user's mobile number, the SMS codes
    // sent (hashed) and the log sender's outbox, and the applications an administrator decides
    '2026-11-25-0017-registration': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('users').addColumn('mobile', 'text', (c) => c.notNull().defaultTo('')).execute();
        await db.schema.createIndex('users_mobile').on('users').column('mobile').execute();
        await db.schema
          .createTable('verify_codes')
          .addColumn('id', big, idColumn)
          .addColumn('phone', 'text', (c) => c.notNull())
          .addColumn('ip', 'text', (c) => c.notNull())
          // SHA-256 (hex) of phone and code
          .addColumn('code_hash', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('used_at', big)
          .execute();
        await db.schema.createIndex('verify_codes_phone').on('verify_codes').columns(['phone', 'created_at']).execute();
        await db.schema.createIndex('verify_codes_ip').on('verify_codes').columns(['ip', 'created_at']).execute();
        await db.schema
          .createTable('sms_outbox')
          .addColumn('id', big, idColumn)
          .addColumn('phone', 'text', (c) => c.notNull())
          .addColumn('text', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sms_outbox_time').on('sms_outbox').column('created_at').execute();
        await db.schema
          .createTable('registrations')
          .addColumn('id', big, idColumn)
          .addColumn('phone', 'text', (c) => c.notNull())
          .addColumn('user_name', 'text', (c) => c.notNull())
          .addColumn('user_name_key', 'text', (c) => c.notNull())
          .addColumn('nick_name', 'text', (c) => c.notNull())
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('department', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
          // pending, approved, rejected
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('decided_by', big)
          .addColumn('decided_at', big)
          .addColumn('decision_note', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('user_id', big)
          .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('registrations_status').on('registrations').columns(['status', 'created_at']).execute();
        await db.schema.createIndex('registrations_name').on('registrations').columns(['user_name_key', 'status']).execute();
      },
      async down(db: Kysely<any>) {
        for (const t of ['registrations', 'sms_outbox', 'verify_codes']) await db.schema.dropTable(t).ifExists().execute();
        await db.schema.dropIndex('users_mobile').ifExists().execute();
        await db.schema.alterTable('users').dropColumn('mobile').execute();
      },
    },
    // DingTalk sign-in (docs/integration.md, "DingTalk"): the DingTalk user an account is bound to
    // (unionId), and an email to find the account of a DingTalk user by
    '2026-11-25-0018-dingtalk': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('users').addColumn('dingtalk_union_id', 'text').execute();
        await db.schema.alterTable('users').addColumn('email', 'text', (c) => c.notNull().defaultTo('')).execute();
        await db.schema.createIndex('users_dingtalk').on('users').column('dingtalk_union_id').unique().execute();
        await db.schema.createIndex('users_email').on('users').column('email').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('users_email').ifExists().execute();
        await db.schema.dropIndex('users_dingtalk').ifExists().execute();
        await db.schema.alterTable('users').dropColumn('email').execute();
        await db.schema.alterTable('users').dropColumn('dingtalk_union_id').execute();
      },
    },
    // client authorization (docs/integration.md, "Client authorization"): the clients an
    // administrator registered, their one-time authorization codes (hashed, with the PKCE
    // challenge), and the client a session's token was issued to
    '2026-11-25-0019-oauth': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('oauth_clients')
          .addColumn('client_id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          // JSON array of exact redirect URIs
          .addColumn('redirect_uris', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('revoked_at', big)
          .execute();
        await db.schema
          .createTable('oauth_codes')
          .addColumn('code_hash', 'text', (c) => c.primaryKey())
          .addColumn('client_id', 'text', (c) => c.notNull())
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('redirect_uri', 'text', (c) => c.notNull())
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('code_challenge', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('used_at', big)
          .execute();
        await db.schema.alterTable('sessions').addColumn('client_id', 'text').execute();
        // the scopes granted to that client, space-separated
        await db.schema.alterTable('sessions').addColumn('client_scope', 'text', (c) => c.notNull().defaultTo('')).execute();
        await db.schema.createIndex('sessions_user_client').on('sessions').columns(['user_id', 'client_id']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('sessions_user_client').ifExists().execute();
        await db.schema.alterTable('sessions').dropColumn('client_scope').execute();
        await db.schema.alterTable('sessions').dropColumn('client_id').execute();
        await db.schema.dropTable('oauth_codes').ifExists().execute();
        await db.schema.dropTable('oauth_clients').ifExists().execute();
      },
    },
    // short-lived client access tokens with rotating refresh tokens (docs/integration.md,
    // "Client authorization"): one grant a client authorization, its refresh tokens (hashed;
    // a rotated one is kept so that its reuse can end the grant), and the grant an access
    // token (a session) belongs to
    '2026-11-27-0020-oauth-refresh': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('oauth_grants')
          .addColumn('id', big, idColumn)
          .addColumn('client_id', 'text', (c) => c.notNull())
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('code_hash', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('last_used_at', big, (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('revoked_at', big)
          .execute();
        await db.schema.createIndex('oauth_grants_user_client').on('oauth_grants').columns(['user_id', 'client_id']).execute();
        await db.schema.createIndex('oauth_grants_client').on('oauth_grants').column('client_id').execute();
        await db.schema.createIndex('oauth_grants_code').on('oauth_grants').column('code_hash').execute();
        await db.schema
          .createTable('oauth_refresh_tokens')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('grant_id', big, (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('used_at', big)
          .execute();
        await db.schema.createIndex('oauth_refresh_tokens_grant').on('oauth_refresh_tokens').column('grant_id').execute();
        await db.schema.alterTable('sessions').addColumn('grant_id', big).execute();
        await db.schema.createIndex('sessions_grant').on('sessions').column('grant_id').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('sessions_grant').ifExists().execute();
        await db.schema.alterTable('sessions').dropColumn('grant_id').execute();
        await db.schema.dropTable('oauth_refresh_tokens').ifExists().execute();
        await db.schema.dropTable('oauth_grants').ifExists().execute();
      },
    },
    // refusals in the ferry: a refusal receipt carries the receiving zone's reason (a RejectReason)
    // and the file concerned back to the sender; the receiver looks a package's receipts up by id
    '2026-11-27-0021-ferry-refusals': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('ferry_receipts').addColumn('reason', 'text', (c) => c.notNull().defaultTo('')).execute();
        await db.schema.alterTable('ferry_receipts').addColumn('detail', 'text', (c) => c.notNull().defaultTo('')).execute();
        await db.schema.createIndex('ferry_receipts_package').on('ferry_receipts').columns(['package_id', 'event']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('ferry_receipts_package').ifExists().execute();
        await db.schema.alterTable('ferry_receipts').dropColumn('detail').execute();
        await db.schema.alterTable('ferry_receipts').dropColumn('reason').execute();
      },
    },
    // upload limits: the personal space whose quota an open upload session reserves its declared
    // size against (released when the session ends or expires), the open sessions of one uploader
    // counted by an index; a chunk being written holds a lease on its row, so that no other
    // instance writes the same chunk and no merge starts while it is written
    '2026-11-27-0022-upload-reservations': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('upload_sessions').addColumn('quota_owner_id', big).execute();
        await db.schema.createIndex('upload_sessions_quota').on('upload_sessions').columns(['quota_owner_id', 'status']).execute();
        await db.schema.createIndex('upload_sessions_owner_status').on('upload_sessions').columns(['owner_key', 'status']).execute();
        await db.schema.alterTable('upload_chunks').addColumn('writing_until', big).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('upload_chunks').dropColumn('writing_until').execute();
        await db.schema.dropIndex('upload_sessions_owner_status').ifExists().execute();
        await db.schema.dropIndex('upload_sessions_quota').ifExists().execute();
        await db.schema.alterTable('upload_sessions').dropColumn('quota_owner_id').execute();
      },
    },
    // the organisation in pages: a person's contact fields, employee number, source (local, LDAP,
    // DingTalk) with the directory's id, own quota and feature switches, the audit role and the
    // time they left; a department's default quota and switches (inherited down the tree) and
    // its administrators; the actions of administrators, kept with the names they had
    '2026-11-27-0030-organisation-admin': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('users').addColumn('employee_no', 'text', (c) => c.notNull().defaultTo('')).execute();
        await db.schema.alterTable('users').addColumn('source', 'text', (c) => c.notNull().defaultTo('local')).execute();
        await db.schema.alterTable('users').addColumn('external_id', 'text').execute();
        await db.schema.alterTable('users').addColumn('quota', big).execute();
        await db.schema.alterTable('users').addColumn('is_audit_admin', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('users').addColumn('feature_policy', 'text').execute();
        await db.schema.alterTable('users').addColumn('left_at', big).execute();
        // an employee number names one person; '' is none
        await db.schema.createIndex('users_employee_no').on('users').column('employee_no').unique().where(sql.ref('employee_no'), '<>', '').execute();
        await db.schema.createIndex('users_external').on('users').columns(['source', 'external_id']).execute();
        // the 用户 page: one department's people by user name
        await db.schema.createIndex('users_dept_name').on('users').columns(['dept_id', 'user_name_key', 'id']).execute();
        await db.schema.alterTable('departments').addColumn('quota', big).execute();
        await db.schema.alterTable('departments').addColumn('feature_policy', 'text').execute();
        await db.schema.alterTable('departments').addColumn('source', 'text', (c) => c.notNull().defaultTo('local')).execute();
        await db.schema.alterTable('departments').addColumn('external_id', 'text').execute();
        await db.schema.createIndex('departments_external').on('departments').columns(['source', 'external_id']).execute();
        await db.schema.alterTable('groups').addColumn('source', 'text', (c) => c.notNull().defaultTo('local')).execute();
        await db.schema.alterTable('groups').addColumn('external_id', 'text').execute();
        await db.schema
          .createTable('department_admins')
          .addColumn('dept_id', big, (c) => c.notNull().references('departments.id').onDelete('cascade'))
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addPrimaryKeyConstraint('department_admins_pk', ['dept_id', 'user_id'])
          .execute();
        await db.schema.createIndex('department_admins_user').on('department_admins').column('user_id').execute();
        await db.schema
          .createTable('admin_actions')
          .addColumn('id', big, idColumn)
          .addColumn('at', big, (c) => c.notNull())
          .addColumn('actor_id', big, (c) => c.notNull())
          .addColumn('actor_name', 'text', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('target_type', 'text', (c) => c.notNull())
          .addColumn('target_id', 'text', (c) => c.notNull())
          .addColumn('target_name', 'text', (c) => c.notNull())
          .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema.createIndex('admin_actions_at').on('admin_actions').column('at').execute();
        // a checked 批量导入 file, applied later (maybe by another instance); kept a day
        await db.schema
          .createTable('user_imports')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('created_by', big, (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('mode', 'text', (c) => c.notNull())
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('rows', 'text', (c) => c.notNull())
          .addColumn('applied_at', big)
          .execute();
        // 目录同步: each run (planned, applied, refused, failed) with its summary, and the people
        // answered when it waits for an administrator's 应用; leases keep a scheduled job on one instance
        await db.schema
          .createTable('directory_runs')
          .addColumn('id', big, idColumn)
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('trigger', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('started_at', big, (c) => c.notNull())
          .addColumn('finished_at', big)
          .addColumn('created_by', big)
          .addColumn('summary', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('entries', 'text')
          .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema.createIndex('directory_runs_source').on('directory_runs').columns(['source', 'started_at']).execute();
        await db.schema
          .createTable('job_leases')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('holder', 'text', (c) => c.notNull())
          .addColumn('until', big, (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('job_leases').ifExists().execute();
        await db.schema.dropTable('directory_runs').ifExists().execute();
        await db.schema.dropTable('user_imports').ifExists().execute();
        await db.schema.dropTable('admin_actions').ifExists().execute();
        await db.schema.dropTable('department_admins').ifExists().execute();
        await db.schema.dropIndex('departments_external').ifExists().execute();
        for (const c of ['external_id', 'source', 'feature_policy', 'quota']) await db.schema.alterTable('departments').dropColumn(c).execute();
        for (const c of ['external_id', 'source']) await db.schema.alterTable('groups').dropColumn(c).execute();
        await db.schema.dropIndex('users_dept_name').ifExists().execute();
        await db.schema.dropIndex('users_external').ifExists().execute();
        await db.schema.dropIndex('users_employee_no').ifExists().execute();
        for (const c of ['left_at', 'feature_policy', 'is_audit_admin', 'quota', 'external_id', 'source', 'employee_no']) {
          await db.schema.alterTable('users').dropColumn(c).execute();
        }
      },
    },
    '2026-11-27-0040-zip-tasks': {
      // zip tasks (打包下载) in the database, their archives in the object store: any instance
      // builds one, answers its status and serves its file; a build whose instance died is taken over
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('zip_tasks')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('owner', 'text', (c) => c.notNull())
          .addColumn('file_name', 'text', (c) => c.notNull())
          .addColumn('entries', 'text', (c) => c.notNull())
          .addColumn('total_bytes', big, (c) => c.notNull())
          .addColumn('force_zip64', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('processed_bytes', big, (c) => c.notNull().defaultTo(0))
          .addColumn('holder', 'text')
          .addColumn('heartbeat_at', big)
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('finished_at', big)
          .addColumn('object_key', 'text')
          .addColumn('size', big, (c) => c.notNull().defaultTo(0))
          .addColumn('error', 'text')
          .execute();
        await db.schema.createIndex('zip_tasks_state').on('zip_tasks').columns(['state', 'created_at']).execute();
        await db.schema.createIndex('zip_tasks_owner').on('zip_tasks').columns(['owner', 'state']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('zip_tasks').ifExists().execute();
      },
    },
    '2026-11-27-0041-server-instances': {
      // the instances serving one database, each beating every 10 s: a new one checks that it can
      // work beside the live ones (same SECRET_KEY, contents shared, SQLite on one machine only)
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('server_instances')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('host', 'text', (c) => c.notNull())
          .addColumn('pid', 'integer', (c) => c.notNull())
          .addColumn('started_at', big, (c) => c.notNull())
          .addColumn('heartbeat_at', big, (c) => c.notNull())
          .addColumn('key_fingerprint', 'text', (c) => c.notNull())
          .addColumn('storage', 'text', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('server_instances').ifExists().execute();
      },
    },
    '2026-11-27-0042-upload-prefix-hash': {
      // with chunks kept as objects (S3), the running MD5 of an upload's contiguous prefix lives
      // in its session row (hash-wasm's saved state), so that any instance carries it on
      async up(db: Kysely<any>) {
        await db.schema.alterTable('upload_sessions').addColumn('md5_state', 'text').execute();
        await db.schema.alterTable('upload_sessions').addColumn('hashed_through', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      },
      async down(db: Kysely<any>) {
        for (const c of ['hashed_through', 'md5_state']) await db.schema.alterTable('upload_sessions').dropColumn(c).execute();
      },
    },
    '2026-11-27-0043-upload-parts': {
      // in S3 with chunks of 5 MiB or more, an upload's chunks are the parts of one multipart
      // upload of its future blob: the upload's id, when it was completed, and each part's ETag
      async up(db: Kysely<any>) {
        await db.schema.alterTable('upload_sessions').addColumn('multipart_id', 'text').execute();
        await db.schema.alterTable('upload_sessions').addColumn('assembled_at', big).execute();
        await db.schema.alterTable('upload_chunks').addColumn('etag', 'text').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('upload_chunks').dropColumn('etag').execute();
        for (const c of ['assembled_at', 'multipart_id']) await db.schema.alterTable('upload_sessions').dropColumn(c).execute();
      },
    },
    '2026-11-27-0044-notices': {
      // issue 28: what happened, recorded in the transaction of the change (an outbox), and the
      // notices one dispatcher makes of it for the people concerned
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('events')
          .addColumn('id', big, idColumn)
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('dispatched_at', big)
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_at', big, (c) => c.notNull().defaultTo(0))
          .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema.createIndex('events_pending').on('events').columns(['next_at', 'id']).where(sql<boolean>`dispatched_at is null`).execute();
        await db.schema
          .createTable('notices')
          .addColumn('id', big, idColumn)
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('object_type', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('object_id', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('link', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('event_id', big, (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('read_at', big)
          .addColumn('resolved_at', big)
          .addColumn('resolution', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        // an event makes at most one notice per person (a dispatcher run again makes none twice)
        await db.schema.createIndex('notices_event_user').unique().on('notices').columns(['event_id', 'user_id']).execute();
        await db.schema.createIndex('notices_user').on('notices').columns(['user_id', 'id']).execute();
        await db.schema.createIndex('notices_unread').on('notices').columns(['user_id']).where(sql<boolean>`read_at is null`).execute();
        await db.schema.createIndex('notices_object').on('notices').columns(['object_type', 'object_id', 'kind']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('notices').ifExists().execute();
        await db.schema.dropTable('events').ifExists().execute();
      },
    },
    '2026-11-27-0045-workflow-reminders': {
      // 催办: when the initiator last reminded each approver of a request (once an hour at most)
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('workflow_reminders')
          .addColumn('instance_id', big, (c) => c.notNull().references('workflow_instances.id').onDelete('cascade'))
          .addColumn('user_id', big, (c) => c.notNull())
          .addColumn('reminded_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('workflow_reminders_pk', ['instance_id', 'user_id'])
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('workflow_reminders').ifExists().execute();
      },
    },
    '2026-11-27-0046-workflow-auto-remind': {
      // 自动催办: a flow reminds the approvers it waits for after N hours (0 off, 1–168); the
      // job measures the wait from when the task became theirs (todo_since, kept while they
      // stay asked) or from their last reminder
      async up(db: Kysely<any>) {
        await db.schema.alterTable('workflow_definitions').addColumn('auto_remind_hours', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('workflow_participants').addColumn('todo_since', big, (c) => c.notNull().defaultTo(0)).execute();
        // the tasks waiting now: since the instance last changed
        await sql`update workflow_participants set todo_since = (select i.updated_at from workflow_instances i where i.id = workflow_participants.instance_id) where role = 'todo'`.execute(db);
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('workflow_participants').dropColumn('todo_since').execute();
        await db.schema.alterTable('workflow_definitions').dropColumn('auto_remind_hours').execute();
      },
    },
    '2026-11-27-0047-notice-deliveries': {
      // issue 28: a notice's deliveries outside the app, one per notice and channel ('mail' now;
      // 'dingtalk' may follow): sent at once or in the person's digest, claimed before sending,
      // retried with backoff; each person's 通知设置; a notice the person keeps out of 站内消息 is
      // hidden (it still carries what a mail says)
      async up(db: Kysely<any>) {
        await db.schema.alterTable('notices').addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema
          .createTable('notice_deliveries')
          .addColumn('id', big, idColumn)
          .addColumn('notice_id', big, (c) => c.notNull().references('notices.id').onDelete('cascade'))
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('channel', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('digest', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_at', big, (c) => c.notNull().defaultTo(0))
          .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('claimed_by', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('claimed_at', big)
          .addColumn('sent_at', big)
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();
        // a notice goes to a channel once
        await db.schema.createIndex('notice_deliveries_notice_channel').unique().on('notice_deliveries').columns(['notice_id', 'channel']).execute();
        await db.schema.createIndex('notice_deliveries_due').on('notice_deliveries').columns(['next_at', 'id']).where(sql<boolean>`status = 'pending'`).execute();
        await db.schema.createIndex('notice_deliveries_claimed').on('notice_deliveries').columns(['claimed_at']).where(sql<boolean>`status = 'sending'`).execute();
        await db.schema.createIndex('notice_deliveries_user').on('notice_deliveries').columns(['user_id', 'status']).execute();
        await db.schema.createIndex('notice_deliveries_status').on('notice_deliveries').columns(['status', 'updated_at']).execute();
        await db.schema
          .createTable('notice_preferences')
          .addColumn('user_id', big, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
          .addColumn('channels', 'text', (c) => c.notNull().defaultTo('{}'))
          .addColumn('digest', 'text', (c) => c.notNull().defaultTo('hourly'))
          .addColumn('updated_at', big, (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('notice_preferences').ifExists().execute();
        await db.schema.dropTable('notice_deliveries').ifExists().execute();
        await db.schema.alterTable('notices').dropColumn('hidden').execute();
      },
    },
    '2026-11-27-0048-operation-log': {
      // issue 28: one operation log for the whole product. A request appends a row (seq and hash
      // empty); one sealer (a lease) chains the rows in order afterwards (oplog/chain.ts), so an
      // append never waits for another instance's. Retention removes the oldest and keeps the
      // last removed record's position and hash in the head.
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('operation_logs')
          .addColumn('id', big, idColumn)
          .addColumn('seq', big)
          .addColumn('at', big, (c) => c.notNull())
          .addColumn('user_id', big)
          .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('dept_path', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('on_behalf_id', big)
          .addColumn('on_behalf_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('object_type', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('object_id', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('object_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('object_path', 'text', (c) => c.notNull().defaultTo(''))
          // an item's id path (`<space>/<root>/…/<id>`): a folder's 文件动态 is the range below it
          .addColumn('object_scope', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('result', 'text', (c) => c.notNull().defaultTo('ok'))
          .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('request_id', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
          .addColumn('prev_hash', 'text')
          .addColumn('hash', 'text')
          .execute();
        await db.schema.createIndex('operation_logs_seq').unique().on('operation_logs').column('seq').execute();
        await db.schema.createIndex('operation_logs_unsealed').on('operation_logs').column('id').where(sql<boolean>`seq is null`).execute();
        await db.schema.createIndex('operation_logs_at').on('operation_logs').columns(['at', 'id']).execute();
        await db.schema.createIndex('operation_logs_user').on('operation_logs').columns(['user_id', 'at']).execute();
        await db.schema.createIndex('operation_logs_action').on('operation_logs').columns(['action', 'at']).execute();
        await db.schema.createIndex('operation_logs_object').on('operation_logs').columns(['object_type', 'object_id', 'at']).execute();
        await db.schema.createIndex('operation_logs_scope').on('operation_logs').columns(['object_scope', 'at']).execute();
        await db.schema
          .createTable('operation_log_head')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('seq', big, (c) => c.notNull().defaultTo(0))
          .addColumn('hash', 'text', (c) => c.notNull())
          .addColumn('pruned_seq', big, (c) => c.notNull().defaultTo(0))
          .addColumn('pruned_hash', 'text', (c) => c.notNull())
          .execute();
        const zero = '0'.repeat(64);
        await db.insertInto('operation_log_head').values({ id: 1, seq: 0, hash: zero, pruned_seq: 0, pruned_hash: zero }).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('operation_log_head').ifExists().execute();
        await db.schema.dropTable('operation_logs').ifExists().execute();
      },
    },
    '2026-11-27-0049-notice-kinds': {
      // issue 28, the remaining kinds: 系统公告 sent by system administrators, and what a notice
      // told once must not tell again (quota.warning until usage drops below 90 % and crosses
      // again; password.expiring once per expiry), per person and kind
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('announcements')
          .addColumn('id', big, idColumn)
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('department_ids', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('sender_id', big)
          .addColumn('sender_name', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('recipients', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('sent_at', big)
          .execute();
        await db.schema.createIndex('announcements_created').on('announcements').columns(['created_at', 'id']).execute();
        await db.schema
          .createTable('notice_marks')
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('mark', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('notice_marks_pk', ['user_id', 'kind'])
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('notice_marks').ifExists().execute();
        await db.schema.dropTable('announcements').ifExists().execute();
      },
    },
    '2026-11-27-0050-dingtalk-notices': {
      // issue 28, DingTalk 工作通知 as a channel of the notices: what a delivery went out as (the
      // address, DingTalk's task id, a key of the content: DingTalk drops a message identical to
      // one the person got that day), the rows waiting for DingTalk's send result (status
      // 'checking', next_at the next look), and the DingTalk userids found for union ids
      async up(db: Kysely<any>) {
        await db.schema.alterTable('notice_deliveries').addColumn('recipient', 'text', (c) => c.notNull().defaultTo('')).execute();
        await db.schema.alterTable('notice_deliveries').addColumn('task_id', 'text', (c) => c.notNull().defaultTo('')).execute();
        await db.schema.alterTable('notice_deliveries').addColumn('content_key', 'text', (c) => c.notNull().defaultTo('')).execute();
        await db.schema.createIndex('notice_deliveries_checking').on('notice_deliveries').columns(['next_at', 'id']).where(sql<boolean>`status = 'checking'`).execute();
        await db.schema.createIndex('notice_deliveries_user_sent').on('notice_deliveries').columns(['user_id', 'channel', 'sent_at']).execute();
        await db.schema
          .createTable('dingtalk_userids')
          .addColumn('union_id', 'text', (c) => c.primaryKey())
          // '' when DingTalk knows no member of the organisation by that union id
          .addColumn('userid', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('resolved_at', big, (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('dingtalk_userids').ifExists().execute();
        await db.schema.dropIndex('notice_deliveries_user_sent').ifExists().execute();
        await db.schema.dropIndex('notice_deliveries_checking').ifExists().execute();
        await db.schema.alterTable('notice_deliveries').dropColumn('content_key').execute();
        await db.schema.alterTable('notice_deliveries').dropColumn('task_id').execute();
        await db.schema.alterTable('notice_deliveries').dropColumn('recipient').execute();
      },
    },
    '2026-11-27-0051-app-passwords': {
      // issue 29, 应用密码 for WebDAV: per person, named, read-only or read-write; only the
      // SHA-256 of the generated secret is kept; last use (time and address); revoked_at set by
      // the person, by disabling the account and by any new password of the account
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('app_passwords')
          .addColumn('id', big, idColumn)
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('last_used_at', big)
          .addColumn('last_used_ip', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('revoked_at', big)
          .execute();
        await db.schema.createIndex('app_passwords_user').on('app_passwords').columns(['user_id', 'created_at']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('app_passwords').ifExists().execute();
      },
    },
    '2026-11-27-0052-dav-properties': {
      // WebDAV dead properties (PROPPATCH), per item and property name; they go with the item
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('dav_properties')
          .addColumn('item_id', big, (c) => c.notNull().references('items.id').onDelete('cascade'))
          .addColumn('ns', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('updated_at', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('dav_properties_pk', ['item_id', 'ns', 'name'])
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('dav_properties').ifExists().execute();
      },
    },
    '2026-11-27-0053-dav-locks': {
      // WebDAV write locks (class 2): per item, with their owner, scope, depth and expiry
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('dav_locks')
          .addColumn('token', 'text', (c) => c.primaryKey())
          .addColumn('item_id', big, (c) => c.notNull().references('items.id').onDelete('cascade'))
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('depth', 'integer', (c) => c.notNull())
          .addColumn('owner_xml', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('timeout_s', big, (c) => c.notNull())
          .addColumn('expires_at', big, (c) => c.notNull())
          .addColumn('root_href', 'text', (c) => c.notNull())
          .addColumn('created_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('dav_locks_item').on('dav_locks').columns(['item_id', 'expires_at']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('dav_locks').ifExists().execute();
      },
    },
    '2026-11-27-0054-dav-uploads': {
      // WebDAV chunked uploads as Nextcloud's clients send them (MKCOL uploads/<user>/<id>, PUT
      // parts, MOVE .file): one row per upload; the parts are objects of the store under
      // dav-uploads/<id>/, so any instance can take the next part or assemble them
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('dav_uploads')
          .addColumn('id', big, idColumn)
          .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('destination', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('total_length', big)
          .addColumn('received', big, (c) => c.notNull().defaultTo(0))
          .addColumn('part_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('touched_at', big, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('dav_uploads_user_name').unique().on('dav_uploads').columns(['user_id', 'name']).execute();
        await db.schema.createIndex('dav_uploads_touched').on('dav_uploads').column('touched_at').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('dav_uploads').ifExists().execute();
      },
    },
    '2026-11-27-0055-zip-task-holes': {
      // a zip task holds the blobs of its files until it is forgotten, and keeps its archive as a
      // frame (every byte but the stored entries') with the holes read from those blobs when sent
      async up(db: Kysely<any>) {
        await db.schema.alterTable('zip_tasks').addColumn('holds_blobs', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('zip_tasks').addColumn('holes', 'text').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('zip_tasks').dropColumn('holes').execute();
        await db.schema.alterTable('zip_tasks').dropColumn('holds_blobs').execute();
      },
    },
    '2026-11-27-0056-name-index-terms': {
      // SQLite: the terms of the name indexes with the number of names holding each (fts5vocab,
      // read-only views of the indexes themselves), so that a search learns how common a keyword
      // is without reading its matches
      async up(db: Kysely<any>) {
        if (dialect !== 'sqlite') return;
        await sql`create virtual table items_name_trigram_terms using fts5vocab(items_name_trigram, 'row')`.execute(db);
        await sql`create virtual table items_name_grams_terms using fts5vocab(items_name_grams, 'row')`.execute(db);
      },
      async down(db: Kysely<any>) {
        if (dialect !== 'sqlite') return;
        await sql`drop table if exists items_name_grams_terms`.execute(db);
        await sql`drop table if exists items_name_trigram_terms`.execute(db);
      },
    },
    '2026-11-27-0057-blob-crc32': {
      // each blob's CRC-32, made as it is uploaded (alongside the MD5), so that a zip of stored
      // files needs no read of them before it is sent; the running CRC-32 of an upload's chunks
      // kept in the object store travels with its MD5 state
      async up(db: Kysely<any>) {
        await db.schema.alterTable('blobs').addColumn('crc32', 'bigint').execute();
        await db.schema.alterTable('upload_sessions').addColumn('crc32_state', 'bigint').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('upload_sessions').dropColumn('crc32_state').execute();
        await db.schema.alterTable('blobs').dropColumn('crc32').execute();
      },
    },
    '2026-11-27-0058-search-range-cover': {
      // SQLite: the two indexes a name search with a date or folder filter walks also hold what
      // its count of matches checks (deleted_at, parent_id, space_type, owner_id; updated_at for
      // a folder's, its sort key), so that the walk reads a row only for the page it shows
      async up(db: Kysely<any>) {
        if (dialect !== 'sqlite') return;
        await db.schema.dropIndex('items_updated').execute();
        await db.schema.createIndex('items_updated').on('items').columns(['updated_at', 'id', 'name_key', 'deleted_at', 'parent_id', 'space_type', 'owner_id']).execute();
        await db.schema.dropIndex('items_id_path').execute();
        await db.schema.createIndex('items_id_path').on('items').columns(['id_path', 'name_key', 'updated_at', 'deleted_at', 'parent_id', 'space_type', 'owner_id']).execute();
      },
      async down(db: Kysely<any>) {
        if (dialect !== 'sqlite') return;
        await db.schema.dropIndex('items_updated').execute();
        await db.schema.createIndex('items_updated').on('items').columns(['updated_at', 'id', 'name_key']).execute();
        await db.schema.dropIndex('items_id_path').execute();
        await db.schema.createIndex('items_id_path').on('items').columns(['id_path', 'name_key']).execute();
      },
    },
    '2026-11-27-0059-recycle-indexes': {
      // Only deleted items in the recycle bin's two indexes. The bin's list and its hourly purge
      // ask for `deleted_with is null` (the items deleted themselves, not with a folder): SQLite
      // took the full index on deleted_with for it and read every live item (0.2–0.3 s a query at
      // 1,000,000 items, with nothing deleted). A lookup by deleted_with (= or in) and a range of
      // deleted_at still use them; `deleted_at is not null` now reads the deleted items alone.
      async up(db: Kysely<any>) {
        await db.schema.dropIndex('items_deleted_with').execute();
        await sql`create index items_deleted_with on items (deleted_with) where deleted_with is not null`.execute(db);
        await db.schema.dropIndex('items_deleted_at').execute();
        await sql`create index items_deleted_at on items (deleted_at) where deleted_at is not null`.execute(db);
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('items_deleted_with').execute();
        await db.schema.createIndex('items_deleted_with').on('items').column('deleted_with').execute();
        await db.schema.dropIndex('items_deleted_at').execute();
        await db.schema.createIndex('items_deleted_at').on('items').column('deleted_at').execute();
      },
    },
  };
}

/** Brings the schema up to date; throws (in Chinese) when a migration fails. */
export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const migrations = buildMigrations(dialect);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`数据库迁移失败${failed ? `（${failed}）` : ''}：${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
