import { html } from '../html.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';

export function errorPage(status: number, title: string, explanation: string, chrome: Chrome, requestId: string): string {
  return layout(
    title,
    chrome,
    html`<article class="narrow">
  <header><h1>${title}</h1></header>
  <p>${explanation}</p>
  <p><a href="${PANEL_PATH}">Back to the panel</a></p>
  <footer><small class="muted">Error ${status} · request id <code>${requestId}</code></small></footer>
</article>`,
  );
}
