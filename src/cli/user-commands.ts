import { existingCompany, required, textTable, type CliCommand, type CommandContext } from './command.js';
import { CommandError, UsageError } from './errors.js';

// `invoicing user …`: create, list, reset-password, deactivate. Passwords are read from standard
// input, never from argv (where ps and shell history would show them), and never printed.

async function users(context: CommandContext) {
  const { UserService } = await import('../panel/users.js');
  return new UserService(context.storage.db, context.container.repositories);
}

async function passwordFromStdin(context: CommandContext, command: string): Promise<string> {
  if (!context.values['password-stdin'] || !context.io.readStdin) {
    throw new UsageError(
      `"invoicing ${command}" reads the password from standard input: give --password-stdin.`,
      'user',
    );
  }
  return (await context.io.readStdin()).replace(/\r?\n$/, '');
}

export const USER_COMMANDS: CliCommand[] = [
  {
    group: 'user',
    verb: 'create',
    positionals: [],
    options: ['company', 'email', 'role', 'password-stdin'],
    async run(context) {
      const role = required(context, 'user create', 'role');
      const { isRole } = await import('../panel/users.js');
      if (!isRole(role)) throw new UsageError(`--role must be owner, admin or member, got "${role}".`, 'user');
      const email = required(context, 'user create', 'email');
      const password = await passwordFromStdin(context, 'user create');
      const companyId = await existingCompany(context, required(context, 'user create', 'company'), 'user');
      const result = await (await users(context)).create({ companyId, email, role, password });
      if (!result.ok)
        throw new CommandError(result.field === 'password' ? `Password: ${result.detail}` : result.detail);
      const u = result.value;
      context.print(
        { id: u.id, companyId: u.companyId, email: u.email, role: u.role },
        `Created ${u.role} ${u.email} (${u.id}) in company ${u.companyId}.`,
      );
    },
  },
  {
    group: 'user',
    verb: 'list',
    positionals: [],
    options: ['company'],
    async run(context) {
      const service = await users(context);
      const company = context.values.company;
      const list =
        company === undefined
          ? await service.listAll()
          : await service.listByCompany(await existingCompany(context, company, 'user'));
      const rows = list.map((u) => [
        u.id,
        u.companyId,
        u.email,
        u.role,
        u.active ? 'active' : 'deactivated',
        u.createdAt,
      ]);
      context.print(
        { users: list },
        textTable(['ID', 'COMPANY', 'EMAIL', 'ROLE', 'STATUS', 'CREATED'], rows, 'No users.'),
      );
    },
  },
  {
    group: 'user',
    verb: 'reset-password',
    positionals: ['userId'],
    options: ['password-stdin'],
    async run(context) {
      const userId = context.args[0]!;
      const password = await passwordFromStdin(context, 'user reset-password');
      const result = await (await users(context)).resetPassword(userId, password);
      if (!result.ok)
        throw new CommandError(result.reason === 'invalid' ? `Password: ${result.detail}` : result.detail);
      const u = result.value;
      context.print(
        {
          id: u.id,
          companyId: u.companyId,
          email: u.email,
          sessionsEnded: result.sessionsEnded,
          mustChangePassword: true,
        },
        `Set a new password for ${u.email} (${u.id}); ${result.sessionsEnded} session(s) ended. They must choose their own at their next sign-in.`,
      );
    },
  },
  {
    group: 'user',
    verb: 'deactivate',
    positionals: ['userId'],
    options: [],
    async run(context) {
      const userId = context.args[0]!;
      const result = await (await users(context)).deactivateAsOperator(userId);
      if (!result.ok)
        throw new CommandError(result.reason === 'not_found' ? `No user with id ${userId}.` : result.detail);
      const u = result.value;
      context.print(
        { id: u.id, companyId: u.companyId, email: u.email, active: u.active },
        `Deactivated ${u.email} (${u.id}); they are signed out everywhere.`,
      );
    },
  },
];
