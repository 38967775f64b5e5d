import { existingCompany, textTable, type CliCommand } from './command.js';
import { CommandError } from './errors.js';

// `invoicing webhook list | disable`: what an operator needs when a receiver misbehaves. Neither
// ever prints a signing secret.

export const WEBHOOK_COMMANDS: CliCommand[] = [
  {
    group: 'webhook',
    verb: 'list',
    positionals: [],
    options: ['company'],
    async run(context) {
      const { endpointFromRow } = await import('../webhooks/endpoint-service.js');
      const company = context.values.company;
      const companyId = company === undefined ? undefined : await existingCompany(context, company, 'webhook');
      const rows = await context.container.webhookEndpointRepository.listForOperator(companyId);
      const endpoints = rows.map((row) => ({ companyId: row.company_id, ...endpointFromRow(row) }));
      const table = endpoints.map((e) => [
        e.id,
        e.companyId,
        e.livemode ? 'live' : 'test',
        e.enabled ? 'enabled' : e.disabledReason === 'failing' ? 'disabled (failing)' : 'disabled',
        e.url,
        e.events.join(','),
      ]);
      context.print(
        { endpoints },
        textTable(['ID', 'COMPANY', 'MODE', 'STATUS', 'URL', 'EVENTS'], table, 'No webhook endpoints.'),
      );
    },
  },
  {
    group: 'webhook',
    verb: 'disable',
    positionals: ['endpointId'],
    options: [],
    async run(context) {
      const endpointId = context.args[0]!;
      const row = await context.container.webhookEndpointRepository.findForOperator(endpointId);
      if (!row) throw new CommandError(`No webhook endpoint with id ${endpointId}.`);
      const { scopeFor } = await import('../db/scope.js');
      const scope = scopeFor(row.company_id, { livemode: row.livemode === 1 });
      const result = await context.container.webhookEndpoints.update(scope, endpointId, { enabled: false });
      if (!result.ok) throw new CommandError(`No webhook endpoint with id ${endpointId}.`);
      context.print(
        { companyId: row.company_id, ...result.value },
        `Disabled webhook endpoint ${endpointId} (${result.value.url}). Nothing more is sent to it until it is enabled again (PATCH /webhook-endpoint/{id} or the panel); what it misses stays in GET /event.`,
      );
    },
  },
];
