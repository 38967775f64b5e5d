import type { RecurringInvoice, RecurringRun, RecurringTemplate } from '../schemas/recurring-invoice.js';
import type { SendDocumentInput } from '../schemas/email-delivery.js';
import type { RecurringRow, RunRow } from './recurring-repository.js';
import { periodOf, type Cadence, type Limits } from './schedule.js';

// Stored rows as the API shows them.

export function cadenceOf(row: RecurringRow): Cadence {
  return { interval: row.interval, every: row.every, anchorDate: row.anchor_date };
}

export function limitsOf(row: Pick<RecurringRow, 'end_date' | 'max_runs'>): Limits {
  return { endDate: row.end_date, count: row.max_runs };
}

export function runOf(row: RunRow): RecurringRun {
  return {
    id: row.id,
    period: { start: row.period_start, end: row.period_end },
    runDate: row.run_date,
    status: row.status,
    invoiceId: row.invoice_id,
    failure:
      row.failure_code === null ? null : { code: row.failure_code, message: row.failure_message ?? row.failure_code },
    deliveryId: row.delivery_id,
    sendError: row.send_error,
    createdAt: row.created_at,
  };
}

export function recurringFromRows(row: RecurringRow, runs: RunRow[]): RecurringInvoice {
  const next =
    row.status === 'active' && row.next_run_date !== null && row.next_run_at !== null
      ? {
          date: row.next_run_date,
          at: row.next_run_at,
          period: periodOf(cadenceOf(row), row.next_index, row.invoice_period),
        }
      : null;
  return {
    id: row.id,
    livemode: row.livemode === 1,
    status: row.status,
    organizationId: row.organization_id,
    template: JSON.parse(row.template) as RecurringTemplate,
    schedule: {
      interval: row.interval,
      every: row.every,
      anchorDate: row.anchor_date,
      endDate: row.end_date,
      count: row.max_runs,
      timeZone: row.time_zone,
      missedPeriods: row.missed_periods,
      invoicePeriod: row.invoice_period,
    },
    invoiceStatus: row.invoice_status,
    send: row.send === null ? null : (JSON.parse(row.send) as SendDocumentInput),
    nextRun: next,
    runs: runs.map(runOf),
    pausedAt: row.status === 'paused' ? row.paused_at : null,
    endedAt: row.ended_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
