import type { OrganizationsTable } from '../../db/schema.js';
import { html, type SafeHtml } from '../html.js';
import type { InvoiceListItem, Page } from '../records.js';
import type { PanelUser } from '../users.js';
import { facts } from './document-parts.js';
import { time } from './forms.js';
import { invoiceTable } from './invoices.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { pager } from './records.js';

// One organization as it is now (an issued invoice keeps its own snapshot of the buyer), and
// every invoice addressed to it.

function address(o: OrganizationsTable): string | null {
  const parts = [
    [o.address_line1, o.address_line2].filter(Boolean).join(', '),
    [o.address_postal_code, o.address_city].filter(Boolean).join(' '),
    o.address_country_code ?? '',
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

function details(o: OrganizationsTable): SafeHtml {
  const person = o.type_code === 'F' ? [o.first_name, o.last_name].filter(Boolean).join(' ') : '';
  return facts([
    ['Type', o.type_code === 'F' ? 'Person' : 'Legal entity'],
    ['Roles', [o.is_customer ? 'customer' : '', o.is_supplier ? 'supplier' : ''].filter(Boolean).join(', ') || null],
    ['Contact person', person || null],
    ['Email', o.email],
    ['Phone', o.phone],
    ['VAT ID', o.vat_id],
    ['Tax number', o.tax_number],
    ['Address', address(o)],
  ]);
}

export function organizationPage(
  chrome: Chrome & { user: PanelUser },
  o: OrganizationsTable,
  invoices: Page<InvoiceListItem>,
): string {
  const base = `${PANEL_PATH}/organizations/${o.id}`;
  return layout(
    o.name,
    { ...chrome, active: 'organizations' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/organizations">Organizations</a></li><li>${o.name}</li></ul></nav>
<hgroup><h1>${o.name}</h1>
<p>${
      o.archived_at
        ? html`<span class="badge badge-archived">Archived</span> since ${time(o.archived_at)}: no new invoices can be addressed to it.`
        : html`<span class="badge badge-active">Active</span>`
    } · created ${time(o.created_at)}</p></hgroup>
${details(o)}
<h2>Invoices</h2>
${
  invoices.items.length === 0
    ? html`<div class="empty-state"><p><strong>No invoices for this organization yet.</strong></p></div>`
    : html`<p class="muted">${invoices.total} ${invoices.total === 1 ? 'invoice' : 'invoices'}, newest first</p>
${invoiceTable(invoices.items, { withBuyer: false })}
${pager(base, '', invoices)}`
}
<p class="muted">id <code>${o.id}</code></p>`,
  );
}
