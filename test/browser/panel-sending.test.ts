import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { BROWSER_MISSING, launchChromium } from '../helpers/browser.js';
import { pageProblems } from '../helpers/page-checks.js';
import { claimInstance, PASSWORD } from '../helpers/panel-client.js';
import {
  makeTestCertificate,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../helpers/smtp-server.js';

// The pages of sending by email, in Chromium at a phone's width (390 px) and a laptop's (1280 px),
// each passing axe-core with no violation and never scrolling sideways: an invoice's page whose
// Send form reaches a real SMTP server and then lists the message, a credit note's page with its
// form, and the company's email templates with one template's form and preview. One browser for
// the file, one signed-in page per width.

const ARTIFACTS = 'test-artifacts';
const WIDTHS = [390, 1280] as const;
const OWNER = 'owner@example.com';

type Json = Record<string, unknown>;

describe.skipIf(BROWSER_MISSING)('sending by email in the panel in Chromium at 390 and 1280 px', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let certificate: TestCertificate;
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
    certificate = makeTestCertificate();
    smtp = await startSmtpServer(certificate);
    const email = loadConfig({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_FROM: 'invoices@sender.example',
      SMTP_TLS_CA_FILE: certificate.certFile,
    }).email!;
    t = await buildTestApp('sqlite', { email });
    origin = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    browser = await launchChromium();
    const { companyId } = await claimInstance(t.app, OWNER);
    ({ key } = await t.createKey(companyId, [
      'company.update',
      'organization.create',
      'invoice.create',
      'invoice.read',
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
    const patched = await t.request({
      method: 'PATCH',
      url: `${BASE_PATH}/company`,
      headers: { 'x-api-key': key },
      payload: profile,
    });
    expect(patched.statusCode).toBe(200);
    const buyer = await post('/organization', {
      name: 'Großhandel Süd-West Beteiligungs GmbH & Co. KG',
      isCustomer: true,
      email: 'accounts-payable.department@grosshandel-sued-west.example',
      vatId: 'DE811907980',
      address: { line1: 'Marktplatz 3', postalCode: '80331', city: 'München', countryCode: 'DE' },
      electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
    });
    const lines = [{ name: 'Consulting', quantity: '12', unitCode: 'HUR', unitPrice: '142.13', vatRate: '19' }];
    ids.invoice = (await post('/invoice', { organizationId: buyer.id, buyerReference: '04011000-12345-34', lines })).id;
    ids.creditNote = (
      await post('/credit-note', {
        invoiceId: ids.invoice,
        reason: 'Two hours were not needed',
        lines: [{ ...lines[0], quantity: '2' }],
      })
    ).id;

    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
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
    await smtp?.close();
    certificate?.remove();
  });

  for (const width of WIDTHS) {
    it(`sends an invoice from its page and lists the message with its attachments at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/invoices/${ids.invoice}`);
      expect(await page.getByLabel('To').inputValue()).toBe(
        'accounts-payable.department@grosshandel-sued-west.example',
      );
      expect(await pageProblems(page, 'invoice with its Send form')).toEqual([]);
      await page.getByLabel('Cc').fill(`copy-${width}@acme.example`);
      await page.getByLabel('E-invoice attached').selectOption('xrechnung-ubl');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.waitForURL(/\?sent=eml_/);
      expect(await page.getByRole('status').first().textContent()).toContain('is queued');
      await t.container.emailWorker!.drain();
      expect(smtp.received.filter((m) => m.to.includes(`copy-${width}@acme.example`))).toHaveLength(1);
      await page.reload();
      const message = page.locator('.email-delivery').first();
      expect(await message.locator('.badge').textContent()).toBe('Sent');
      expect(await message.locator('code.sha256').count()).toBe(2);
      expect(await pageProblems(page, 'invoice with a sent message')).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/panel-sending-invoice-${width}.png`, fullPage: true });
    });

    it(`shows a credit note's Send form at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/credit-notes/${ids.creditNote}`);
      expect(await page.getByRole('heading', { name: 'Sent by email' }).count()).toBe(1);
      expect(await pageProblems(page, 'credit note with its Send form')).toEqual([]);
    });

    it(`lists the email templates under Company at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/company`);
      await page.getByRole('link', { name: 'Email templates' }).click();
      await page.waitForURL('**/panel/company/email-templates');
      expect(await page.locator('table.email-templates tbody tr').count()).toBe(6);
      expect(await pageProblems(page, 'email templates')).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/panel-email-templates-${width}.png`, fullPage: true });
    });

    it(`previews, saves and resets a template at ${width} px`, async () => {
      const page = pages[width]!;
      await page.goto(`${origin}/panel/company/email-templates/invoice/en`);
      expect(await page.locator('.preview-subject').textContent()).toBe('Invoice 2026-00042 from Acme Trading GmbH');
      expect(await pageProblems(page, 'email template')).toEqual([]);
      await page.getByLabel('Subject').fill('Your invoice {{number}} ({{amount}} {{currency}})');
      await page.getByRole('button', { name: 'Preview' }).click();
      expect(await page.locator('.preview-subject').textContent()).toBe('Your invoice 2026-00042 (1190.00 EUR)');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL('**/invoice/en?done=saved');
      expect(await pageProblems(page, 'saved email template')).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/panel-email-template-${width}.png`, fullPage: true });
      await page.getByRole('button', { name: 'Reset to the default' }).click();
      await page.waitForURL('**/invoice/en?done=reset');
      expect(await page.locator('.preview-subject').textContent()).toBe('Invoice 2026-00042 from Acme Trading GmbH');
    });
  }
});
