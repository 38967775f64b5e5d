import { textTable, type CliCommand } from './command.js';
import { UsageError } from './errors.js';

// `invoicing reminders run --as-of <date>`: one reminder pass for a given day, as the server's
// loop runs one for today: for operators (after downtime, or with the loop off) and for tests.
// The messages it queues are sent by a server's email worker.

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const REMINDER_COMMANDS: CliCommand[] = [
  {
    group: 'reminders',
    verb: 'run',
    positionals: [],
    options: ['as-of'],
    check(values) {
      const asOf = values['as-of'];
      if (asOf !== undefined && (!DATE.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`))))
        throw new UsageError(`--as-of must be a date YYYY-MM-DD, got "${asOf}".`, 'reminders');
    },
    async run(context) {
      const now = new Date();
      const asOf = context.values['as-of'] ?? now.toISOString().slice(0, 10);
      const result = await context.container.reminderScheduler.run(asOf, now);
      const rows = [
        ...result.sent.map((r) => ['sent', r.number ?? r.invoiceId, String(r.level), String(r.days), r.to]),
        ...result.skipped.map((r) => ['skipped', r.number ?? r.invoiceId, String(r.level), String(r.days), r.reason]),
        ...result.overdue.map((r) => ['overdue', r.number ?? r.invoiceId, '', '', '']),
      ];
      const summary = `Reminder pass for ${asOf}: ${result.checked} invoices checked, ${result.sent.length} reminders queued, ${result.skipped.length} levels skipped, ${result.overdue.length} invoices newly overdue.`;
      const notes = [
        result.waitingForEmail > 0
          ? `${result.waitingForEmail} invoices have a reminder due but sending is not set up (SMTP_URL, SMTP_FROM): a later pass sends it.`
          : '',
        result.failed > 0 ? `${result.failed} invoices failed (see the log); a later pass tries them again.` : '',
      ].filter(Boolean);
      context.print(
        result,
        [summary, textTable(['WHAT', 'INVOICE', 'LEVEL', 'DAYS', 'TO / WHY'], rows, 'Nothing was due.'), ...notes].join(
          '\n',
        ),
      );
    },
  },
];
