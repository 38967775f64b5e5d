import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { BROWSER_MISSING, launchChromium } from '../helpers/browser.js';
import { pageProblems } from '../helpers/page-checks.js';

// The hosted page of an invoice in Chromium at a phone's width (390 px) and a laptop's (1280 px),
// (a page with no script at all, which its CSP would refuse anyway): it passes axe-core with no
// violation, never scrolls sideways, shows the balance and the GiroCode, and its download links
// work; its 404 page too. The hosted page of a quote likewise, and its accept form works in a
// browser with JavaScript turned off: the answer lands, and a late answer gets its 409 page.

const WIDTHS = [390, 1280] as const;

describe.skipIf(BROWSER_MISSING)('the hosted invoice and quote pages in Chromium at 390 and 1280 px', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let hostedPath: string;
  let quotePath: string;
  let quoteId: string;
  let key: string;

  beforeAll(async () => {
    t = await buildTestApp('sqlite', { publicBaseUrl: 'https://pay.example.com' });
    origin = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    browser = await launchChromium();
    ({ key } = await t.tenant());
    const send = (method: 'POST' | 'PATCH', path: string, payload: Record<string, unknown>) =>
      t.request({ method, url: `${BASE_PATH}${path}`, headers: { 'x-api-key': key }, payload });
    const profile = {
      legalName: 'Acme Trading GmbH',
      electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
      address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
      contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@acme.example' },
      bankAccount: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
    };
    expect((await send('PATCH', '/company', profile)).statusCode).toBe(200);
    const buyer = (
      await send('POST', '/organization', {
        name: 'Großhandel Süd-West Beteiligungs GmbH & Co. KG',
        isCustomer: true,
        vatId: 'DE811907980',
        address: { line1: 'Marktplatz 3', postalCode: '80331', city: 'München', countryCode: 'DE' },
        electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
      })
    ).json().data;
    const invoice = await send('POST', '/invoice', {
      organizationId: buyer.id,
      buyerReference: '04011000-12345-34',
      lines: [
        {
          name: 'Consulting',
          description: 'Architecture review, May',
          quantity: '12',
          unitCode: 'HUR',
          unitPrice: '120',
          vatRate: '19',
        },
        { name: 'Travel expenses (flat rate, Munich and back)', quantity: '1', unitPrice: '250', vatRate: '19' },
      ],
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const { id, hostedUrl } = invoice.json().data as { id: string; hostedUrl: string };
    expect((await send('POST', `/invoice/${id}/payment`, { amount: '500' })).statusCode).toBe(201);
    hostedPath = hostedUrl.slice('https://pay.example.com'.length);
    const quote = await send('POST', '/quote', {
      organizationId: buyer.id,
      validUntil: '2099-12-31',
      lines: [
        {
          name: 'Workshop',
          description: 'Two days on site, Munich',
          quantity: '2',
          unitCode: 'DAY',
          unitPrice: '1400',
          vatRate: '19',
        },
      ],
    });
    expect(quote.statusCode, quote.body).toBe(201);
    quoteId = quote.json().data.id;
    quotePath = (quote.json().data.hostedUrl as string).slice('https://pay.example.com'.length);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('passes axe and fits the window at both widths, with no script, and its downloads work', async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const cspErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') cspErrors.push(message.text());
      });
      const res = await page.goto(`${origin}${hostedPath}`);
      expect(res?.status()).toBe(200);
      expect(await page.locator('.balance').textContent()).toContain('Offener Betrag');
      expect(await page.locator('svg[role="img"]').count(), 'the GiroCode').toBe(1);
      expect(await page.locator('h1').textContent()).toMatch(/^Rechnung /);
      // The style sheet applies under the CSP: the status badge has its own background.
      const background = await page.locator('.status').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(background).not.toBe('rgba(0, 0, 0, 0)');
      problems.push(...(await pageProblems(page, `hosted page at ${width} px`)));
      expect(cspErrors, 'nothing refused by the CSP').toEqual([]);
      const pdf = await page.request.get(`${origin}${hostedPath}/pdf`);
      expect(pdf.status()).toBe(200);
      expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

      await page.goto(`${origin}/hosted/${'x'.repeat(43)}`);
      problems.push(...(await pageProblems(page, `404 page at ${width} px`)));
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  it('shows a quote page that passes axe at both widths, and accepts it by its form with JavaScript off', async () => {
    const problems: string[] = [];
    const pages: Page[] = [];
    // axe runs as a script in the page, so these contexts allow script (the page has none of its own).
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const res = await page.goto(`${origin}${quotePath}`);
      expect(res?.status()).toBe(200);
      expect(await page.locator('h1').textContent()).toMatch(/^Angebot Q-/);
      expect(await page.locator('.status').textContent()).toBe('Offen');
      expect(await page.locator('svg').count(), 'no GiroCode on a quote').toBe(0);
      expect(await page.locator('form button').allTextContents()).toEqual(['Angebot annehmen', 'Angebot ablehnen']);
      problems.push(...(await pageProblems(page, `quote page at ${width} px`)));
      pages.push(page);
    }
    const [phone, laptop] = pages as [Page, Page];

    // A browser with JavaScript off accepts: the form posts, the answer is recorded, the page says so.
    const noScript = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(`${origin}${quotePath}`);
    await Promise.all([
      plain.waitForURL(`${origin}${quotePath}`, { waitUntil: 'load' }),
      plain.getByRole('button', { name: 'Angebot annehmen' }).click(),
    ]);
    expect(await plain.locator('.status').textContent()).toBe('Angenommen');
    expect(await plain.locator('.outcome').textContent()).toMatch(/^Dieses Angebot wurde am .+ angenommen\.$/);
    expect(await plain.locator('form').count()).toBe(0);
    await noScript.close();
    const read = await t.request({
      method: 'GET',
      url: `${BASE_PATH}/quote/${quoteId}`,
      headers: { 'x-api-key': key },
    });
    expect(read.json().data.status).toBe('accepted');
    await laptop.reload();
    problems.push(...(await pageProblems(laptop, 'accepted quote page at 1280 px')));

    // The phone still shows the open quote; its late decline gets the 409 page, which passes axe too.
    const [late] = await Promise.all([
      phone.waitForResponse((response) => response.url().endsWith('/decline')),
      phone.getByRole('button', { name: 'Angebot ablehnen' }).click(),
    ]);
    expect(late.status()).toBe(409);
    await phone.waitForLoadState();
    expect(await phone.locator('h1').textContent()).toBe('Ihre Antwort wurde nicht gespeichert');
    problems.push(...(await pageProblems(phone, 'late answer page at 390 px')));
    await Promise.all([
      phone.waitForURL(`${origin}${quotePath}`),
      phone.getByRole('link', { name: 'Zurück zum Angebot' }).click(),
    ]);
    expect(await phone.locator('.status').textContent()).toBe('Angenommen');
    for (const page of pages) await page.context().close();
    expect(problems).toEqual([]);
  });
});
