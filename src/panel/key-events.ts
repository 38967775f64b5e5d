import type { ApiKeyRepository } from '../repositories/api-key-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';

// The activity of a company's keys, as the key service records it for the panel and the CLI
// alike: who (an email, or "CLI"), when, what, which key.

interface EventBase {
  keyId: string;
  keyPrefix: string;
  /** The key's name at the time (after a rename: the new name). */
  keyName: string;
  actor: string;
  at: string;
}

export type KeyEvent =
  | (EventBase & { action: 'create' | 'revoke' })
  | (EventBase & { action: 'rename'; previousName: string })
  | (EventBase & { action: 'roll'; successorPrefix: string; oldKeyUntil: string });

function detailOf(json: string | null): Record<string, unknown> {
  if (json === null) return {};
  const parsed: unknown = JSON.parse(json);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export class KeyEventLog {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly users: UserRepository,
  ) {}

  async recent(companyId: string, limit = 50): Promise<KeyEvent[]> {
    const rows = await this.apiKeys.recentEvents(companyId, limit);
    return rows.map((r): KeyEvent => {
      const base = {
        keyId: r.api_key_id,
        keyPrefix: r.key_prefix,
        keyName: r.key_name,
        actor: r.actor_label,
        at: r.at,
      };
      const detail = detailOf(r.detail);
      switch (r.action) {
        case 'rename':
          return { ...base, action: 'rename', previousName: text(detail.previousName) };
        case 'roll':
          return {
            ...base,
            action: 'roll',
            successorPrefix: text(detail.successorPrefix),
            oldKeyUntil: text(detail.oldKeyUntil),
          };
        default:
          return { ...base, action: r.action };
      }
    });
  }

  /** Emails of the company's users by id, to show who created a key. */
  async userEmails(companyId: string): Promise<Map<string, string>> {
    return this.users.emailsById(companyId);
  }
}
