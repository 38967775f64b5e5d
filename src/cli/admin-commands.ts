import type { CliCommand } from './command.js';
import { CommandError } from './errors.js';

// `invoicing setup-link` and `invoicing migrate`.

export const ADMIN_COMMANDS: CliCommand[] = [
  {
    group: 'setup-link',
    verb: null,
    positionals: [],
    options: ['base-url'],
    async run(context) {
      // For operators who missed the link the server printed at start (or run it in a container).
      const { FirstRunSetup, setupLinkMessage, setupPath } = await import('../panel/setup.js');
      const token = await new FirstRunSetup(context.storage.db, context.container.repositories).issueToken();
      if (token === null)
        throw new CommandError('This instance already has panel users: sign in at /panel, or ask an owner to add you.');
      const baseUrl = (context.values['base-url'] ?? `http://${context.config.host}:${context.config.port}`).replace(
        /\/+$/,
        '',
      );
      const url = `${baseUrl}${setupPath(token)}`;
      context.print({ url }, setupLinkMessage(url).trim());
    },
  },
  {
    group: 'migrate',
    verb: null,
    positionals: [],
    options: [],
    async run(context) {
      context.print(
        { applied: context.applied },
        context.applied.length ? `Applied: ${context.applied.join(', ')}` : 'The database is up to date.',
      );
    },
  },
];
