import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount, formatDecimal, VAT_CATEGORY_NAMES } from '../../src/panel/views/format.js';
import { DIALECTS } from '../helpers/dialects.js';
import { ALL_PERMISSIONS, buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, type PanelClient } from '../helpers/panel-client.js';

// Amounts with separators and their currency, exact beyond 2^53; codes with their names.

/** Thousands separators by string surgery, the independent way to check the panel's Intl output. */
function grouped(decimal: string): string {
  const [int, frac] = decimal.replace('-', '').split('.');
  const withCommas = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${decimal.startsWith('-') ? '-' : ''}${withCommas}${frac === undefined ? '' : `.${frac}`}`;
}

describe('panel amount formatting', () => {
  it('groups thousands and writes the currency code', () => {
    expect(formatAmount('1242130.86', 'EUR')).toBe('1,242,130.86 EUR');
    expect(formatAmount('-1242130.86', 'EUR')).toBe('-1,242,130.86 EUR');
    expect(formatAmount('0.00', 'EUR')).toBe('0.00 EUR');
  });

  it('shows at least the currency digits and never drops stored ones', () => {
    expect(formatAmount('10', 'EUR')).toBe('10.00 EUR');
    expect(formatAmount('1500', 'JPY')).toBe('1,500 JPY');
    expect(formatAmount('1.250', 'KWD')).toBe('1.250 KWD');
    expect(formatAmount('19.9999', 'EUR')).toBe('19.9999 EUR');
    expect(formatDecimal('1500.125')).toBe('1,500.125');
  });

  it('is exact far beyond 2^53, where a float would round', () => {
    const huge = '123456789012345678901234.57';
    expect(Number(huge).toFixed(2)).not.toBe(huge);
    expect(formatAmount(huge, 'EUR')).toBe(`${grouped(huge)} EUR`);
    expect(formatAmount('9007199254740993.01', 'USD')).toBe('9,007,199,254,740,993.01 USD');
  });

  it('shows anything that is not a plain decimal as it is', () => {
    expect(formatAmount('1e5', 'EUR')).toBe('1e5 EUR');
    expect(formatAmount('12.00', 'euro')).toBe('12.00 euro');
  });

  it('names every VAT category of UNCL5305 the panel may show', () => {
    for (const code of ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'])
      expect(VAT_CATEGORY_NAMES[code], code).toMatch(/\w{3}/);
  });
});

for (const dialect of DIALECTS) {
  describe(`panel invoice figures on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    it('shows a huge invoice exactly, with separators and the currency, units by name as on the PDF, codes named and numbers unbroken', async () => {
      const { key } = await t.createKey(companyId, ALL_PERMISSIONS);
      const org = (
        await t.post(
          '/organization',
          {
            name: 'Big Buyer AG',
            isCustomer: true,
            vatId: 'DE811111111',
            address: { line1: 'Hauptstr. 1', postalCode: '10115', city: 'Berlin', countryCode: 'DE' },
          },
          key,
        )
      ).json().data;
      const lines = [
        // As large as an invoice may be (every amount within 15 digits before the point, src/money/limits.ts).
        { name: 'Consulting', quantity: '90071992547', unitCode: 'HUR', unitPrice: '1234.57', vatRate: '19' },
        { name: 'Export goods', quantity: '2', unitPrice: '5', vatRate: '0', vatCategory: 'G' },
      ];
      const created = await t.post('/invoice', { organizationId: org.id, lines }, key);
      expect(created.statusCode, created.body).toBe(201);
      const invoice = created.json().data as {
        id: string;
        number: string;
        totals: { payable: string; taxTotal: string };
        lines: { netAmount: string }[];
      };
      // The payable is beyond 2^53 in cents: a float could not hold it.
      expect(BigInt(invoice.totals.payable.replace('.', ''))).toBeGreaterThan(2n ** 53n);

      const page = await owner.get(`/panel/invoices/${invoice.id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<span class="amount">${grouped(invoice.totals.payable)} EUR</span>`);
      expect(page.body).toContain(`<span class="amount">${grouped(invoice.totals.taxTotal)} EUR</span>`);
      expect(page.body).toContain(`<span class="amount">${grouped(invoice.lines[0]!.netAmount)} EUR</span>`);
      // Units by name, as the PDF writes them ("10 pc", not "10 C62"), the code and its full name on hover.
      expect(page.body).toContain('90,071,992,547 <abbr class="unit" title="hour (code HUR)" data-unit="HUR">h</abbr>');
      expect(page.body).toContain('2 <abbr class="unit" title="one (code C62)" data-unit="C62">pc</abbr>');
      expect(page.body).not.toMatch(/\d <abbr[^>]*>(HUR|C62)</);
      expect(page.body).toContain('<abbr class="code" title="Standard rate" data-vat-category="S">S</abbr>');
      expect(page.body).toContain(
        '<abbr class="code" title="Free export item, VAT not charged" data-vat-category="G">G</abbr>',
      );
      // The same names spelled out for touch screens, where a title never shows.
      expect(page.body).toMatch(
        /<dl class="code-legend">[\s\S]*h: hour \(<code>HUR<\/code>\) · pc: one \(<code>C62<\/code>\)[\s\S]*<code>G<\/code> Free export item, VAT not charged/,
      );

      const list = await owner.get('/panel/invoices');
      expect(list.body).toContain(`<span class="amount">${grouped(invoice.totals.payable)} EUR</span>`);
      expect(list.body).toMatch(
        new RegExp(`<th scope="row" class="nowrap"><a href="/panel/invoices/${invoice.id}">${invoice.number}</a></th>`),
      );
    });
  });
}
