import { html, type SafeHtml } from '../html.js';
import type { PanelUser } from '../users.js';
import { DOCS_PATH } from '../../http/api-version.js';

export const PANEL_PATH = '/panel';

export interface Chrome {
  /** Absent on pages seen before sign-in. */
  user?: PanelUser;
  companyName?: string;
  csrf: string;
  active?:
    | 'keys'
    | 'users'
    | 'company'
    | 'organizations'
    | 'invoices'
    | 'quotes'
    | 'recurring'
    | 'credit-notes'
    | 'purchase-invoices'
    | 'webhooks'
    | 'account';
  /** Which world the data pages show: live (default) or the test sandbox. */
  livemode?: boolean;
  /** The page's own path, to come back to after switching worlds. */
  path?: string;
}

export type Notice = { kind: 'success' | 'error' | 'info'; text: string };

// The sections, the docs link, the switch and the account fit one row on a 1200 px laptop (a browser
// test checks): the purchase-invoice inbox is named "Inbox" there, its page says the rest. Nine
// sections fill that row, so what comes before and after an invoice (quotes, recurring invoices)
// shares one "Sales" menu: a <details> that opens without JavaScript.
type NavItem = { id: Exclude<NonNullable<Chrome['active']>, 'account'>; href: string; label: string; title?: string };
const SALES: NavItem[] = [
  { id: 'quotes', href: `${PANEL_PATH}/quotes`, label: 'Quotes' },
  {
    id: 'recurring',
    href: `${PANEL_PATH}/recurring`,
    label: 'Recurring',
    title: 'Recurring invoices: templates the scheduler invoices on their dates',
  },
];
const NAV: (NavItem | { menu: 'Sales'; items: NavItem[] })[] = [
  { id: 'keys', href: `${PANEL_PATH}/keys`, label: 'API keys' },
  { id: 'webhooks', href: `${PANEL_PATH}/webhooks`, label: 'Webhooks' },
  { id: 'users', href: `${PANEL_PATH}/users`, label: 'Users' },
  { id: 'company', href: `${PANEL_PATH}/company`, label: 'Company' },
  { id: 'organizations', href: `${PANEL_PATH}/organizations`, label: 'Organizations' },
  { id: 'invoices', href: `${PANEL_PATH}/invoices`, label: 'Invoices' },
  { id: 'credit-notes', href: `${PANEL_PATH}/credit-notes`, label: 'Credit notes' },
  { menu: 'Sales', items: SALES },
  {
    id: 'purchase-invoices',
    href: `${PANEL_PATH}/purchase-invoices`,
    label: 'Inbox',
    title: 'Purchase invoices: the e-invoices your suppliers sent',
  },
];

export function notice(n: Notice | undefined | null): SafeHtml {
  if (!n) return html``;
  return html`<p class="notice notice-${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}">${n.text}</p>`;
}

/**
 * The live/test switch says which world is shown ("Live data", or "Test data" lit up); what
 * pressing it does is part of its name for screen readers, and its tooltip.
 */
function modeSwitch(chrome: Chrome): SafeHtml {
  const test = chrome.livemode === false;
  const shown = test ? 'Test data' : 'Live data';
  const action = test ? 'switch to live data' : 'switch to test data';
  return html`<form method="post" action="${PANEL_PATH}/mode" class="inline mode-switch">
        <input type="hidden" name="_csrf" value="${chrome.csrf}">
        <input type="hidden" name="return" value="${chrome.path ?? PANEL_PATH}">
        <input type="hidden" name="mode" value="${test ? 'live' : 'test'}">
        <button type="submit" class="${test ? 'test-on' : 'secondary outline'} small" data-mode="${test ? 'test' : 'live'}" title="Showing ${shown.toLowerCase()}: ${action}"><span class="mode-dot" aria-hidden="true"></span>${shown}<span class="visually-hidden"> is shown: ${action}</span></button>
      </form>`;
}

function navLink(item: NavItem, chrome: Chrome): SafeHtml {
  return html`<a href="${item.href}"${item.title ? html` title="${item.title}"` : ''}${item.id === chrome.active ? html` aria-current="page"` : ''}>${item.label}</a>`;
}

function header(chrome: Chrome): SafeHtml {
  const user = chrome.user;
  return html`<header class="container panel-header">
  <nav aria-label="Main">
    <ul><li><a class="brand" href="${PANEL_PATH}">Invoicing</a>${chrome.companyName ? html`<span class="company" title="${chrome.companyName}">${chrome.companyName}</span>` : ''}</li></ul>
    ${
      user
        ? html`<ul>
      ${NAV.map((item) =>
        'menu' in item
          ? html`<li><details class="dropdown nav-menu"><summary${item.items.some((i) => i.id === chrome.active) ? html` class="current"` : ''}>${item.menu}</summary><ul>${item.items.map((i) => html`<li>${navLink(i, chrome)}</li>`)}</ul></details></li>`
          : html`<li>${navLink(item, chrome)}</li>`,
      )}
      <li><a href="${DOCS_PATH}" title="The API reference: every operation, its permission and its answers">API docs</a></li>
    </ul>
    <ul>
      <li>${modeSwitch(chrome)}</li>
      <li class="whoami"><a href="${PANEL_PATH}/account"${chrome.active === 'account' ? html` aria-current="page"` : ''} title="Your account and password">${user.email}</a> <span class="role role-${user.role}">${user.role}</span></li>
      <li><form method="post" action="${PANEL_PATH}/sign-out" class="inline">
        <input type="hidden" name="_csrf" value="${chrome.csrf}">
        <button type="submit" class="secondary outline small">Sign out</button>
      </form></li>
    </ul>`
        : ''
    }
  </nav>
</header>`;
}

export function layout(title: string, chrome: Chrome, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title} · Invoicing panel</title>
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="icon" href="${PANEL_PATH}/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${PANEL_PATH}/assets/pico.min.css">
<link rel="stylesheet" href="${PANEL_PATH}/assets/panel.css">
<script src="${PANEL_PATH}/assets/panel.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
${header(chrome)}
${
  chrome.user && chrome.livemode === false
    ? html`<div class="container test-banner" role="status"><strong>Test data.</strong> You are looking at your company's test sandbox: what <code>inv_test_</code> keys created. Nothing here is a real invoice or counts in your books. <a href="${PANEL_PATH}/test-data">Delete all test data</a></div>`
    : ''
}
<main class="container" id="main" tabindex="-1">
${body}
</main>
<footer class="container panel-footer"><small>Invoicing API · web panel · all times are UTC</small></footer>
</body>
</html>`.value;
}
