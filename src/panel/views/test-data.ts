import { html } from '../html.js';
import { isPrivileged } from '../users.js';
import { csrfField, field, formErrorSummary } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome } from './layout.js';

/** What deleting test data does, and the form that does it (owners and admins). */
export function testDataPage(chrome: Chrome, model: { done?: boolean; error?: string }): string {
  const privileged = chrome.user !== undefined && isPrivileged(chrome.user.role);
  const errors = model.error ? { confirm: model.error } : undefined;
  return layout(
    'Test data',
    chrome,
    html`<h1>Test data</h1>
${notice(model.done ? { kind: 'success', text: 'All test data was deleted; test numbers start again at 00001.' } : null)}
<p>Keys that start with <code>inv_test_</code> work on a sandbox of your company that shares nothing with live data: its own
organizations, invoices (numbered <code>TEST-YYYY-NNNNN</code>), credit notes, payments, events and webhook endpoints.</p>
<p>Deleting test data removes every test organization, invoice, credit note, payment and event, and starts the test
numbers again. Live data is not touched. Test keys and test webhook endpoints stay.</p>
${
  privileged
    ? html`${formErrorSummary(errors)}<form method="post" action="${PANEL_PATH}/test-data/reset" novalidate>
  ${csrfField(chrome.csrf)}
  ${field({ name: 'confirm', label: 'Type DELETE to confirm', errors, required: true, autocomplete: 'off', maxlength: 20 })}
  <button type="submit" class="contrast">Delete all test data</button>
</form>`
    : html`<p><em>Owners and admins can delete test data.</em></p>`
}`,
  );
}
