import type { InvoiceStatus } from '../../schemas/invoice.js';
import { html, type SafeHtml } from '../html.js';

// How the invoice lifecycle reads on every page: one badge per status, and Overdue beside
// Issued when the API says so (a separate badge: an overdue invoice is still issued).

const STATUS_LABELS: Record<InvoiceStatus, string> = { draft: 'Draft', issued: 'Issued', paid: 'Paid', void: 'Void' };

export function statusBadges(status: InvoiceStatus, isOverdue: boolean): SafeHtml {
  return html`<span class="badge badge-${status}">${STATUS_LABELS[status]}</span>${isOverdue ? html` <span class="badge badge-overdue">Overdue</span>` : ''}`;
}

/** An invoice's number as lists show it: drafts have none yet. */
export function invoiceLabel(number: string | null): SafeHtml {
  return number === null ? html`<span class="muted">Draft</span>` : html`${number}`;
}
