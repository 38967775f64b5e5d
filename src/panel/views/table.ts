import { html, type SafeHtml } from '../html.js';

// Every wide table sits in a region that scrolls sideways on its own, so the page never does.
// The region is focusable and named: keyboard users scroll it with the arrow keys, and screen
// readers announce what it holds (axe's scrollable-region-focusable).

export function scrollTable(label: string, table: SafeHtml): SafeHtml {
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="${label}">${table}</div>`;
}
