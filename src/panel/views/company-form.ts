import { EAS } from '../../documents/schemes.js';
import type { CompanyFormValues } from '../company-form.js';
import { html, type SafeHtml } from '../html.js';
import {
  csrfField,
  describedBy,
  field,
  fieldMessages,
  firstError,
  formErrorSummary,
  textareaField,
  type FieldErrors,
} from './forms.js';
import { PANEL_PATH } from './layout.js';

// The edit form of the Company page (owners and admins). Field names are the form's, see
// ../company-form.ts; every control keeps what was typed when the form comes back with errors.

/** The schemes most sellers in Europe use, first; the whole EAS list follows. */
const COMMON_EAS = [
  '9930',
  '0204',
  '0088',
  '0060',
  '0199',
  '9914',
  '9925',
  '0208',
  '9944',
  '0106',
  '9957',
  '0009',
  '0211',
  '0007',
  '0192',
  '0184',
  'EM',
];

function easOption(code: string, selected: string): SafeHtml {
  return html`<option value="${code}"${code === selected ? html` selected` : ''}>${code} — ${EAS[code]}</option>`;
}

function easSelect(values: CompanyFormValues, errors: FieldErrors | undefined): SafeHtml {
  const selected = values.easScheme ?? '';
  const hint =
    'The scheme of the identifier your customers send e-invoices to (EAS code list), e.g. 9930 for a German VAT id or 0204 for a Leitweg-ID.';
  const rest = Object.keys(EAS).filter((code) => !COMMON_EAS.includes(code));
  return html`<label for="easScheme">Scheme <span class="optional">(optional)</span></label>
<select id="easScheme" name="easScheme"${errors?.easScheme ? html` aria-invalid="true"` : ''}${describedBy('easScheme', errors, hint)}${firstError(errors) === 'easScheme' ? html` autofocus` : ''}>
  <option value=""${selected === '' ? html` selected` : ''}>— none —</option>
  <optgroup label="Common">${COMMON_EAS.map((code) => easOption(code, selected))}</optgroup>
  <optgroup label="All schemes">${rest.map((code) => easOption(code, selected))}</optgroup>
</select>
${fieldMessages('easScheme', errors, hint)}`;
}

export function companyForm(csrf: string, values: CompanyFormValues, errors: FieldErrors | undefined): SafeHtml {
  const f = (
    name: keyof CompanyFormValues,
    label: string,
    more: { type?: 'email'; hint?: string; autocomplete?: string } = {},
  ) => field({ name, label, value: values[name], errors, ...more });
  return html`<article id="edit-profile">
  <header><h2>Edit the profile</h2></header>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/company" novalidate class="company-form">
    ${csrfField(csrf)}
    <fieldset>
      <legend>Seller</legend>
      ${f('legalName', 'Legal name', { hint: 'As registered, e.g. "Acme Trading GmbH". Invoices show it as the seller, with the company name as trading name; empty means the company name.', autocomplete: 'organization' })}
      <div class="grid">
        <div>${f('vatId', 'VAT id', { hint: 'With its country prefix, e.g. DE123456789.' })}</div>
        <div>${f('taxNumber', 'Tax number', { hint: 'The national tax number, if invoices must show it.' })}</div>
        <div>${f('legalRegistrationId', 'Legal registration id', { hint: 'E.g. the commercial register entry, HRB 12345.' })}</div>
      </div>
    </fieldset>
    <fieldset>
      <legend>Address</legend>
      <div class="grid">
        <div>${f('line1', 'Street and number', { autocomplete: 'address-line1' })}</div>
        <div>${f('line2', 'Address line 2', { autocomplete: 'address-line2' })}</div>
      </div>
      <div class="grid">
        <div>${f('postalCode', 'Postal code', { autocomplete: 'postal-code' })}</div>
        <div>${f('city', 'City', { autocomplete: 'address-level2' })}</div>
        <div>${f('countryCode', 'Country', { hint: 'Two letters (ISO 3166-1), e.g. DE.', autocomplete: 'country' })}</div>
      </div>
    </fieldset>
    <fieldset>
      <legend>Electronic address</legend>
      <div class="grid">
        <div>${easSelect(values, errors)}</div>
        <div>${f('easIdentifier', 'Identifier', { hint: 'E.g. DE123456789 with scheme 9930.' })}</div>
      </div>
    </fieldset>
    <fieldset>
      <legend>Contact</legend>
      <div class="grid">
        <div>${f('contactName', 'Name', { autocomplete: 'name' })}</div>
        <div>${f('contactPhone', 'Phone', { autocomplete: 'tel' })}</div>
        <div>${f('contactEmail', 'Email', { type: 'email', autocomplete: 'email' })}</div>
      </div>
    </fieldset>
    <fieldset>
      <legend>Bank account</legend>
      <p class="notice notice-warning"><strong>Check twice.</strong> Customers pay to this account. Every change of it is recorded and marked in the list of changes below.</p>
      <div class="grid">
        <div>${f('iban', 'IBAN', { hint: 'Spaces are fine, e.g. DE89 3704 0044 0532 0130 00.' })}</div>
        <div>${f('bic', 'BIC', { hint: '8 or 11 characters.' })}</div>
        <div>${f('accountName', 'Account name', { hint: 'Empty means the legal name.' })}</div>
      </div>
    </fieldset>
    <fieldset>
      <legend>Payment</legend>
      ${textareaField({ name: 'paymentTerms', label: 'Default payment terms', value: values.paymentTerms, errors, hint: 'Printed on invoices that do not bring their own, e.g. "Payable within 30 days."' })}
      ${f('creditorId', 'SEPA creditor id', { hint: 'Only for direct debits, e.g. DE98ZZZ09999999999.' })}
    </fieldset>
    <button type="submit">Save profile</button>
  </form>
</article>`;
}
