import type { Migration } from 'kysely';
import * as core from './0001-core.js';
import * as invoices from './0002-invoices.js';
import * as panel from './0003-panel.js';
import * as idempotency from './0004-idempotency.js';
import * as lifecycle from './0005-lifecycle.js';
import * as einvoiceData from './0006-einvoice-data.js';
import * as eventsWebhooks from './0007-events-webhooks.js';
import * as testMode from './0008-test-mode.js';
import * as keyActivity from './0009-key-activity.js';
import * as settlementLookups from './0010-settlement-lookups.js';
import * as webhookOutbox from './0011-webhook-outbox.js';
import * as outboxCursors from './0012-outbox-cursors.js';
import * as refunds from './0013-refunds.js';
import * as documentPdfs from './0014-document-pdfs.js';
import * as passwordChange from './0015-password-change.js';
import * as purchaseInvoices from './0016-purchase-invoices.js';
import * as emailDeliveries from './0018-email-deliveries.js';
import * as quotes from './0019-quotes.js';
import * as hostedLinks from './0020-hosted-links.js';
import * as reminders from './0021-reminders.js';
import * as recurringInvoices from './0022-recurring-invoices.js';
import * as quoteDraftsAndOrigins from './0023-quote-drafts-and-origins.js';
import * as reminderCandidates from './0024-reminder-candidates.js';
import * as dropStatusDueIndex from './0025-drop-status-due-index.js';

// Ordered by name; Kysely's migrator runs them under its lock so that instances starting
// together migrate once.
export const MIGRATIONS: Record<string, Migration> = {
  '0001-core': core,
  '0002-invoices': invoices,
  '0003-panel': panel,
  '0004-idempotency': idempotency,
  '0005-lifecycle': lifecycle,
  '0006-einvoice-data': einvoiceData,
  '0007-events-webhooks': eventsWebhooks,
  '0008-test-mode': testMode,
  '0009-key-activity': keyActivity,
  '0010-settlement-lookups': settlementLookups,
  '0011-webhook-outbox': webhookOutbox,
  '0012-outbox-cursors': outboxCursors,
  '0013-refunds': refunds,
  '0014-document-pdfs': documentPdfs,
  '0015-password-change': passwordChange,
  '0016-purchase-invoices': purchaseInvoices,
  '0018-email-deliveries': emailDeliveries,
  '0019-quotes': quotes,
  '0020-hosted-links': hostedLinks,
  '0021-reminders': reminders,
  '0022-recurring-invoices': recurringInvoices,
  '0023-quote-drafts-and-origins': quoteDraftsAndOrigins,
  '0024-reminder-candidates': reminderCandidates,
  '0025-drop-status-due-index': dropStatusDueIndex,
};
