import type { ErrorDetail } from '../../errors/app-error.js';
import { html } from '../html.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';

/** An error page: what happened, the service's own details (field and message) when it gave any. */
export function errorPage(
  status: number,
  title: string,
  explanation: string,
  chrome: Chrome,
  requestId: string,
  details: readonly ErrorDetail[] = [],
): string {
  return layout(
    title,
    chrome,
    html`<article class="narrow">
  <header><h1>${title}</h1></header>
  <p>${explanation}</p>
  ${details.length > 0 ? html`<ul class="error-details">${details.map((d) => html`<li><strong><code>${d.field}</code></strong>: ${d.message}</li>`)}</ul>` : ''}
  <p><a href="${PANEL_PATH}">Back to the panel</a></p>
  <footer><small class="muted">Error ${status} · request id <code>${requestId}</code></small></footer>
</article>`,
  );
}
