import { EAS } from '../../documents/schemes.js';
import type { Company } from '../../schemas/company.js';
import type { CompanyFormValues } from '../company-form.js';
import { html, type SafeHtml } from '../html.js';
import { groupedIban } from '../iban.js';
import { isPrivileged, type PanelUser } from '../users.js';
import { companyForm } from './company-form.js';
import { profileHistory, type ProfileEvent } from './company-history.js';
import { time, type FieldErrors } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';

// The Company page: the seller profile as invoices use it, editable by owners and admins and
// read-only for members, and below it the audit list of its changes.

export interface CompanyPageModel {
  company: Company;
  history: ProfileEvent[];
  historyLimit: number;
  /** What the form shows: the stored profile, or what was typed when it comes back with errors. */
  values: CompanyFormValues;
  errors?: FieldErrors;
  notice?: Notice;
}

function value(text: string | null | undefined): SafeHtml {
  return text ? html`${text}` : html`<span class="muted">not set</span>`;
}

function address(a: Company['address']): string | null {
  const parts = [
    [a.line1, a.line2].filter(Boolean).join(', '),
    [a.postalCode, a.city].filter(Boolean).join(' '),
    a.countryCode ?? '',
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

function section(title: string, rows: [string, string | null | undefined][]): SafeHtml {
  return html`<section><h3>${title}</h3><dl class="facts">${rows.map(([term, text]) => html`<dt>${term}</dt><dd>${value(text)}</dd>`)}</dl></section>`;
}

/** What members see instead of the form: every field, "not set" where empty. */
function readOnlyProfile(c: Company): SafeHtml {
  const ea = c.electronicAddress;
  return html`<article class="profile">
<div class="grid">
  ${section('Seller', [
    ['Legal name', c.legalName],
    ['Address', address(c.address)],
    ['VAT id', c.vatId],
    ['Tax number', c.taxNumber],
    ['Legal registration id', c.legalRegistrationId],
  ])}
  ${section('Electronic address', [
    ['Scheme', ea ? `${ea.scheme} — ${EAS[ea.scheme] ?? 'unknown scheme'}` : null],
    ['Identifier', ea?.identifier],
  ])}
</div>
<div class="grid">
  ${section('Contact', [
    ['Name', c.contact.name],
    ['Phone', c.contact.phone],
    ['Email', c.contact.email],
  ])}
  ${section('Bank account', [
    ['IBAN', c.bankAccount ? groupedIban(c.bankAccount.iban) : null],
    ['BIC', c.bankAccount?.bic],
    ['Account name', c.bankAccount?.accountName],
  ])}
</div>
${section('Payment', [
  ['Default payment terms', c.paymentTerms],
  ['SEPA creditor id', c.creditorId],
])}
<p class="muted">Your role (member) can see the profile; owners and admins change it.</p>
</article>`;
}

export function companyPage(chrome: Chrome & { user: PanelUser }, model: CompanyPageModel): string {
  const c = model.company;
  return layout(
    'Company',
    { ...chrome, active: 'company' },
    html`<hgroup><h1>Company</h1><p>Settings · the seller on your invoices: who you are, where you are, and where customers pay.</p></hgroup>
${notice(model.notice)}
<p class="company-settings-links">Also in the company's settings: <a href="${PANEL_PATH}/company/email-templates">Email templates</a>, the subject and text of the messages that send invoices, credit notes and reminders; <a href="${PANEL_PATH}/company/reminders">Reminders</a>, when open invoices are reminded, with a preview of each message.</p>
<p class="notice notice-info">Issued invoices and credit notes keep the profile they were issued with; a change here applies to documents issued from now on.
Every change is recorded below with who made it. A changed bank account is marked: redirecting payments to another account is the classic invoice fraud, so check any change you did not expect.</p>
<dl class="facts">
  <dt>Company name</dt><dd>${c.name} <small class="muted">(set when the company was created)</small></dd>
  <dt>Currency</dt><dd>${c.currency}</dd>
  <dt>Last changed</dt><dd>${time(c.updatedAt, 'never')}</dd>
</dl>
${isPrivileged(chrome.user.role) ? companyForm(chrome.csrf, model.values, model.errors) : readOnlyProfile(c)}
${profileHistory(model.history, model.historyLimit)}`,
  );
}
