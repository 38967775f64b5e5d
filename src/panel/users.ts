import type { Kysely } from 'kysely';
import type { Database, UserRole, UsersTable } from '../db/schema.js';
import type { Permission } from '../auth/permissions.js';
import { newId } from '../lib/ids.js';
import type { CompanyRepository } from '../repositories/company-repository.js';
import type { SessionRepository } from '../repositories/session-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from './password.js';

// Panel accounts and their rules. Like the other services it returns results, not HTTP errors;
// the CLI (`invoicing user create`) and the panel's routes share it.

export const ROLES: readonly UserRole[] = ['owner', 'admin', 'member'];
export type { UserRole };

export interface PanelUser {
  id: string;
  companyId: string;
  email: string;
  role: UserRole;
  active: boolean;
  /** The password was set by someone else (an owner or admin, or the operator): it must be changed before anything else. */
  mustChangePassword: boolean;
  createdAt: string;
}

export function isRole(value: unknown): value is UserRole {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Owners and admins create and revoke keys, manage webhooks and users and edit the company; members only look. */
export function isPrivileged(role: UserRole): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Whether a role may do what an API key with `permission` may: owners and admins may do
 * everything the API offers (send documents, change the company's templates), members only read.
 */
export function roleAllows(role: UserRole, permission: Permission): boolean {
  return isPrivileged(role) || permission.endsWith('.read');
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function emailProblem(email: string): string | null {
  if (email === '') return 'Enter an email address.';
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    return 'Enter an email address such as ana@example.com.';
  return null;
}

function toUser(row: UsersTable): PanelUser {
  return {
    id: row.id,
    companyId: row.company_id,
    email: row.email,
    role: row.role,
    active: row.active === 1,
    mustChangePassword: row.must_change_password === 1,
    createdAt: row.created_at,
  };
}

export interface CreateUserInput {
  companyId: string;
  email: string;
  role: UserRole;
  password: string;
  /** Set when someone else chose the password (the Users page): the user must change it at first sign-in. */
  mustChangePassword?: boolean;
}

export type UserField = 'email' | 'password' | 'role' | 'company';
export interface UserProblem {
  field: UserField;
  detail: string;
}
/** On failure `field` and `detail` name the first problem; `problems` holds every one, for a form to show at once. */
export type CreateUserResult =
  { ok: true; value: PanelUser } | { ok: false; field: UserField; detail: string; problems: UserProblem[] };

/** Every problem of a new account's fields that can be seen without the database. */
export function userInputProblems(input: { email: string; role: unknown; password: string }): UserProblem[] {
  const problems: UserProblem[] = [];
  const emailError = emailProblem(normalizeEmail(input.email));
  if (emailError) problems.push({ field: 'email', detail: emailError });
  if (!isRole(input.role)) problems.push({ field: 'role', detail: 'Choose owner, admin or member.' });
  const passwordError = passwordProblem(input.password);
  if (passwordError) problems.push({ field: 'password', detail: passwordError });
  return problems;
}

function refused(problems: UserProblem[]): CreateUserResult {
  return { ok: false, field: problems[0]!.field, detail: problems[0]!.detail, problems };
}

export type PasswordField = 'currentPassword' | 'newPassword' | 'newPasswordConfirm';
export type ChangePasswordResult =
  | { ok: true; sessionsEnded: number }
  | { ok: false; currentWrong: boolean; problems: { field: PasswordField; detail: string }[] };

export type ChangeUserResult =
  | { ok: true; value: PanelUser }
  | { ok: false; reason: 'not_found' | 'forbidden' | 'last_owner' | 'self'; detail: string };

/** The repositories the account rules read and write. */
export interface UserStores {
  users: UserRepository;
  sessions: SessionRepository;
  companies: CompanyRepository;
}

export class UserService {
  private readonly users: UserRepository;
  private readonly sessions: SessionRepository;
  private readonly companies: CompanyRepository;

  /** `db` starts the transactions; the stores are the container's repositories. */
  constructor(
    private readonly db: Kysely<Database>,
    stores: UserStores,
  ) {
    this.users = stores.users;
    this.sessions = stores.sessions;
    this.companies = stores.companies;
  }

  async countUsers(trx: Kysely<Database> = this.db): Promise<number> {
    return this.users.count(trx);
  }

  /** Validates and inserts; `trx` lets the first-run setup create company and owner atomically. */
  async create(
    input: CreateUserInput,
    now: Date = new Date(),
    trx: Kysely<Database> = this.db,
  ): Promise<CreateUserResult> {
    const email = normalizeEmail(input.email);
    const problems = userInputProblems(input);
    if (problems.length > 0) return refused(problems);
    const company = await this.companies.findById(input.companyId, trx);
    if (!company) return refused([{ field: 'company', detail: `No company with id ${input.companyId}` }]);
    const row: UsersTable = {
      id: newId('usr'),
      company_id: input.companyId,
      email,
      password_hash: await hashPassword(input.password),
      role: input.role,
      active: 1,
      must_change_password: input.mustChangePassword ? 1 : 0,
      created_at: now.toISOString(),
    };
    if (!(await this.users.insert(row, trx)))
      return refused([{ field: 'email', detail: 'An account with this email already exists.' }]);
    return { ok: true, value: toUser(row) };
  }

  async findById(id: string): Promise<PanelUser | undefined> {
    const row = await this.users.findById(id);
    return row ? toUser(row) : undefined;
  }

  async listByCompany(companyId: string): Promise<PanelUser[]> {
    return (await this.users.listByCompany(companyId)).map(toUser);
  }

  /** Every user of the instance, by company then age: for the operator (`invoicing user list`). */
  async listAll(): Promise<PanelUser[]> {
    return (await this.users.listAll()).map(toUser);
  }

  /**
   * The operator sets a new password (`invoicing user reset-password`): for a user who lost
   * theirs. Every session of the user ends, so whoever held one must sign in with the new one,
   * and since the operator knows it, the user must change it at that sign-in.
   */
  async resetPassword(
    userId: string,
    password: string,
  ): Promise<
    | { ok: true; value: PanelUser; sessionsEnded: number }
    | { ok: false; reason: 'not_found' | 'invalid'; detail: string }
  > {
    const problem = passwordProblem(password);
    if (problem) return { ok: false, reason: 'invalid', detail: problem };
    const hash = await hashPassword(password);
    return this.db.transaction().execute(async (trx) => {
      const row = await this.users.findById(userId, trx);
      if (!row) return { ok: false, reason: 'not_found', detail: `No user with id ${userId}.` };
      await this.users.setPassword(userId, hash, true, trx);
      const ended = await this.sessions.deleteOfUser(userId, null, trx);
      return { ok: true, value: toUser({ ...row, must_change_password: 1 }), sessionsEnded: ended };
    });
  }

  /** The operator deactivates an account (`invoicing user deactivate`), under the same last-owner rule as the panel. */
  async deactivateAsOperator(userId: string): Promise<ChangeUserResult> {
    const row = await this.users.findById(userId);
    if (!row) return { ok: false, reason: 'not_found', detail: `No user with id ${userId}.` };
    return this.change('operator', row.company_id, userId, { active: 0 });
  }

  /** The active user with this email and password, or null. Unknown emails cost the same time. */
  async authenticate(email: string, password: string): Promise<PanelUser | null> {
    const row = await this.users.findByEmail(normalizeEmail(email));
    const matches = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
    return row && matches && row.active === 1 ? toUser(row) : null;
  }

  /**
   * A user's own password change: the current password must be right and the new one valid, and
   * every problem is reported at once. On success every other session of the user ends (a
   * stolen session does not survive the change); `keepSessionId` is the one doing it.
   */
  async changePassword(
    userId: string,
    input: { current: string; next: string; confirm: string },
    keepSessionId: string,
  ): Promise<ChangePasswordResult> {
    const problems: { field: PasswordField; detail: string }[] = [];
    const row = await this.users.findById(userId);
    // Checked even when the new password is refused, so the answer lists everything; the
    // caller counts a wrong current password against the account like a failed sign-in.
    const currentWrong =
      input.current === '' ||
      !(await verifyPassword(input.current, row?.password_hash ?? (await decoyHash()))) ||
      row?.active !== 1;
    if (input.current === '') problems.push({ field: 'currentPassword', detail: 'Enter your current password.' });
    else if (currentWrong) problems.push({ field: 'currentPassword', detail: 'This is not your current password.' });
    const nextProblem = passwordProblem(input.next);
    if (nextProblem) problems.push({ field: 'newPassword', detail: nextProblem });
    else if (input.next === input.current && !currentWrong)
      problems.push({ field: 'newPassword', detail: 'Choose a password different from the current one.' });
    if (input.confirm !== input.next)
      problems.push({ field: 'newPasswordConfirm', detail: 'The two new passwords differ.' });
    if (problems.length > 0) return { ok: false, currentWrong, problems };
    const hash = await hashPassword(input.next);
    return this.db.transaction().execute(async (trx) => {
      await this.users.setPassword(userId, hash, false, trx);
      return { ok: true, sessionsEnded: await this.sessions.deleteOfUser(userId, keepSessionId, trx) };
    });
  }

  /**
   * The first thing a user does whose password someone else set: choose their own. They proved
   * the given one at sign-in moments ago, so only the new one (twice) is asked, and it must differ
   * from the given one. Every other session of the user ends, as with any password change. Refused
   * when no change is required (the flag was cleared meanwhile, e.g. in another tab).
   */
  async replaceGivenPassword(
    userId: string,
    input: { next: string; confirm: string },
    keepSessionId: string,
  ): Promise<ChangePasswordResult> {
    const row = await this.users.findById(userId);
    if (!row || row.active !== 1 || row.must_change_password !== 1)
      return { ok: false, currentWrong: false, problems: [] };
    const problems: { field: PasswordField; detail: string }[] = [];
    const nextProblem = passwordProblem(input.next);
    if (nextProblem) problems.push({ field: 'newPassword', detail: nextProblem });
    else if (await verifyPassword(input.next, row.password_hash))
      problems.push({ field: 'newPassword', detail: 'Choose a password different from the one you were given.' });
    if (input.confirm !== input.next)
      problems.push({ field: 'newPasswordConfirm', detail: 'The two new passwords differ.' });
    if (problems.length > 0) return { ok: false, currentWrong: false, problems };
    const hash = await hashPassword(input.next);
    return this.db.transaction().execute(async (trx) => {
      // Only while the change is still required: two tabs racing change it once.
      if (!(await this.users.replaceRequiredPassword(userId, hash, trx)))
        return { ok: false, currentWrong: false, problems: [] };
      return { ok: true, sessionsEnded: await this.sessions.deleteOfUser(userId, keepSessionId, trx) };
    });
  }

  async changeRole(actor: PanelUser, userId: string, role: UserRole): Promise<ChangeUserResult> {
    return this.change(actor, actor.companyId, userId, { role });
  }

  async setActive(actor: PanelUser, userId: string, active: boolean): Promise<ChangeUserResult> {
    return this.change(actor, actor.companyId, userId, { active: active ? 1 : 0 });
  }

  /**
   * Role and activity changes, in one transaction with the last-owner check so that two owners
   * demoting each other at once cannot leave the company without one.
   */
  private async change(
    actor: PanelUser | 'operator',
    companyId: string,
    userId: string,
    patch: { role?: UserRole; active?: number },
  ): Promise<ChangeUserResult> {
    if (actor !== 'operator' && !isPrivileged(actor.role))
      return { ok: false, reason: 'forbidden', detail: 'Only owners and admins manage users.' };
    return this.db.transaction().execute(async (trx): Promise<ChangeUserResult> => {
      // A transaction alone does not serialize the owner count on PostgreSQL (READ COMMITTED):
      // two owners demoting each other would both count two owners. Locking the company row
      // first makes changes of one company's users take turns.
      await this.companies.lock(companyId, trx);
      const target = await this.users.findInCompany(companyId, userId, trx);
      if (!target) return { ok: false, reason: 'not_found', detail: 'No such user in your company.' };
      if (actor !== 'operator') {
        // Nobody changes their own role or deactivates themselves: another owner or admin does,
        // so a role change always has a second person behind it and nobody locks themselves out.
        if (target.id === actor.id && patch.active === 0)
          return { ok: false, reason: 'self', detail: 'You cannot deactivate your own account.' };
        if (target.id === actor.id && patch.role !== undefined)
          return {
            ok: false,
            reason: 'self',
            detail: `You cannot change your own role; another ${actor.role === 'owner' ? 'owner' : 'owner or admin'} can.`,
          };
        if (actor.role !== 'owner' && (target.role === 'owner' || patch.role === 'owner')) {
          return {
            ok: false,
            reason: 'forbidden',
            detail: 'Only an owner can grant the owner role or change an owner.',
          };
        }
      }
      const losesOwner =
        target.role === 'owner' &&
        target.active === 1 &&
        ((patch.role !== undefined && patch.role !== 'owner') || patch.active === 0);
      if (losesOwner) {
        if ((await this.users.countActiveOwners(companyId, trx)) <= 1)
          return { ok: false, reason: 'last_owner', detail: 'The last owner cannot be demoted or deactivated.' };
      }
      await this.users.update(target.id, patch, trx);
      // A deactivated account is signed out everywhere at once.
      if (patch.active === 0) await this.sessions.deleteOfUser(target.id, null, trx);
      return { ok: true, value: toUser({ ...target, ...patch }) };
    });
  }
}
