import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../src/http/api-version.js';
import { FirstRunSetup, setupPath } from '../../src/panel/setup.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { BROWSER_MISSING, launchChromium } from '../helpers/browser.js';

// The panel in a real browser: Debian's Chromium driven by playwright-core. Under CI=true a
// missing browser fails the run; elsewhere these tests are skipped with the reason printed.

const ARTIFACTS = 'test-artifacts';
const PASSWORD = 'correct horse battery';

describe.skipIf(BROWSER_MISSING)('the web panel in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let key = '';

  const shot = (name: string, target: Page = page) =>
    target.screenshot({ path: `${ARTIFACTS}/panel-${name}.png`, fullPage: true });
  const mainNav = () => page.getByRole('navigation', { name: 'Main' });
  const api = (path: string, init: RequestInit = {}) => fetch(`${origin}${BASE_PATH}${path}`, init);
  const createOrganization = (apiKey: string, name: string) =>
    api('/organization', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ name, isCustomer: true }),
    });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await buildTestApp('sqlite');
    origin = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('claims the instance through the one-time setup link', async () => {
    const token = await new FirstRunSetup(t.storage.db, t.container.repositories).issueToken();
    expect(token).not.toBeNull();
    await page.goto(`${origin}${setupPath(token!)}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Set up this instance');
    await page.getByLabel('Company name').fill('Acme Trading GmbH');
    await page.getByLabel('Email').fill('owner@acme.example');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await shot('setup');
    await page.getByRole('button', { name: 'Create company and owner' }).click();
    await page.waitForURL('**/panel/keys?done=welcome');
    expect(await page.getByRole('status').first().textContent()).toContain('Your company and owner account are ready');

    // The link is dead now.
    const again = await page.context().newPage();
    const response = await again.goto(`${origin}${setupPath(token!)}`);
    expect(response?.status()).toBe(404);
    expect(await again.getByRole('heading', { level: 1 }).textContent()).toBe('This setup link is not valid');
    await again.close();
  });

  it('signs out and signs back in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/panel/sign-in?done=signed-out');
    await page.getByLabel('Email').fill('owner@acme.example');
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.locator('#password-error').textContent()).toBe('The email or password is not right.');
    await shot('sign-in-error');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/panel/keys');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('API keys');
    await shot('keys-empty');
  });

  it('creates a key and shows it once; the key works on the API', async () => {
    await page.getByLabel('Name').fill('ERP sync (production)');
    await page.getByRole('checkbox', { name: /organization\.create/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL('**/panel/keys/new');
    key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^inv_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}$/);
    expect(page.url()).not.toContain(key);
    expect(await page.getByRole('alert').textContent()).toContain('It will not be shown again.');
    await shot('key-created');

    const created = await createOrganization(key, 'Created from the browser test');
    expect(created.status).toBe(201);
  });

  it('does not show the key again on reload', async () => {
    await page.reload();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('The key is no longer shown');
    expect(await page.locator('#new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
  });

  it('lists the key and its audit trail, then revokes it after a confirmation; the API refuses it', async () => {
    await page.goto(`${origin}/panel/keys`);
    const row = page.locator('tr', { hasText: 'ERP sync (production)' });
    // The status badge, not the live/test one beside it.
    const status = (r: typeof row) => r.locator('.badge:not([class*="badge-mode-"])');
    expect(await status(row).textContent()).toBe('active');
    expect(await page.locator('.activity').textContent()).toContain(
      'owner@acme.example created key ERP sync (production)',
    );
    await shot('keys');
    await row.getByRole('link', { name: /Revoke/ }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Revoke “ERP sync (production)”?');
    await shot('revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL('**/panel/keys?done=revoked');
    expect(await status(page.locator('tr', { hasText: 'ERP sync (production)' })).textContent()).toBe('revoked');

    const refused = await createOrganization(key, 'After revoke');
    expect(refused.status).toBe(401);
  });

  it('adds a member, who sees the key list but no create or revoke controls', async () => {
    await page.goto(`${origin}/panel/keys`);
    await page.getByLabel('Name').fill('Reporting (read side)');
    await page.getByRole('checkbox', { name: /^invoice\.create/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL('**/panel/keys/new');

    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Email').fill('member@acme.example');
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByLabel('Initial password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.waitForURL('**/panel/users?done=created');
    expect(await page.locator('tr', { hasText: 'member@acme.example' }).locator('.role').textContent()).toBe('member');
    await shot('users');

    const memberContext = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const member = await memberContext.newPage();
    await member.goto(`${origin}/panel`);
    await member.getByLabel('Email').fill('member@acme.example');
    await member.getByLabel('Password').fill(PASSWORD);
    await member.getByRole('button', { name: 'Sign in' }).click();
    // The owner chose this password: the member replaces it before anything else.
    await member.waitForURL('**/panel/change-password');
    await member.getByLabel('New password', { exact: true }).fill(`${PASSWORD} of my own`);
    await member.getByLabel('Repeat the new password').fill(`${PASSWORD} of my own`);
    await member.getByRole('button', { name: 'Save password and continue' }).click();
    await member.waitForURL('**/panel/keys?done=password-chosen');
    expect(await member.locator('tr', { hasText: 'Reporting (read side)' }).count()).toBe(1);
    expect(await member.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await member.getByRole('link', { name: /Revoke/ }).count()).toBe(0);
    await shot('keys-member', member);
    await memberContext.close();
  });

  it('changes the IBAN on the Company page and sees the change, marked, in the audit list', async () => {
    await mainNav().getByRole('link', { name: 'Company' }).click();
    await page.waitForURL('**/panel/company');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Company');
    await page.getByLabel('Legal name').fill('Acme Trading GmbH');
    await page.getByLabel('Street and number').fill('Friedrichstr. 100');
    await page.getByLabel('Postal code').fill('10117');
    await page.getByLabel('City').fill('Berlin');
    await page.getByLabel('Country').fill('DE');
    await page.getByLabel('Scheme').selectOption('9930');
    await page.getByLabel('Identifier').fill('DE123456789');
    await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.waitForURL('**/panel/company?done=saved');

    // A wrong checksum comes back next to the field with what was typed; nothing is saved.
    await page.getByLabel('IBAN').fill('DE02 1203 0000 0000 2020 52');
    await page.getByRole('button', { name: 'Save profile' }).click();
    expect(await page.locator('#iban-error').textContent()).toBe('Must be an IBAN with a valid checksum.');
    expect(await page.getByLabel('IBAN').inputValue()).toBe('DE02 1203 0000 0000 2020 52');
    await shot('company-error');

    await page.getByLabel('IBAN').fill('DE02 1203 0000 0000 2020 51');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.waitForURL('**/panel/company?done=saved');
    expect(await page.getByLabel('IBAN').inputValue()).toBe('DE02 1203 0000 0000 2020 51');
    const newest = page.locator('.profile-history tbody').first();
    expect(await newest.locator('td[rowspan]').nth(1).textContent()).toBe('owner@acme.example');
    const ibanRow = newest.locator('tr.iban-change');
    expect(await ibanRow.locator('.badge-alert').textContent()).toContain('bank account changed');
    expect(await ibanRow.locator('td.change-value').allTextContents()).toEqual([
      'DE89 3704 0044 0532 0130 00',
      'DE02 1203 0000 0000 2020 51',
    ]);
    expect(await page.locator('.profile-history tbody').count()).toBe(2);
    await shot('company');
  });

  it('shows what the API created on the organizations page', async () => {
    await page.getByRole('link', { name: 'Organizations' }).click();
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody').textContent()).toContain('Created from the browser test');
    await shot('organizations');
    await page.getByRole('searchbox').fill('nothing like it');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await page.locator('.empty-state').textContent()).toContain('No organizations match');
  });

  it('opens an invoice the API created to its lines and totals', async () => {
    const { key: invoiceKey } = await t.createKey(
      (await t.storage.db.selectFrom('users').select('company_id').executeTakeFirstOrThrow()).company_id,
      ['organization.create', 'invoice.create'],
    );
    const org = (await (await createOrganization(invoiceKey, 'Invoice Buyer AG')).json()) as { data: { id: string } };
    const invoice = await api('/invoice', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': invoiceKey },
      body: JSON.stringify({
        organizationId: org.data.id,
        lines: [
          { name: 'Consulting', quantity: '2', unitPrice: '100.00', vatRate: '19' },
          { name: 'Travel', quantity: '1', unitPrice: '50', vatRate: '7' },
        ],
      }),
    });
    expect(invoice.status).toBe(201);
    await page.getByRole('link', { name: 'Invoices', exact: true }).click();
    await shot('invoices');
    await page.locator('tbody tr a').first().click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^Invoice /);
    expect(await page.locator('.totals').textContent()).toContain('291.50 EUR');
    await shot('invoice');
  });

  it('follows an invoice with a payment and a credit note to the credit note and back, then opens its buyer from the organizations list', async () => {
    const companyId = (await t.storage.db.selectFrom('users').select('company_id').executeTakeFirstOrThrow())
      .company_id;
    const { key: settleKey } = await t.createKey(companyId, [
      'organization.create',
      'invoice.create',
      'invoice.update',
      'payment.create',
      'credit-note.create',
    ]);
    const post = async (path: string, body: unknown, status = 201) => {
      const res = await api(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': settleKey },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(status);
      return ((await res.json()) as { data: { id: string; number: string } }).data;
    };
    const org = await post('/organization', {
      name: 'Settling Buyer GmbH',
      isCustomer: true,
      email: 'ap@settling.example',
      vatId: 'DE811111111',
      address: { line1: 'Marktplatz 3', postalCode: '80331', city: 'München', countryCode: 'DE' },
    });
    const invoice = await post('/invoice', {
      organizationId: org.id,
      lines: [
        { name: 'Consulting', quantity: '2', unitPrice: '100.00', vatRate: '19' },
        { name: 'Travel', quantity: '1', unitPrice: '50', vatRate: '7' },
      ],
    });
    await post(`/invoice/${invoice.id}/payment`, {
      amount: '100.00',
      method: 'credit_transfer',
      reference: 'Bank 4711',
      date: '2026-05-04',
    });
    const note = await post('/credit-note', {
      invoiceId: invoice.id,
      reason: 'Travel was not needed',
      lines: [{ name: 'Travel', quantity: '1', unitPrice: '50', vatRate: '7' }],
    });

    await mainNav().getByRole('link', { name: 'Invoices', exact: true }).click();
    await page.getByRole('link', { name: invoice.number }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Invoice ${invoice.number}`);
    expect(await page.locator('.amount-due').textContent()).toContain('138.00 EUR'); // 291.50 − 53.50 − 100.00
    expect(await page.locator('table.payments tbody').textContent()).toContain('Bank 4711');
    await shot('invoice-settled');

    await page.locator('table.credit-notes').getByRole('link', { name: note.number }).click();
    await page.waitForURL(`**/panel/credit-notes/${note.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Credit note ${note.number}`);
    expect(await page.locator('.facts').textContent()).toContain('Travel was not needed');
    expect(await page.locator('.totals').textContent()).toContain('53.50 EUR');
    await shot('credit-note');

    await page.getByRole('link', { name: invoice.number }).click();
    await page.waitForURL(`**/panel/invoices/${invoice.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Invoice ${invoice.number}`);

    await mainNav().getByRole('link', { name: 'Organizations' }).click();
    await page.getByRole('link', { name: 'Settling Buyer GmbH' }).click();
    await page.waitForURL(`**/panel/organizations/${org.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Settling Buyer GmbH');
    expect(await page.locator('table.invoices tbody tr').count()).toBe(1);
    expect(await page.locator('table.invoices tbody').textContent()).toContain('138.00 EUR');
    await shot('organization');
    await page.locator('table.invoices').getByRole('link', { name: invoice.number }).click();
    await page.waitForURL(`**/panel/invoices/${invoice.id}`);

    // Every status in the list: a draft, a void and an overdue invoice beside the two issued ones.
    const lines = [{ name: 'Audit', quantity: '1', unitPrice: '80', vatRate: '19' }];
    await post('/invoice', { organizationId: org.id, status: 'draft', lines });
    await post(`/invoice/${(await post('/invoice', { organizationId: org.id, lines })).id}/void`, {}, 200);
    await post('/invoice', { organizationId: org.id, issueDate: '2020-01-01', dueDate: '2020-01-31', lines });
    await mainNav().getByRole('link', { name: 'Invoices', exact: true }).click();
    const badges = await page.locator('table.invoices .badge').allTextContents();
    expect([...badges].sort()).toEqual(['Draft', 'Issued', 'Issued', 'Issued', 'Overdue', 'Void']);
    await shot('invoices-lifecycle');
    await mainNav().getByRole('link', { name: 'Credit notes' }).click();
    expect(await page.locator('table.credit-notes tbody tr').count()).toBe(2);
    await shot('credit-notes');
  });
});
