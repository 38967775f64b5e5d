import { sql, type Kysely } from 'kysely';

// Key activity for the CLI and the panel alike: events gain the actions roll and rename and a
// detail (JSON), a rolled key names its successor (a key is rolled once), and the keys the CLI
// created or revoked before events were written from the service get their events now. SQLite
// cannot change a check constraint, so the events table is rebuilt on both databases the same
// way. Released migrations are never edited.

interface KeyRow {
  id: string;
  company_id: string;
  lookup_prefix: string;
  name: string;
  created_at: string;
  created_by: string | null;
  revoked_at: string | null;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('replaced_by', 'text').execute();

  await db.schema
    .createTable('api_key_events_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('key_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('create', 'revoke', 'roll', 'rename')`))
    .addColumn('actor_user_id', 'text', (c) => c.references('users.id'))
    .addColumn('actor_label', 'text', (c) => c.notNull())
    // JSON: { previousName } for a rename, { successorId, successorPrefix, oldKeyUntil } for a roll.
    .addColumn('detail', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  const columns = [
    'id',
    'company_id',
    'api_key_id',
    'key_prefix',
    'key_name',
    'action',
    'actor_user_id',
    'actor_label',
    'at',
  ];
  const any = db as Kysely<Record<string, Record<string, unknown>>>;
  await any
    .insertInto('api_key_events_next')
    .columns(columns)
    .expression((eb) => eb.selectFrom('api_key_events').select(columns))
    .execute();
  await db.schema.dropTable('api_key_events').execute();
  await db.schema.alterTable('api_key_events_next').renameTo('api_key_events').execute();
  await db.schema
    .createIndex('api_key_events_company_at_idx')
    .on('api_key_events')
    .columns(['company_id', 'at'])
    .execute();

  // Until now only the panel wrote events: a key without a create event was made by the CLI (or
  // by code), a revoked key without a revoke event was revoked by the CLI.
  const keys = (await any
    .selectFrom('api_keys')
    .select(['id', 'company_id', 'lookup_prefix', 'name', 'created_at', 'created_by', 'revoked_at'])
    .execute()) as unknown as KeyRow[];
  const events = (await any.selectFrom('api_key_events').select(['api_key_id', 'action']).execute()) as unknown as {
    api_key_id: string;
    action: string;
  }[];
  const seen = new Set(events.map((e) => `${e.api_key_id} ${e.action}`));
  const missing: Record<string, unknown>[] = [];
  for (const key of keys) {
    const base = {
      company_id: key.company_id,
      api_key_id: key.id,
      key_prefix: key.lookup_prefix,
      key_name: key.name,
      actor_user_id: null,
      actor_label: 'CLI',
      detail: null,
    };
    if (key.created_by === 'cli' && !seen.has(`${key.id} create`))
      missing.push({ ...base, id: `kev_cli_create_${key.id}`, action: 'create', at: key.created_at });
    if (key.revoked_at !== null && !seen.has(`${key.id} revoke`))
      missing.push({ ...base, id: `kev_cli_revoke_${key.id}`, action: 'revoke', at: key.revoked_at });
  }
  for (let i = 0; i < missing.length; i += 100)
    await any
      .insertInto('api_key_events')
      .values(missing.slice(i, i + 100))
      .execute();
}
