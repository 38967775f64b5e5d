import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';

type Body = Record<string, unknown>;

for (const dialect of DIALECTS) {
  describe(`POST /invoice on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let companyId: string;
    let buyerId: string;

    const createInvoice = (body: Body, apiKey = key) => t.post('/invoice', body, apiKey);
    const issued = async (body: Body) => {
      const res = await createInvoice({ organizationId: buyerId, issueDate: '2026-03-01', ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data;
    };

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ key, companyId } = await t.tenant());
      const org = await t.post(
        '/organization',
        {
          name: 'Acme Trading GmbH',
          isCustomer: true,
          vatId: 'DE811907980',
          email: 'billing@acme.example',
          address: { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
        },
        key,
      );
      buyerId = org.json().data.id;
    });
    afterAll(async () => t.close());

    it('issues an invoice with every field and answers 201 with the full invoice', async () => {
      const res = await createInvoice({
        organizationId: buyerId,
        number: 'A-1',
        issueDate: '2026-03-01',
        dueDate: '2026-03-15',
        currency: 'EUR',
        pricesIncludeTax: false,
        buyerReference: 'Leitweg 991-12345',
        purchaseOrderReference: 'PO-77',
        note: 'Thank you for your order.',
        lines: [
          {
            name: 'Consulting',
            description: 'March',
            quantity: '1.5',
            unitCode: 'HUR',
            unitPrice: '120.00',
            discountPercent: '10',
            vatRate: '19',
          },
        ],
      });
      expect(res.statusCode).toBe(201);
      const json = res.json();
      expect(json.success).toBe(true);
      expect(json.meta.requestId).toBe(res.headers['x-request-id']);
      expect(json.data).toMatchObject({
        number: 'A-1',
        status: 'issued',
        organizationId: buyerId,
        buyer: {
          name: 'Acme Trading GmbH',
          typeCode: 'P',
          vatId: 'DE811907980',
          email: 'billing@acme.example',
          address: { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
        },
        seller: { vatId: 'DE123456789', countryCode: 'DE' },
        issueDate: '2026-03-01',
        dueDate: '2026-03-15',
        currency: 'EUR',
        pricesIncludeTax: false,
        buyerReference: 'Leitweg 991-12345',
        purchaseOrderReference: 'PO-77',
        note: 'Thank you for your order.',
        lines: [
          {
            position: 1,
            name: 'Consulting',
            description: 'March',
            quantity: '1.5',
            unitCode: 'HUR',
            unitPrice: '120',
            discountPercent: '10',
            vatRate: '19',
            vatCategory: 'S',
            exemptionReason: null,
            netAmount: '162.00',
          },
        ],
        vatBreakdown: [
          { vatCategory: 'S', vatRate: '19', taxableAmount: '162.00', taxAmount: '30.78', exemptionReason: null },
        ],
        totals: {
          lineNetTotal: '162.00',
          taxExclusive: '162.00',
          taxTotal: '30.78',
          taxInclusive: '192.78',
          roundingAmount: '0.00',
          payable: '192.78',
        },
      });
      expect(json.data.id).toMatch(/^inv_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(new Date(json.data.createdAt).toISOString()).toBe(json.data.createdAt);
      const stored = await t.container.storage.db
        .selectFrom('invoices')
        .selectAll()
        .where('id', '=', json.data.id)
        .executeTakeFirstOrThrow();
      expect(stored.company_id).toBe(companyId);
      expect(stored.payable).toBe('192.78');
    });

    it('fills the defaults: next number, today in UTC, due in 30 days, company currency, net prices, category from the rate', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const res = await createInvoice({
        organizationId: buyerId,
        lines: [{ name: 'Item', quantity: 1, unitPrice: 10, vatRate: 0 }],
      });
      expect(res.statusCode).toBe(201);
      const data = res.json().data;
      expect(data.number).toMatch(new RegExp(`^${today.slice(0, 4)}-\\d{5}$`));
      expect(data.issueDate).toBe(today);
      const due = new Date(Date.parse(`${today}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
      expect(data.dueDate).toBe(due);
      expect(data.currency).toBe('EUR');
      expect(data.pricesIncludeTax).toBe(false);
      expect(data.lines[0]).toMatchObject({
        unitCode: 'C62',
        vatCategory: 'Z',
        discountPercent: null,
        description: null,
      });
      expect(data).toMatchObject({ buyerReference: null, purchaseOrderReference: null, note: null });
    });

    it('rounds half away from zero on lines and on tax, over several rates, a 100 % discount, zero-rated and exempt lines', async () => {
      const data = await issued({
        lines: [
          { name: 'Widget', quantity: '3', unitPrice: '20.50', vatRate: '19' }, // 61.50
          { name: 'Sample', quantity: '0.5', unitPrice: '0.25', vatRate: '7' }, // 0.125 -> 0.13
          { name: 'Gift', quantity: '1', unitPrice: '100', discountPercent: '100', vatRate: '19' }, // 0.00
          { name: 'Book', quantity: '4', unitPrice: '2.5', vatRate: '0' }, // Z by default, 10.00
          {
            name: 'Course',
            quantity: 1,
            unitPrice: 45.5,
            vatRate: 0,
            vatCategory: 'E',
            exemptionReason: 'Exempt under Art. 132 VAT Directive',
          },
          { name: 'Tea', quantity: '1', unitPrice: '3.37', vatRate: '7' }, // 3.37
        ],
      });
      expect(data.lines.map((l: Body) => [l.vatCategory, l.netAmount])).toEqual([
        ['S', '61.50'],
        ['S', '0.13'],
        ['S', '0.00'],
        ['Z', '10.00'],
        ['E', '45.50'],
        ['S', '3.37'],
      ]);
      expect(data.vatBreakdown).toEqual([
        // 61.50 × 19 % = 11.685 -> 11.69 (half-even would say 11.68)
        { vatCategory: 'S', vatRate: '19', taxableAmount: '61.50', taxAmount: '11.69', exemptionReason: null },
        // 3.50 × 7 % = 0.245 -> 0.25 (half-even would say 0.24)
        { vatCategory: 'S', vatRate: '7', taxableAmount: '3.50', taxAmount: '0.25', exemptionReason: null },
        { vatCategory: 'Z', vatRate: '0', taxableAmount: '10.00', taxAmount: '0.00', exemptionReason: null },
        {
          vatCategory: 'E',
          vatRate: '0',
          taxableAmount: '45.50',
          taxAmount: '0.00',
          exemptionReason: 'Exempt under Art. 132 VAT Directive',
        },
      ]);
      expect(data.totals).toEqual({
        lineNetTotal: '120.50',
        allowanceTotal: '0.00',
        chargeTotal: '0.00',
        taxExclusive: '120.50',
        taxTotal: '11.94',
        taxInclusive: '132.44',
        roundingAmount: '0.00',
        payable: '132.44',
      });
    });

    it('rounds a discounted line half away from zero, also for a negative (credited) quantity', async () => {
      const data = await issued({
        lines: [
          { name: 'Half off', quantity: '1', unitPrice: '0.15', discountPercent: '50', vatRate: '19' }, // 0.075 -> 0.08
          { name: 'Returned', quantity: '-1', unitPrice: '0.15', discountPercent: '50', vatRate: '19' }, // -0.075 -> -0.08
          { name: 'Kept', quantity: '1', unitPrice: '1.00', vatRate: '19' },
        ],
      });
      expect(data.lines.map((l: Body) => l.netAmount)).toEqual(['0.08', '-0.08', '1.00']);
      expect(data.totals).toMatchObject({ lineNetTotal: '1.00', taxTotal: '0.19', payable: '1.19' });
    });

    it('uses the currency digits: JPY has none', async () => {
      const data = await issued({
        currency: 'JPY',
        lines: [
          { name: 'Rice', quantity: '3', unitPrice: '333.5', vatRate: '10' }, // 1000.5 -> 1001
          { name: 'Food', quantity: '1', unitPrice: '99', vatRate: '8' },
        ],
      });
      expect(data.lines.map((l: Body) => l.netAmount)).toEqual(['1001', '99']);
      expect(data.vatBreakdown.map((g: Body) => [g.vatRate, g.taxableAmount, g.taxAmount])).toEqual([
        ['10', '1001', '100'], // 100.1 -> 100
        ['8', '99', '8'], // 7.92 -> 8
      ]);
      expect(data.totals).toEqual({
        lineNetTotal: '1100',
        allowanceTotal: '0',
        chargeTotal: '0',
        taxExclusive: '1100',
        taxTotal: '108',
        taxInclusive: '1208',
        roundingAmount: '0',
        payable: '1208',
      });
    });

    it('uses the currency digits: KWD has three', async () => {
      const data = await issued({
        currency: 'KWD',
        lines: [
          { name: 'Part', quantity: '2', unitPrice: '0.6255', vatRate: '5' }, // 1.251
          { name: 'Zero', quantity: '1', unitPrice: '1.2345', vatRate: '0' }, // 1.2345 -> 1.235
        ],
      });
      expect(data.lines.map((l: Body) => l.netAmount)).toEqual(['1.251', '1.235']);
      expect(data.vatBreakdown.map((g: Body) => [g.vatCategory, g.taxableAmount, g.taxAmount])).toEqual([
        ['S', '1.251', '0.063'], // 0.06255 -> 0.063
        ['Z', '1.235', '0.000'],
      ]);
      expect(data.totals).toEqual({
        lineNetTotal: '2.486',
        allowanceTotal: '0.000',
        chargeTotal: '0.000',
        taxExclusive: '2.486',
        taxTotal: '0.063',
        taxInclusive: '2.549',
        roundingAmount: '0.000',
        payable: '2.549',
      });
    });

    it('derives nets from gross prices and puts the rounding difference into roundingAmount', async () => {
      const data = await issued({
        pricesIncludeTax: true,
        lines: [
          { name: 'Coffee', quantity: '3', unitPrice: '19.99', vatRate: '19' }, // gross 59.97
          { name: 'Milk', quantity: '2', unitPrice: '1.07', vatRate: '7' }, // gross 2.14
        ],
      });
      // 19 %: no net N has N + round(N × 0.19) = 59.97 (50.39 gives 59.96, 50.40 gives 59.98);
      // the nearer to 59.97 / 1.19 = 50.3949... is taken and the cent goes to roundingAmount.
      expect(data.lines.map((l: Body) => l.netAmount)).toEqual(['50.39', '2.00']);
      expect(data.vatBreakdown.map((g: Body) => [g.vatRate, g.taxableAmount, g.taxAmount])).toEqual([
        ['19', '50.39', '9.57'],
        ['7', '2.00', '0.14'],
      ]);
      expect(data.totals).toEqual({
        lineNetTotal: '52.39',
        allowanceTotal: '0.00',
        chargeTotal: '0.00',
        taxExclusive: '52.39',
        taxTotal: '9.71',
        taxInclusive: '62.10',
        roundingAmount: '0.01',
        payable: '62.11',
      });
    });

    it('apportions a gross group net over its lines by largest remainder, and the rounding can be negative', async () => {
      const data = await issued({
        pricesIncludeTax: true,
        lines: [
          { name: 'A', quantity: '1', unitPrice: '0.99', vatRate: '19' }, // 0.8319... -> 0.83
          { name: 'B', quantity: '1', unitPrice: '0.04', vatRate: '19' }, // 0.0336... -> 0.03, +0.01 (larger remainder)
        ],
      });
      // Gross 1.03: round(1.03 / 1.19) = 0.87, and 0.87 + 0.17 = 1.04; 0.86 + 0.16 = 1.02 is as far.
      expect(data.lines.map((l: Body) => l.netAmount)).toEqual(['0.83', '0.04']);
      expect(data.totals).toEqual({
        lineNetTotal: '0.87',
        allowanceTotal: '0.00',
        chargeTotal: '0.00',
        taxExclusive: '0.87',
        taxTotal: '0.17',
        taxInclusive: '1.04',
        roundingAmount: '-0.01',
        payable: '1.03',
      });
    });

    it('keeps the buyer and seller as they were at issue', async () => {
      const data = await issued({ lines: [{ name: 'X', quantity: '1', unitPrice: '1', vatRate: '19' }] });
      await t.storage.db
        .updateTable('organizations')
        .set({ name: 'Renamed', vat_id: null })
        .where('id', '=', buyerId)
        .execute();
      await t.storage.db.updateTable('companies').set({ name: 'Renamed seller' }).where('id', '=', companyId).execute();
      try {
        const stored = await t.storage.db
          .selectFrom('invoices')
          .select(['buyer_snapshot', 'seller_snapshot'])
          .where('id', '=', data.id)
          .executeTakeFirstOrThrow();
        expect(JSON.parse(stored.buyer_snapshot!)).toMatchObject({ name: 'Acme Trading GmbH', vatId: 'DE811907980' });
        expect(JSON.parse(stored.seller_snapshot!)).toEqual(data.seller);
        expect(data.seller.name).not.toBe('Renamed seller');
      } finally {
        await t.storage.db
          .updateTable('organizations')
          .set({ name: 'Acme Trading GmbH', vat_id: 'DE811907980' })
          .where('id', '=', buyerId)
          .execute();
      }
    });

    it('stores the invoice and every line in the database as answered', async () => {
      const lines = Array.from({ length: 250 }, (_, i) => ({
        name: `Line ${i + 1}`,
        quantity: '1',
        unitPrice: '0.01',
        vatRate: '19',
      }));
      const data = await issued({ lines });
      const rows = await t.storage.db
        .selectFrom('invoice_lines')
        .selectAll()
        .where('invoice_id', '=', data.id)
        .orderBy('position')
        .execute();
      expect(rows).toHaveLength(250);
      expect(rows.every((r) => r.company_id === companyId && r.net_amount === '0.01')).toBe(true);
      expect(data.totals).toMatchObject({ lineNetTotal: '2.50', taxTotal: '0.48', payable: '2.98' });
    });
  });
}
