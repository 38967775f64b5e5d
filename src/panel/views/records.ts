import type { OrganizationsTable } from '../../db/schema.js';
import { html, type SafeHtml } from '../html.js';
import { scrollTable } from './table.js';
import type { Page } from '../records.js';
import type { PanelUser } from '../users.js';
import { time } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';

export function searchForm(action: string, search: string, label: string, placeholder: string): SafeHtml {
  return html`<form method="get" action="${action}" role="search" class="search">
  <label for="q" class="visually-hidden">${label}</label>
  <input id="q" name="q" type="search" value="${search}" placeholder="${placeholder}" aria-label="${label}">
  <button type="submit" class="secondary">Search</button>
</form>`;
}

export function pager(base: string, search: string, page: Page<unknown>): SafeHtml {
  if (page.pages <= 1) return html``;
  const href = (p: number) =>
    `${base}?${new URLSearchParams({ ...(search ? { q: search } : {}), page: String(p) }).toString()}`;
  return html`<nav aria-label="Pages" class="pager">
  ${page.page > 1 ? html`<a href="${href(page.page - 1)}" rel="prev">← Newer</a>` : html`<span></span>`}
  <span>Page ${page.page} of ${page.pages}</span>
  ${page.page < page.pages ? html`<a href="${href(page.page + 1)}" rel="next">Older →</a>` : html`<span></span>`}
</nav>`;
}

export function emptyState(search: string, what: string, hint: string): SafeHtml {
  return html`<div class="empty-state">${
    search
      ? html`<p><strong>No ${what} match “${search}”.</strong></p><p>Try part of the name, or <a href="?">clear the search</a>.</p>`
      : html`<p><strong>No ${what} yet.</strong></p><p>${hint}</p>`
  }</div>`;
}

export function organizationsPage(
  chrome: Chrome & { user: PanelUser },
  search: string,
  page: Page<OrganizationsTable>,
): string {
  const base = `${PANEL_PATH}/organizations`;
  return layout(
    'Organizations',
    { ...chrome, active: 'organizations' },
    html`<hgroup><h1>Organizations</h1><p>Contacts your integrations created through the API, newest first. Read-only.</p></hgroup>
${searchForm(base, search, 'Search organizations by name', 'Search by name')}
${
  page.items.length === 0
    ? emptyState(
        search,
        'organizations',
        'They appear here when an application calls POST /organization with one of your keys.',
      )
    : html`<p class="muted">${page.total} ${page.total === 1 ? 'organization' : 'organizations'}</p>
${scrollTable(
  'Organizations',
  html`<table class="striped">
  <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Roles</th><th scope="col">Email</th><th scope="col">VAT ID</th><th scope="col">Country</th><th scope="col">Created</th></tr></thead>
  <tbody>${page.items.map(
    (o) => html`<tr>
    <th scope="row"><a href="${base}/${o.id}">${o.name}</a>${o.archived_at ? html` <span class="badge badge-archived">Archived</span>` : ''}${o.type_code === 'F' && (o.first_name || o.last_name) ? html`<br><small class="muted">${o.first_name} ${o.last_name}</small>` : ''}</th>
    <td>${o.type_code === 'F' ? 'Person' : 'Legal entity'}</td>
    <td>${[o.is_customer ? 'customer' : '', o.is_supplier ? 'supplier' : ''].filter(Boolean).join(', ')}</td>
    <td>${o.email ?? html`<span class="muted">—</span>`}</td>
    <td>${o.vat_id ?? html`<span class="muted">—</span>`}</td>
    <td>${o.address_country_code ?? html`<span class="muted">—</span>`}</td>
    <td>${time(o.created_at)}</td>
  </tr>`,
  )}</tbody>
</table>`,
)}
${pager(base, search, page)}`
}`,
  );
}
