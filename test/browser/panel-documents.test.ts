import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { BROWSER_MISSING, launchChromium } from '../helpers/browser.js';
import { pageProblems } from '../helpers/page-checks.js';
import { claimInstance, PASSWORD } from '../helpers/panel-client.js';

// The pages issue 25 changed, in Chromium at a phone's width (390 px) and a laptop's (1280 px),
// each passing axe-core with no violation and never scrolling sideways: the invoice and credit
// note with their downloads (a click downloads the very file the API answers), the refusal of an
// incomplete e-invoice, units by name, the Company page's first IBAN, the live/test switch that
// says which world is shown, the favicon and the link to the API docs. One browser for the
// file, one signed-in page per width.

const ARTIFACTS = 'test-artifacts';
const WIDTHS = [390, 1280] as const;
const OWNER = 'owner@example.com';

type Json = Record<string, unknown>;

describe.skipIf(BROWSER_MISSING)('documents and details of the panel in Chromium at 390 and 1280 px', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let key: string;
  const pages: Partial<Record<(typeof WIDTHS)[number], Page>> = {};
  const ids: Record<string, string> = {};

  const post = async (path: string, body: Json) => {
    const res = await t.post(path, body, key);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; number: string };
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await buildTestApp('sqlite');
    origin = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    browser = await launchChromium();
    const { companyId } = await claimInstance(t.app, OWNER);
    ({ key } = await t.createKey(companyId, [
      'company.update',
      'organization.create',
      'invoice.create',
      'invoice.read',
      'payment.create',
      'credit-note.create',
      'credit-note.read',
    ]));
    const profile = {
      legalName: 'Acme Trading GmbH',
      vatId: 'DE123456789',
      electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
      address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
      contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@acme.example' },
      bankAccount: { iban: 'DE89 3704 0044 0532 0130 00' },
    };
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: `${BASE_PATH}/company`,
          headers: { 'x-api-key': key },
          payload: profile,
        })
      ).statusCode,
    ).toBe(200);
    const buyer = await post('/organization', {
      name: 'Großhandel Süd-West Beteiligungs GmbH & Co. KG',
      isCustomer: true,
      vatId: 'DE811907980',
      address: { line1: 'Marktplatz 3', postalCode: '80331', city: 'München', countryCode: 'DE' },
      electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
    });
    const lines = [
      {
        name: 'Consulting',
        description: 'Architecture review, May',
        quantity: '12',
        unitCode: 'HUR',
        unitPrice: '142.13',
        vatRate: '19',
      },
      { name: 'Handbook', quantity: '10', unitCode: 'C62', unitPrice: '5.5', vatRate: '7' },
    ];
    ids.invoice = (
      await post('/invoice', {
        organizationId: buyer.id,
        issueDate: '2026-05-01',
        buyerReference: '04011000-12345-34',
        lines,
      })
    ).id;
    ids.noReference = (await post('/invoice', { organizationId: buyer.id, issueDate: '2026-05-02', lines })).id;
    await post(`/invoice/${ids.invoice}/payment`, { amount: '100.00', method: 'credit_transfer', date: '2026-05-04' });
    ids.creditNote = (
      await post('/credit-note', {
        invoiceId: ids.invoice,
        reason: 'Two hours were not needed',
        lines: [{ ...lines[0], quantity: '2' }],
      })
    ).id;

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
  });

  /** Clicks a link that answers a file; returns its name and bytes. */
  async function download(page: Page, link: ReturnType<Page['getByRole']>): Promise<{ name: string; bytes: Buffer }> {
    const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
    return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
  }

  /** The text a sighted user reads on the element: without what is there for screen readers only. */
  const visibleText = (locator: ReturnType<Page['getByRole']>) =>
    locator.evaluate((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('.visually-hidden').forEach((hidden) => hidden.remove());
      return (copy.textContent ?? '').trim();
    });

  for (const width of WIDTHS) {
    it(`offers an invoice's documents, downloads the API's very PDF on a click, and names units as the PDF does, at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/invoices/${ids.invoice}`);
      expect(await pageProblems(page, 'invoice')).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/panel-documents-invoice-${width}.png`, fullPage: true });

      const documents = page.getByRole('region', { name: 'Documents' });
      for (const name of [
        'PDF as issued, English',
        'PDF as issued, Deutsch',
        'PDF as issued, Français',
        'Status copy, English',
        'UBL · Peppol BIS 3.0',
        'UBL · XRechnung 3.0',
        'CII · EN 16931 (Factur-X)',
        'CII · XRechnung 3.0',
      ]) {
        expect(await documents.getByRole('link', { name, exact: true }).count(), name).toBe(1);
      }
      const pdf = await download(page, documents.getByRole('link', { name: 'PDF as issued, Deutsch' }));
      const api = await t.get(`/invoice/${ids.invoice}/pdf?lang=de`, key);
      expect(pdf.name).toMatch(/^invoice-2026-\d{5}\.pdf$/);
      expect(pdf.bytes.equals(api.rawPayload)).toBe(true);
      // The page stays where it was: a download is not a navigation.
      expect(page.url()).toBe(`${origin}/panel/invoices/${ids.invoice}`);
      const xml = await download(page, documents.getByRole('link', { name: 'CII · XRechnung 3.0' }));
      expect(xml.name).toMatch(/-cii-xrechnung\.xml$/);
      expect(xml.bytes.equals((await t.get(`/invoice/${ids.invoice}/cii?profile=xrechnung`, key)).rawPayload)).toBe(
        true,
      );

      // "12 h" and "10 pc" as on the PDF; the code and its name on hover.
      const hours = page.locator('abbr[data-unit="HUR"]');
      expect(await hours.textContent()).toBe('h');
      expect(await hours.getAttribute('title')).toBe('hour (code HUR)');
      expect(await page.locator('abbr[data-unit="C62"]').textContent()).toBe('pc');
      expect(await page.locator('.code-legend').textContent()).toContain('h: hour (HUR) · pc: one (C62)');
    });

    it(`offers a credit note's documents and its status copy at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/credit-notes/${ids.creditNote}`);
      expect(await pageProblems(page, 'credit note')).toEqual([]);
      const copy = await download(
        page,
        page.getByRole('region', { name: 'Documents' }).getByRole('link', { name: 'Status copy, Français' }),
      );
      expect(copy.name).toMatch(/^credit-note-.*-status\.pdf$/);
      expect(copy.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    });

    it(`names what an incomplete e-invoice lacks, and answers its link with a page, not a file, at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/invoices/${ids.noReference}`);
      const gaps = page.locator('.einvoice-gaps');
      expect(await gaps.count()).toBe(3); // Peppol and both XRechnung; EN 16931 exports
      expect(await gaps.first().textContent()).toBe('incomplete: lacks buyerReference');
      expect(await pageProblems(page, 'incomplete invoice')).toEqual([]);
      await page.getByRole('link', { name: 'UBL · XRechnung 3.0' }).click();
      await page.waitForURL('**/ubl?profile=xrechnung');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
        'This invoice cannot be a UBL XRechnung 3.0 e-invoice',
      );
      expect(await page.locator('.einvoice-gaps li').first().textContent()).toContain('buyerReference');
      expect(await pageProblems(page, 'incomplete e-invoice page')).toEqual([]);
      await page.getByRole('link', { name: 'Back to the invoice' }).click();
      await page.waitForURL(`**/panel/invoices/${ids.noReference}`);
    });

    it(`flags no bank-account change for the first IBAN on the Company page at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/company`);
      const history = page.locator('.profile-history');
      expect(await history.locator('th[scope=row]').filter({ hasText: 'IBAN' }).count()).toBe(1);
      expect(await history.locator('.badge-alert').count()).toBe(0);
      expect(await history.locator('tr.iban-change').count()).toBe(0);
      expect(await pageProblems(page, 'company')).toEqual([]);
    });

    it(`says which world the switch shows, links the API docs and carries the favicon at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/invoices`);
      const live = page.getByRole('button', { name: 'Live data is shown: switch to test data', exact: true });
      expect(await visibleText(live)).toBe('Live data');
      expect(await page.locator('.test-banner').count()).toBe(0);
      await live.click();
      await page.waitForURL('**/panel/invoices');
      const test = page.getByRole('button', { name: 'Test data is shown: switch to live data', exact: true });
      expect(await visibleText(test)).toBe('Test data');
      expect(await page.locator('.test-banner').count()).toBe(1);
      expect(await pageProblems(page, 'test data')).toEqual([]);
      await test.click();
      await page.waitForURL('**/panel/invoices');
      expect(
        await page.getByRole('button', { name: 'Live data is shown: switch to test data', exact: true }).count(),
      ).toBe(1);
      expect(await pageProblems(page, 'live data')).toEqual([]);

      // Both icons the page links are images a browser can draw.
      const icons = await page.evaluate(async () =>
        Promise.all(
          Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel=icon]')).map(
            (link) =>
              new Promise<string>((done) => {
                const image = new Image();
                image.onload = () => done(`${new URL(link.href).pathname} ${image.naturalWidth}`);
                image.onerror = () => done(`${new URL(link.href).pathname} failed`);
                image.src = link.href;
              }),
          ),
        ),
      );
      expect(icons.sort()).toEqual(['/favicon.ico 32', '/panel/assets/favicon.svg 32']);

      const docs = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API docs' });
      expect(await docs.isVisible()).toBe(true);
      if (width === 1280) {
        // The sections, the docs link, the switch and the account still fit one row on a laptop.
        const brand = (await page.locator('.panel-header .brand').boundingBox())!;
        const signOut = (await page.getByRole('button', { name: 'Sign out' }).boundingBox())!;
        expect(Math.abs(signOut.y + signOut.height / 2 - (brand.y + brand.height / 2))).toBeLessThan(12);
        await docs.click();
        await page.waitForURL('**/docs');
        expect(await page.title()).toBe('Invoicing API');
      }
    });
  }

  it('flags the IBAN when it replaces another one', async () => {
    const page = pages[1280]!;
    await page.goto(`${origin}/panel/company`);
    await page.getByLabel('IBAN').fill('DE02 1203 0000 0000 2020 51');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.waitForURL('**/panel/company?done=saved');
    const flagged = page.locator('.profile-history tr.iban-change');
    expect(await flagged.count()).toBe(1);
    expect(await flagged.locator('.badge-alert').textContent()).toContain('bank account changed');
    expect(await pageProblems(page, 'company after a change')).toEqual([]);
  });
});
