import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { claimInstance, PanelClient, signedInAs } from '../helpers/panel-client.js';

// The panel hands out the documents a customer received: the PDF as issued and its status copy
// in each language, and every e-invoice, rendered by the service the API uses (the same bytes),
// for every role, within the signed-in user's company and the world the panel shows.

type Json = Record<string, unknown>;

const PROFILE = {
  legalName: 'Seller Software GmbH',
  vatId: 'DE123456789',
  electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
  address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
  contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@seller.example' },
  bankAccount: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
  paymentTerms: 'Payable within 30 days.',
};

const BUYER = {
  name: 'Buyer AG',
  isCustomer: true,
  vatId: 'DE811907980',
  email: 'ap@buyer.example',
  address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
};

const LINES = [
  { name: 'Consulting', quantity: '3', unitCode: 'HUR', unitPrice: '80', vatRate: '19' },
  { name: 'Books', quantity: '2', unitPrice: '12.50', vatRate: '7' },
];

/** Every document of an issued invoice or credit note, as the panel and the API name them alike. */
const DOCUMENTS = [
  'pdf',
  'pdf?lang=de',
  'pdf?lang=fr',
  'pdf?copy=status',
  'pdf?lang=fr&copy=status',
  'ubl',
  'ubl?profile=xrechnung',
  'cii',
  'cii?profile=xrechnung',
];

