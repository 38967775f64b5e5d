import { existingCompany, type CliCommand } from './command.js';
import { CommandError, UsageError } from './errors.js';

// `invoicing schedules run [--as-of <datetime>]`: one pass of the recurring invoice scheduler, as
// the server makes every RECURRING_INTERVAL_SECONDS, for operators (after downtime, with the
// in-service scheduler turned off) and tests. It is safe beside running servers: a period is
// made once whoever runs it.

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

function asOf(value: string | undefined): Date {
  if (value === undefined) return new Date();
  const at = new Date(value);
  if (!INSTANT.test(value) || Number.isNaN(at.getTime()))
    throw new UsageError(
      `--as-of must be an ISO 8601 date-time with a zone (2027-02-28T06:00:00Z or 2027-02-28T07:00+01:00), got "${value}".`,
      'schedules',
    );
  return at;
}

export const SCHEDULE_COMMANDS: CliCommand[] = [
  {
    group: 'schedules',
    verb: 'run',
    positionals: [],
    options: ['as-of', 'company'],
    check(values) {
      asOf(values['as-of']);
    },
    async run(context) {
      const at = asOf(context.values['as-of']);
      const company = context.values.company;
      const companyId = company === undefined ? undefined : await existingCompany(context, company, 'schedules');
      const errors: string[] = [];
      const summary = await context.container.recurring.runDue(
        at,
        (error, id) => errors.push(`${id}: ${error instanceof Error ? error.message : String(error)}`),
        companyId === undefined ? {} : { companyId },
      );
      if (errors.length > 0)
        throw new CommandError(
          `The pass as of ${summary.asOf} made ${summary.made} invoices, but ${errors.length} recurring invoices could not run: ${errors.join('; ')}`,
        );
      context.print(
        summary,
        `Pass as of ${summary.asOf}: ${summary.made} invoices made, ${summary.failed} runs failed, ${summary.ended} recurring invoices ended, ${summary.sent} messages queued.`,
      );
    },
  },
];
