import type { CompaniesTable } from '../../db/schema.js';
import { EAS } from '../../documents/schemes.js';
import type { CompanyProfiles } from '../../services/company-profile.js';
import { html, type SafeHtml } from '../html.js';
import { scrollTable } from './table.js';
import { groupedIban } from '../iban.js';
import { time } from './forms.js';

// The audit list of the Company page: every recorded profile change, newest first, with who
// made it and each field before and after. An IBAN that replaced another is marked, because
// redirecting a company's payments to another account is the classic fraud after an account
// takeover; the first IBAN entered is not.

export type ProfileEvent = Awaited<ReturnType<CompanyProfiles['history']>>[number];

/** The recorded changes name table columns; these are the labels the form uses. */
const COLUMN_LABELS: Partial<Record<keyof CompaniesTable, string>> = {
  legal_name: 'Legal name',
  vat_id: 'VAT id',
  tax_number: 'Tax number',
  legal_registration_id: 'Legal registration id',
  address_line1: 'Street and number',
  address_line2: 'Address line 2',
  address_postal_code: 'Postal code',
  address_city: 'City',
  country_code: 'Country',
  electronic_address_scheme: 'Electronic address scheme',
  electronic_address_id: 'Electronic address identifier',
  contact_name: 'Contact name',
  contact_phone: 'Contact phone',
  contact_email: 'Contact email',
  iban: 'IBAN',
  bic: 'BIC',
  account_name: 'Account name',
  payment_terms: 'Default payment terms',
  creditor_id: 'SEPA creditor id',
};
const ORDER = Object.keys(COLUMN_LABELS);

function shown(column: string, value: string | null): SafeHtml {
  if (value === null || value === '') return html`<span class="muted">empty</span>`;
  if (column === 'iban') return html`${groupedIban(value)}`;
  if (column === 'electronic_address_scheme' && EAS[value])
    return html`${value} <small class="muted">(${EAS[value]})</small>`;
  return html`${value}`;
}

function who(actor: string): SafeHtml {
  return actor === 'cli' ? html`cli <small class="muted">(command line)</small>` : html`${actor}`;
}

/**
 * An IBAN that replaced another is what a fraud looks like; the first one entered, where there
 * was none, is not a change of account and is not flagged.
 */
function accountChanged(column: string, change: ProfileEvent['changes'][string]): boolean {
  return column === 'iban' && change.from !== null && change.from !== '';
}

function fieldCell(column: string, flagged: boolean): SafeHtml {
  const label = COLUMN_LABELS[column as keyof CompaniesTable] ?? column;
  if (!flagged) return html`${label}`;
  return html`${label} <span class="badge badge-alert" title="Payments go to this account: make sure this change was intended."><span aria-hidden="true">⚠</span> bank account changed</span>`;
}

function eventRows(event: ProfileEvent): SafeHtml {
  const rank = (c: string) => (ORDER.includes(c) ? ORDER.indexOf(c) : ORDER.length);
  const columns = Object.keys(event.changes).sort((a, b) => rank(a) - rank(b));
  // One row per changed field; when and who span the event's rows.
  return html`<tbody class="profile-event" data-event-id="${event.id}">${columns.map((column, i) => {
    const change = event.changes[column]!;
    const flagged = accountChanged(column, change);
    return html`<tr${flagged ? html` class="iban-change"` : ''}>
    ${i === 0 ? html`<td rowspan="${columns.length}">${time(event.at)}</td><td rowspan="${columns.length}">${who(event.actor)}</td>` : ''}
    <th scope="row">${fieldCell(column, flagged)}</th>
    <td class="change-value">${shown(column, change.from)}</td>
    <td class="change-value">${shown(column, change.to)}</td>
  </tr>`;
  })}</tbody>`;
}

export function profileHistory(events: ProfileEvent[], limit: number): SafeHtml {
  return html`<section aria-labelledby="history-heading">
  <h2 id="history-heading">Changes</h2>
  ${
    events.length === 0
      ? html`<p class="muted">The profile has not been changed yet.</p>`
      : html`<p class="muted">${events.length >= limit ? `The latest ${limit} changes` : 'Every change'}, newest first, with each field before and after.</p>
${scrollTable(
  'Profile changes',
  html`<table class="profile-history">
  <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
  ${events.map(eventRows)}
</table>`,
)}`
  }
</section>`;
}
