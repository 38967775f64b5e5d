import { html } from '../html.js';
import { MIN_PASSWORD_LENGTH } from '../password.js';
import { csrfField, field, formErrorSummary, type FieldErrors } from './forms.js';
import { layout, notice, PANEL_PATH, type Notice } from './layout.js';
import { MAX_COMPANY_NAME_LENGTH } from '../../services/company-service.js';

/** What sign-in carries through to the page after it: that page, and the values its form takes back. */
export interface SignInCarry {
  returnTo?: string;
  restore?: string;
}

export function signInPage(
  csrf: string,
  values: { email?: string },
  errors?: FieldErrors,
  message?: Notice,
  carry: SignInCarry = {},
): string {
  return layout(
    'Sign in',
    { csrf },
    html`<article class="narrow">
  <header><h1>Sign in</h1><p>Manage your company's API keys and users.</p></header>
  ${notice(message)}
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/sign-in" novalidate>
    ${csrfField(csrf)}
    ${carry.returnTo ? html`<input type="hidden" name="return" value="${carry.returnTo}">` : ''}
    ${carry.restore ? html`<input type="hidden" name="restore" value="${carry.restore}">` : ''}
    ${field({ name: 'email', label: 'Email', type: 'email', value: values.email, errors, required: true, autocomplete: 'username', autofocus: !values.email })}
    ${field({ name: 'password', label: 'Password', type: 'password', errors, required: true, autocomplete: 'current-password', autofocus: Boolean(values.email) && !errors })}
    <button type="submit">Sign in</button>
  </form>
</article>`,
  );
}

export interface SetupValues {
  companyName?: string;
  currency?: string;
  email?: string;
}

export function setupPage(csrf: string, token: string, values: SetupValues, errors?: FieldErrors): string {
  return layout(
    'First-run setup',
    { csrf },
    html`<article class="narrow">
  <header><h1>Set up this instance</h1>
  <p>Create your company and its owner account. This link works once: after setup it is dead, and further accounts are made from the Users page or the CLI.</p></header>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/setup" novalidate>
    ${csrfField(csrf)}
    <input type="hidden" name="token" value="${token}">
    <fieldset>
      <legend>Company</legend>
      ${field({ name: 'companyName', label: 'Company name', value: values.companyName, errors, required: true, maxlength: MAX_COMPANY_NAME_LENGTH, autocomplete: 'organization', autofocus: !errors })}
      ${field({ name: 'currency', label: 'Currency (ISO 4217)', value: values.currency ?? 'EUR', errors, required: true, maxlength: 3, hint: 'The default currency of your invoices, e.g. EUR.' })}
    </fieldset>
    <fieldset>
      <legend>Owner account</legend>
      ${field({ name: 'email', label: 'Email', type: 'email', value: values.email, errors, required: true, autocomplete: 'username' })}
      ${field({ name: 'password', label: 'Password', type: 'password', errors, required: true, minlength: MIN_PASSWORD_LENGTH, autocomplete: 'new-password', hint: `At least ${MIN_PASSWORD_LENGTH} characters.` })}
      ${field({ name: 'passwordConfirm', label: 'Repeat the password', type: 'password', errors, required: true, autocomplete: 'new-password' })}
    </fieldset>
    <button type="submit">Create company and owner</button>
  </form>
</article>`,
  );
}

export function setupInvalidPage(csrf: string): string {
  return layout(
    'Setup link not valid',
    { csrf },
    html`<article class="narrow">
  <header><h1>This setup link is not valid</h1></header>
  <p>It was already used, it has expired, or it was mistyped. If this instance has been set up, <a href="${PANEL_PATH}/sign-in">sign in</a>.
  Otherwise restart the server and open the new link it prints.</p>
</article>`,
  );
}
