import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { BROWSER_MISSING, launchChromium } from '../helpers/browser.js';
import { pageProblems } from '../helpers/page-checks.js';
import { supplierDocument } from '../helpers/purchase-documents.js';
import { claimInstance, PASSWORD } from '../helpers/panel-client.js';

// The purchase-invoice inbox in Chromium at a phone's width (390 px) and a laptop's (1280 px):
// a document uploaded with the file picker (and one dropped onto the form) is received and shown
// readably, an invalid one names its failed rule, Approve approves, the original downloads byte
// for byte, and every page passes axe-core and never scrolls sideways.

const ARTIFACTS = 'test-artifacts';
const WIDTHS = [390, 1280] as const;
const OWNER = 'owner@example.com';

describe.skipIf(BROWSER_MISSING)('the purchase-invoice inbox in Chromium at 390 and 1280 px', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let dir: string;
  const pages: Partial<Record<(typeof WIDTHS)[number], Page>> = {};

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'inbox-'));
    t = await buildTestApp('sqlite');
    origin = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    browser = await launchChromium();
    await claimInstance(t.app, OWNER);
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
      const page = await context.newPage();
      await page.goto(`${origin}/panel/sign-in`);
      await page.getByLabel('Email').fill(OWNER);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/panel/keys');
      pages[width] = page;
    }
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const width of WIDTHS) {
    it(`uploads with the file picker, shows the document readably and approves it, at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/purchase-invoices`);
      expect(await pageProblems(page, 'inbox')).toEqual([]);

      const file = join(dir, `R-${width}.xml`);
      writeFileSync(file, supplierDocument({ number: `R-${width}`, price: '100' }));
      await page.getByLabel('E-invoice file').setInputFiles(file);
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.waitForURL(/\/panel\/purchase-invoices\/pin_[^/?]+\?done=received$/);
      expect(await page.getByRole('status').filter({ hasText: 'Received and stored.' }).count()).toBe(1);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Purchase invoice R-${width}`);
      expect(await page.getByRole('heading', { name: /^Verdict/ }).textContent()).toBe('Verdict Valid');
      expect(await page.locator('.totals').textContent()).toContain('119.00 EUR');
      expect(await pageProblems(page, 'purchase invoice')).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/panel-purchase-invoice-${width}.png`, fullPage: true });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: /^Original as received/ }).click(),
      ]);
      expect(readFileSync((await download.path())!).equals(readFileSync(file))).toBe(true);

      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\?done=approved$/);
      expect(await page.locator('hgroup .badge-pi-approved').textContent()).toBe('Approved');
      expect(await pageProblems(page, 'approved purchase invoice')).toEqual([]);
    });

    it(`names the failed rule of an invalid document, and receives a file dropped onto the form, at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/purchase-invoices`);
      const wrong = supplierDocument({ number: `W-${width}`, price: '100' }).replace(
        /<cbc:PayableAmount currencyID="EUR">119.00</,
        '<cbc:PayableAmount currencyID="EUR">191.00<',
      );
      // A drop as the browser makes it: a DataTransfer holding the file, on the form.
      const drop = await page.evaluateHandle((text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'wrong.xml', { type: 'application/xml' }));
        return data;
      }, wrong);
      await page.locator('form[data-dropzone]').dispatchEvent('drop', { dataTransfer: drop });
      await page.waitForURL(/\?done=received$/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Purchase invoice W-${width}`);
      expect(await page.getByRole('heading', { name: /^Verdict/ }).textContent()).toBe('Verdict Invalid');
      expect(await page.getByRole('region', { name: 'Failed rules' }).getByRole('rowheader').allTextContents()).toEqual(
        ['BR-CO-16'],
      );
      expect(await pageProblems(page, 'invalid purchase invoice')).toEqual([]);

      await page.goto(`${origin}/panel/purchase-invoices`);
      expect(
        await page
          .getByRole('region', { name: 'Purchase invoices' })
          .getByRole('link', { name: `W-${width}` })
          .count(),
      ).toBe(1);
      expect(await pageProblems(page, 'inbox with documents')).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/panel-purchase-invoices-${width}.png`, fullPage: true });
    });
  }
});
