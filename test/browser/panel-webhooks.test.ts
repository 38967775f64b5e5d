import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FirstRunSetup, setupPath } from '../../src/panel/setup.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { BROWSER_MISSING, launchChromium } from '../helpers/browser.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

// The Webhooks page in Chromium: add an endpoint, see its secret once, watch a delivery reach a
// loopback receiver (WEBHOOK_ALLOW_PRIVATE_URLS) and resend it.

const ARTIFACTS = 'test-artifacts';
const PASSWORD = 'correct horse battery';

describe.skipIf(BROWSER_MISSING)('the Webhooks page in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let receiver: Receiver;
  let secret = '';

  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}/panel-${name}.png`, fullPage: true });
  const heading = () => page.getByRole('heading', { level: 1 }).textContent();

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await buildTestApp('sqlite', { webhookAllowPrivateUrls: true });
    receiver = await startReceiver();
    origin = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();

    const token = await new FirstRunSetup(t.storage.db, t.container.repositories).issueToken();
    await page.goto(`${origin}${setupPath(token!)}`);
    await page.getByLabel('Company name').fill('Hooked Trading GmbH');
    await page.getByLabel('Email').fill('owner@hooked.example');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create company and owner' }).click();
    await page.waitForURL('**/panel/keys?done=welcome');
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  it('adds an endpoint from the Webhooks page and shows its secret once', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    expect(await heading()).toBe('Webhooks');
    // With one more section, the sections, the company and the account still fit one row at 1200px.
    const brand = (await page.locator('.panel-header .brand').boundingBox())!;
    const signOut = (await page.getByRole('button', { name: 'Sign out' }).boundingBox())!;
    expect(Math.abs(signOut.y + signOut.height / 2 - (brand.y + brand.height / 2))).toBeLessThan(12);
    expect(await page.getByRole('checkbox', { name: /All events/ }).isChecked()).toBe(true);
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Description').fill('ERP (staging)');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.waitForURL('**/panel/webhooks/*/secret');
    secret = (await page.locator('#new-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(page.url()).not.toContain(secret);
    expect(await page.getByRole('alert').textContent()).toContain('It will not be shown again.');
    await shot('webhook-secret');

    await page.reload();
    expect(await heading()).toBe('The secret is no longer shown');
    expect(await page.locator('#new-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
  });

  it('lists the endpoint, shows a delivery with HTTP 200 and resends it', async () => {
    await page.getByRole('link', { name: 'Back to webhooks' }).click();
    const row = page.locator('tr', { hasText: 'ERP (staging)' });
    expect(await row.locator('.badge').textContent()).toBe('Enabled');
    await shot('webhooks');

    const companyId = (await t.storage.db.selectFrom('users').select('company_id').executeTakeFirstOrThrow())
      .company_id;
    const { key } = await t.createKey(companyId, ['organization.create']);
    expect((await t.post('/organization', { name: 'Browser Buyer', isCustomer: true }, key)).statusCode).toBe(201);
    await receiver.waitFor((got) => got.length === 1);

    await row.getByRole('link', { name: receiver.url }).click();
    expect(await heading()).toBe(receiver.url);
    const attempts = page.locator('table.attempts tbody tr');
    await expect
      .poll(async () => {
        await page.reload();
        return attempts.count();
      })
      .toBe(1);
    expect(await attempts.first().textContent()).toContain('HTTP 200');
    expect(await page.content()).not.toContain(secret);
    await shot('webhook-endpoint');

    await page
      .locator('.delivery-event')
      .first()
      .getByRole('button', { name: /Resend/ })
      .click();
    await page.waitForURL('**/panel/webhooks/*?done=resent');
    await receiver.waitFor((got) => got.length === 2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
  });
});
