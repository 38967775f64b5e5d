import type { Kysely } from 'kysely';
import type { ApiKeyEventsTable, Database } from '../db/schema.js';
import { uuidv7 } from '../lib/ids.js';
import type { PanelUser } from './users.js';

// The audit trail of key changes made in the panel: who, when, what, which key.

export interface KeyEvent {
  action: 'create' | 'revoke';
  keyId: string;
  keyPrefix: string;
  keyName: string;
  actor: string;
  at: string;
}

export class KeyEventLog {
  constructor(private readonly db: Kysely<Database>) {}

  async record(actor: PanelUser, action: KeyEvent['action'], key: { id: string; prefix: string; name: string }, at: Date = new Date()): Promise<void> {
    const row: ApiKeyEventsTable = {
      id: `kev_${uuidv7(at.getTime())}`,
      company_id: actor.companyId,
      api_key_id: key.id,
      key_prefix: key.prefix,
      key_name: key.name,
      action,
      actor_user_id: actor.id,
      actor_label: actor.email,
      at: at.toISOString(),
    };
    await this.db.insertInto('api_key_events').values(row).execute();
  }

  async recent(companyId: string, limit = 50): Promise<KeyEvent[]> {
    const rows = await this.db
      .selectFrom('api_key_events')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ action: r.action, keyId: r.api_key_id, keyPrefix: r.key_prefix, keyName: r.key_name, actor: r.actor_label, at: r.at }));
  }

  /** Emails of the company's users by id, to show who created a key. */
  async userEmails(companyId: string): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('users').select(['id', 'email']).where('company_id', '=', companyId).execute();
    return new Map(rows.map((r) => [r.id, r.email]));
  }
}
