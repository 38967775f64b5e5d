import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { CompanyRepository } from '../repositories/company-repository.js';
import type { SetupTokenRepository } from '../repositories/setup-token-repository.js';
import { newId } from '../lib/ids.js';
import { companyInputProblems } from '../services/company-service.js';
import { tokenHash } from './sessions.js';
import { UserService, userInputProblems, type PanelUser, type UserField, type UserStores } from './users.js';

// First run, as Jupyter does it: while no user exists, each start issues a random token and
// prints a setup URL carrying it. Only its hash is stored. Claiming consumes every token, so the
// link is dead afterwards; a company with users never issues one again.

export const SETUP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export interface SetupInput {
  token: string;
  companyName: string;
  currency: string;
  email: string;
  password: string;
}

export type SetupField = UserField | 'companyName' | 'currency';
export interface SetupProblem {
  field: SetupField;
  detail: string;
}
export type SetupResult =
  | { ok: true; user: PanelUser }
  | { ok: false; reason: 'invalid_token' }
  | { ok: false; reason: 'invalid_input'; problems: SetupProblem[] };

/** Every problem of the setup form's fields at once (the token is checked by `claim`). */
export function setupProblems(input: Omit<SetupInput, 'token'>): SetupProblem[] {
  const problems: SetupProblem[] = [];
  // The company's rules are the company service's, in its words, under the form's fields.
  for (const p of companyInputProblems({ name: input.companyName, currency: input.currency })) {
    problems.push({ field: p.field === 'name' ? 'companyName' : 'currency', detail: p.message });
  }
  return [...problems, ...userInputProblems({ email: input.email, role: 'owner', password: input.password })];
}

class Rollback extends Error {
  constructor(readonly result: SetupResult) {
    super('setup rolled back');
  }
}

/** What the first-run setup reads and writes: the account stores and the setup tokens. */
export interface SetupStores extends UserStores {
  companies: CompanyRepository;
  setupTokens: SetupTokenRepository;
}

export class FirstRunSetup {
  private readonly users: UserService;

  /** `db` starts the claim's transaction; the stores are the container's repositories. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly stores: SetupStores,
  ) {
    this.users = new UserService(db, stores);
  }

  /** A fresh setup token when the instance is unclaimed, else null. */
  async issueToken(now: Date = new Date()): Promise<string | null> {
    if ((await this.users.countUsers()) > 0) return null;
    const token = randomBytes(24).toString('base64url');
    await this.stores.setupTokens.insert(
      tokenHash(token),
      now.toISOString(),
      new Date(now.getTime() + SETUP_TOKEN_TTL_MS).toISOString(),
    );
    return token;
  }

  async isValid(token: string, now: Date = new Date()): Promise<boolean> {
    if (!token) return false;
    return (
      (await this.stores.setupTokens.isLive(tokenHash(token), now.toISOString())) &&
      (await this.users.countUsers()) === 0
    );
  }

  /** Creates the company and its owner and burns the tokens, all or nothing. */
  async claim(input: SetupInput, now: Date = new Date()): Promise<SetupResult> {
    const problems = setupProblems(input);
    if (problems.length > 0) return { ok: false, reason: 'invalid_input', problems };
    const companyName = input.companyName.trim();
    const currency = input.currency.trim().toUpperCase();
    try {
      return await this.db.transaction().execute(async (trx) => {
        // Deleting the presented token first makes two concurrent claims race on one row.
        const burned = await this.stores.setupTokens.burn(tokenHash(input.token), now.toISOString(), trx);
        if (!burned || (await this.users.countUsers(trx)) > 0)
          throw new Rollback({ ok: false, reason: 'invalid_token' });
        const companyId = newId('cmp');
        await this.stores.companies.insert(
          {
            id: companyId,
            name: companyName,
            currency,
            vat_id: null,
            country_code: null,
            created_at: now.toISOString(),
          },
          trx,
        );
        const created = await this.users.create(
          { companyId, email: input.email, role: 'owner', password: input.password },
          now,
          trx,
        );
        if (!created.ok) throw new Rollback({ ok: false, reason: 'invalid_input', problems: created.problems });
        await this.stores.setupTokens.deleteAll(trx);
        return { ok: true, user: created.value } as const;
      });
    } catch (error) {
      if (error instanceof Rollback) return error.result;
      throw error;
    }
  }
}

/** The words around a setup link, the same from the server and from `invoicing setup-link`. */
export function setupLinkMessage(url: string): string {
  return `\nNo panel user exists yet. To set up this instance, open this one-time link (valid 24 hours):\n\n    ${url}\n\n`;
}

/**
 * Called by the server after listen: on an unclaimed instance, prints the one-time setup URL to
 * stderr — never to stdout, which carries the JSON log that operators ship elsewhere, and never
 * into a log line. `invoicing setup-link` prints a fresh one for whoever missed it.
 */
export async function announceFirstRunSetup(
  app: { container: { storage: { db: Kysely<Database> }; repositories: SetupStores } },
  address: string,
  write: (text: string) => void = (text) => process.stderr.write(text),
): Promise<void> {
  const token = await new FirstRunSetup(app.container.storage.db, app.container.repositories).issueToken();
  if (token === null) return;
  write(setupLinkMessage(`${address}${setupPath(token)}`));
}

export function setupPath(token: string): string {
  return `/panel/setup?token=${encodeURIComponent(token)}`;
}