for (const dialect of DIALECTS) {
  describe(`documents from the panel on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;
    let key: string;
    let testKey: string;
    const ids: Record<string, string> = {};
    let frozen: Date;

    const post = async (path: string, body: Json, withKey = key) => {
      const res = await t.post(path, body, withKey);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: string; number: string };
    };

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
      ({ key } = await t.createKey(companyId, [
        'company.update',
        'organization.create',
        'invoice.create',
        'invoice.read',
        'payment.create',
        'credit-note.create',
        'credit-note.read',
      ]));
      ({ key: testKey } = await t.createKey(companyId, ['organization.create', 'invoice.create', 'invoice.read'], {
        mode: 'test',
      }));
      const patched = await t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/company`,
        headers: { 'x-api-key': key },
        payload: PROFILE,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const buyer = await post('/organization', BUYER);
      ids.invoice = (
        await post('/invoice', {
          organizationId: buyer.id,
          issueDate: '2026-03-02',
          buyerReference: '04011000-12345-34',
          lines: LINES,
        })
      ).id;
      // Without a buyer reference XRechnung (BR-DE-15) and Peppol (PEPPOL-EN16931-R003) refuse the invoice; EN 16931 takes it.
      ids.noReference = (
        await post('/invoice', { organizationId: buyer.id, issueDate: '2026-03-03', lines: LINES })
      ).id;
      ids.draft = (await post('/invoice', { organizationId: buyer.id, status: 'draft', lines: LINES })).id;
      await post(`/invoice/${ids.invoice}/payment`, { amount: '50.00', method: 'credit_transfer', date: '2026-03-10' });
      ids.creditNote = (
        await post('/credit-note', {
          invoiceId: ids.invoice,
          issueDate: '2026-03-12',
          reason: 'One hour was not needed',
          lines: [{ ...LINES[0], quantity: '1' }],
        })
      ).id;
      const testBuyer = await post('/organization', { name: 'Sandbox Buyer', isCustomer: true }, testKey);
      ids.test = (
        await post('/invoice', { organizationId: testBuyer.id, issueDate: '2026-03-02', lines: LINES }, testKey)
      ).id;
      // A status copy is dated the moment it is made: both sides make theirs at the same frozen time.
      frozen = new Date();
      vi.useFakeTimers({ toFake: ['Date'], now: frozen });
    });
    afterEach(() => {
      vi.setSystemTime(frozen);
    });
    afterAll(async () => {
      vi.useRealTimers();
      await t.close();
    });

    const apiPath = (kind: 'invoice' | 'credit-note', id: string, document: string) => `/${kind}/${id}/${document}`;
    const panelPath = (kind: 'invoice' | 'credit-note', id: string, document: string) =>
      `/panel/${kind === 'invoice' ? 'invoices' : 'credit-notes'}/${id}/${document}`;

    it('hands out every document of an invoice and a credit note with exactly the bytes and headers the API answers', async () => {
      for (const [kind, id] of [
        ['invoice', ids.invoice!],
        ['credit-note', ids.creditNote!],
      ] as const) {
        for (const document of DOCUMENTS) {
          const api = await t.get(apiPath(kind, id, document), key);
          const panel = await owner.get(panelPath(kind, id, document));
          expect(api.statusCode, `${kind} ${document}: ${api.body.slice(0, 300)}`).toBe(200);
          expect(panel.statusCode, `${kind} ${document}: ${panel.body.slice(0, 300)}`).toBe(200);
          expect(panel.rawPayload.equals(api.rawPayload), `${kind} ${document}`).toBe(true);
          for (const header of ['content-type', 'content-disposition', 'etag', 'repr-digest'])
            expect(panel.headers[header], `${kind} ${document} ${header}`).toBe(api.headers[header]);
        }
      }
      const pdf = await owner.get(panelPath('invoice', ids.invoice!, 'pdf'));
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="invoice-2026-\d{5}\.pdf"$/);
      expect(
        (await owner.get(panelPath('invoice', ids.invoice!, 'pdf?copy=status'))).headers['content-disposition'],
      ).toMatch(/-status\.pdf"$/);
      // The digest the invoice's answer shows is the one of the file the panel handed out.
      const answer = (await t.get(`/invoice/${ids.invoice}`, key)).json().data;
      expect(`"${answer.pdfSha256.en}"`).toBe(pdf.headers.etag);
    });

    it('offers the downloads on the invoice and credit-note pages, naming what an incomplete e-invoice lacks', async () => {
      const page = (await owner.get(`/panel/invoices/${ids.invoice}`)).body;
      for (const href of [
        'pdf?lang=en',
        'pdf?lang=de',
        'pdf?lang=fr',
        'pdf?lang=en&amp;copy=status',
        'ubl',
        'ubl?profile=xrechnung',
        'cii',
        'cii?profile=xrechnung',
      ]) {
        expect(page).toContain(`href="/panel/invoices/${ids.invoice}/${href}"`);
      }
      expect(page).not.toContain('einvoice-gaps');
      const incomplete = (await owner.get(`/panel/invoices/${ids.noReference}`)).body;
      expect(incomplete).toMatch(
        /UBL · XRechnung 3\.0<\/a> <small class="muted einvoice-gaps">incomplete: lacks buyerReference<\/small>/,
      );
      expect(incomplete).toMatch(
        /UBL · Peppol BIS 3\.0<\/a> <small class="muted einvoice-gaps">incomplete: lacks buyerReference<\/small>/,
      );
      expect(incomplete).toMatch(/CII · EN 16931 \(Factur-X\)<\/a><\/li>/);
      const note = (await owner.get(`/panel/credit-notes/${ids.creditNote}`)).body;
      for (const href of ['pdf?lang=en', 'pdf?lang=fr&amp;copy=status', 'ubl', 'cii?profile=xrechnung'])
        expect(note).toContain(`href="/panel/credit-notes/${ids.creditNote}/${href}"`);
    });

    it('answers an incomplete e-invoice with a page naming each missing field and its rule, not a 500', async () => {
      const api = await t.get(apiPath('invoice', ids.noReference!, 'ubl?profile=xrechnung'), key);
      expect(api.statusCode).toBe(422);
      const details = api.json().error.details as { field: string; code: string }[];
      expect(details.length).toBeGreaterThan(0);
      for (const document of ['ubl?profile=xrechnung', 'cii?profile=xrechnung']) {
        const res = await owner.get(panelPath('invoice', ids.noReference!, document));
        expect(res.statusCode).toBe(422);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain('This invoice cannot be a');
        for (const detail of details) expect(res.body).toContain(`<code>${detail.field}</code>`);
        expect(res.body).toContain('BR-DE-15');
        expect(res.body).toContain(`href="/panel/invoices/${ids.noReference}"`);
      }
      // The profiles it does satisfy are handed out.
      expect((await owner.get(panelPath('invoice', ids.noReference!, 'cii'))).statusCode).toBe(200);
    });

    it('hands out only a PDF marked DRAFT for a draft, the same as the API', async () => {
      const page = (await owner.get(`/panel/invoices/${ids.draft}`)).body;
      expect(page).toContain('Draft PDF');
      expect(page).toContain(`href="/panel/invoices/${ids.draft}/pdf?lang=de"`);
      expect(page).not.toContain('copy=status');
      expect(page).not.toContain(`/panel/invoices/${ids.draft}/ubl`);
      const panel = await owner.get(panelPath('invoice', ids.draft!, 'pdf'));
      const api = await t.get(apiPath('invoice', ids.draft!, 'pdf'), key);
      expect(panel.statusCode).toBe(200);
      expect(panel.rawPayload.equals(api.rawPayload)).toBe(true);
      for (const document of ['ubl', 'cii']) {
        const refused = await owner.get(panelPath('invoice', ids.draft!, document));
        expect(refused.statusCode).toBe(409);
        expect(refused.body).toContain('A draft has no e-invoice');
      }
    });

    it('lets every role download what it can see', async () => {
      const reference = (await owner.get(panelPath('invoice', ids.invoice!, 'pdf'))).rawPayload;
      const admin = await signedInAs(t.app, companyId, `admin-${dialect}@example.com`, 'admin');
      const member = await signedInAs(t.app, companyId, `member-${dialect}@example.com`, 'member');
      for (const client of [owner, admin, member]) {
        const res = await client.get(panelPath('invoice', ids.invoice!, 'pdf'));
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(reference)).toBe(true);
        expect((await client.get(panelPath('credit-note', ids.creditNote!, 'cii'))).statusCode).toBe(200);
        expect((await client.get(`/panel/credit-notes/${ids.creditNote}`)).body).toContain(
          `/panel/credit-notes/${ids.creditNote}/pdf?lang=en`,
        );
      }
    });

    it("answers 404 for another company's documents and for the other world's, and nothing without a session", async () => {
      const otherCompany = await t.createCompany('Elsewhere GmbH');
      const stranger = await signedInAs(t.app, otherCompany, `stranger-${dialect}@example.com`, 'owner');
      for (const [kind, id] of [
        ['invoice', ids.invoice!],
        ['credit-note', ids.creditNote!],
      ] as const) {
        for (const document of ['pdf', 'pdf?copy=status', 'ubl', 'cii?profile=xrechnung']) {
          const res = await stranger.get(panelPath(kind, id, document));
          expect(res.statusCode, `${kind} ${document}`).toBe(404);
          expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        }
      }
      expect(
        (await owner.get(panelPath('invoice', 'inv_00000000-0000-4000-8000-000000000000', 'pdf'))).statusCode,
      ).toBe(404);

      // A test invoice is not found while the panel shows live data; switched to test data it is, with the API's bytes.
      await owner.get('/panel/invoices');
      expect((await owner.get(panelPath('invoice', ids.test!, 'pdf'))).statusCode).toBe(404);
      await owner.post('/panel/mode', { mode: 'test', return: '/panel/invoices' });
      const sandbox = await owner.get(panelPath('invoice', ids.test!, 'pdf'));
      expect(sandbox.statusCode).toBe(200);
      expect(sandbox.rawPayload.equals((await t.get(apiPath('invoice', ids.test!, 'pdf'), testKey)).rawPayload)).toBe(
        true,
      );
      expect((await owner.get(panelPath('invoice', ids.invoice!, 'pdf'))).statusCode).toBe(404);
      await owner.get('/panel/invoices');
      await owner.post('/panel/mode', { mode: 'live', return: '/panel/invoices' });

      const anonymous = await t.app.inject({ method: 'GET', url: panelPath('invoice', ids.invoice!, 'pdf') });
      expect(anonymous.statusCode).toBe(303);
      expect(anonymous.headers.location).toMatch(/^\/panel\/sign-in/);
    });

    it('refuses a language or profile it does not know with a 400 page', async () => {
      for (const document of ['pdf?lang=es', 'pdf?copy=yes', 'ubl?profile=en16931', 'cii?profile=peppol']) {
        const res = await owner.get(panelPath('invoice', ids.invoice!, document));
        expect(res.statusCode, document).toBe(400);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      }
    });
  });
}
