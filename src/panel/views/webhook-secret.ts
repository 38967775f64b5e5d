import type { WebhookEndpoint } from '../../schemas/webhook-endpoint.js';
import { html } from '../html.js';
import type { PanelUser } from '../users.js';
import { csrfField, time } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { endpointPath } from './webhooks.js';

// A signing secret is shown once: on the page right after the endpoint is added or its secret
// rotated. Rotation asks first, since the receiver has to learn the new secret.

export interface RevealedSecret {
  endpoint: WebhookEndpoint;
  secret: string;
  /** After a rotation: until when the previous secret keeps signing beside the new one. */
  previousSignsUntil: string | null;
}

export function secretPage(chrome: Chrome & { user: PanelUser }, revealed: RevealedSecret | null): string {
  const body = revealed
    ? html`<article class="reveal">
  <header><h1>${revealed.previousSignsUntil ? 'The new signing secret' : 'The signing secret of your new endpoint'}</h1></header>
  <p class="notice notice-warning" role="alert"><strong>Copy this secret now. It will not be shown again.</strong> Store it now with the receiver; if it is lost, rotate the secret to get a new one.</p>
  ${
    revealed.previousSignsUntil
      ? html`<p class="notice notice-info">The old secret keeps signing beside the new one for 24 hours (until ${time(revealed.previousSignsUntil)}): deliveries carry both signatures, so the receiver can switch without missing one.</p>`
      : ''
  }
  <p>Endpoint <code class="webhook-url">${revealed.endpoint.url}</code>:</p>
  <div class="secret-row">
    <code id="new-secret" class="secret">${revealed.secret}</code>
    <button type="button" class="secondary" data-copy-target="new-secret" data-copy-what="secret" autofocus>Copy secret</button>
  </div>
  <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
  <p>The receiver checks the <code>webhook-signature</code> header with it, as the Standard Webhooks libraries do.</p>
  <p><a href="${endpointPath(revealed.endpoint.id)}" role="button">I have stored it — back to the endpoint</a></p>
</article>`
    : html`<article class="narrow">
  <header><h1>The secret is no longer shown</h1></header>
  <p>A signing secret is shown once, right after the endpoint is added or its secret is rotated. If it was not stored, rotate the secret to get a new one.</p>
  <p><a href="${PANEL_PATH}/webhooks">Back to webhooks</a></p>
</article>`;
  return layout('Signing secret', { ...chrome, active: 'webhooks' }, body);
}

export function rotateConfirmPage(chrome: Chrome & { user: PanelUser }, endpoint: WebhookEndpoint): string {
  return layout(
    'Rotate signing secret',
    { ...chrome, active: 'webhooks' },
    html`<article class="narrow">
  <header><h1>Rotate the signing secret?</h1></header>
  <p class="webhook-url"><code>${endpoint.url}</code></p>
  <p>A new secret is made and shown once. The old one keeps signing beside it for 24 hours, so the receiver has a day to switch; after that only the new one signs.</p>
  <form method="post" action="${endpointPath(endpoint.id)}/rotate">
    ${csrfField(chrome.csrf)}
    <div class="actions">
      <button type="submit">Rotate secret</button>
      <a href="${endpointPath(endpoint.id)}" role="button" class="secondary outline">Cancel</a>
    </div>
  </form>
</article>`,
  );
}
