import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// An issued invoice or credit note says, without refusing anything, which e-invoice profiles it
// exports to and what each other one lacks, with the rule ids and field names of validateFor and
// of the export's 422; and what it says is what the export does.

type Gap = { field: string; code: string; message: string };
type Readiness = { exportableTo: string[]; missing: Record<'en16931' | 'peppol' | 'xrechnung', Gap[]> };

const LINES = [{ name: 'Consulting', quantity: '3', unitCode: 'HUR', unitPrice: '80', vatRate: '19' }];
const BUYER = {
  name: 'Ready Buyer GmbH',
  isCustomer: true,
  vatId: 'DE811907980',
  address: { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
};
const PROFILE = {
  legalName: 'Ready Seller GmbH',
  address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
  vatId: 'DE123456789',
  electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
  contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@seller.example' },
  bankAccount: { iban: 'DE89370400440532013000' },
  paymentTerms: 'Payable within 30 days.',
};

/** Each profile and the export that answers for it. */
const EXPORTS: [keyof Readiness['missing'], string][] = [
  ['en16931', 'cii'],
  ['peppol', 'ubl?profile=peppol'],
  ['xrechnung', 'ubl?profile=xrechnung'],
];

for (const dialect of DIALECTS) {
  describe(`e-invoice readiness of issued documents on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    async function tenant() {
      const { key } = await t.tenant();
      const buyer = (await t.post('/organization', BUYER, key)).json().data;
      const send = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key },
          ...(body === undefined ? {} : { payload: body as object }),
        });
      const issue = async (extra: Record<string, unknown> = {}) => {
        const res = await send('POST', '/invoice', { organizationId: buyer.id, lines: LINES, ...extra });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data;
      };
      return { key, buyer, send, issue };
    }

    /** What each export answers, held against what the document said of itself. */
    async function expectExportsAsSaid(
      send: Awaited<ReturnType<typeof tenant>>['send'],
      path: string,
      readiness: Readiness,
    ) {
      for (const [profile, format] of EXPORTS) {
        const res = await send('GET', `${path}/${format}`);
        if (readiness.exportableTo.includes(profile)) {
          expect(res.statusCode, `${path} ${profile}`).toBe(200);
          expect(readiness.missing[profile]).toEqual([]);
        } else {
          expect(res.statusCode, `${path} ${profile}`).toBe(422);
          expect(res.json().error.details).toEqual(readiness.missing[profile]);
        }
      }
    }

    it('says what an invoice issued before the seller profile was complete lacks, and keeps saying it once the profile is complete', async () => {
      const c = await tenant();
      const early = await c.issue({ purchaseOrderReference: 'PO-1' });
      const readiness = early.einvoice as Readiness;
      expect(readiness.exportableTo).toEqual(['en16931']);
      expect(readiness.missing.en16931).toEqual([]);
      const peppolFields = readiness.missing.peppol.map((g) => `${g.field} ${g.code}`);
      expect(peppolFields).toContain('seller.electronicAddress PEPPOL-EN16931-R020');
      await expectExportsAsSaid(c.send, `/invoice/${early.id}`, readiness);

      expect((await c.send('PATCH', '/company', PROFILE)).statusCode).toBe(200);
      // Issued is issued: the snapshot taken then still lacks what it lacked.
      expect((await c.send('GET', `/invoice/${early.id}`)).json().data.einvoice).toEqual(readiness);
      const later = await c.issue({ purchaseOrderReference: 'PO-2', buyerReference: '04011000-12345-34' });
      expect(later.einvoice).toEqual({
        exportableTo: ['en16931', 'peppol', 'xrechnung'],
        missing: { en16931: [], peppol: [], xrechnung: [] },
      });
      await expectExportsAsSaid(c.send, `/invoice/${later.id}`, later.einvoice);
    });

    it('names the same fields and rules as validateFor would have refused it with', async () => {
      const c = await tenant();
      expect((await c.send('PATCH', '/company', PROFILE)).statusCode).toBe(200);
      const refused = await c.send('POST', '/invoice', {
        organizationId: c.buyer.id,
        lines: LINES,
        validateFor: ['xrechnung'],
      });
      expect(refused.statusCode).toBe(422);
      const issued = await c.issue();
      expect(issued.einvoice.exportableTo).toEqual(['en16931']);
      expect(issued.einvoice.missing.xrechnung).toEqual(refused.json().error.details);
      await expectExportsAsSaid(c.send, `/invoice/${issued.id}`, issued.einvoice);
    });

    it('has none for a draft, and says it from the moment the draft is issued, in the answer, the read and the list', async () => {
      const c = await tenant();
      const draft = await c.issue({ status: 'draft' });
      expect(draft.einvoice).toBeNull();
      const issued = (await c.send('POST', `/invoice/${draft.id}/finalize`)).json().data;
      expect(issued.einvoice.exportableTo).toEqual(['en16931']);
      expect((await c.send('GET', `/invoice/${draft.id}`)).json().data.einvoice).toEqual(issued.einvoice);
      const listed = (await c.send('GET', `/invoice?number=${issued.number}`)).json().data.items;
      expect(listed.map((i: { einvoice: unknown }) => i.einvoice)).toEqual([issued.einvoice]);
    });

    it('says it of a credit note too, as its exports answer', async () => {
      const c = await tenant();
      expect((await c.send('PATCH', '/company', PROFILE)).statusCode).toBe(200);
      const invoice = await c.issue({ purchaseOrderReference: 'PO-3' });
      const creditNote = (
        await c.send('POST', '/credit-note', {
          invoiceId: invoice.id,
          reason: 'One hour not delivered',
          lines: [{ ...LINES[0], quantity: '1' }],
        })
      ).json().data;
      // Between two German parties Peppol, like XRechnung, wants the buyer reference, which the invoice did not have.
      expect(creditNote.einvoice.exportableTo).toEqual(['en16931']);
      expect(creditNote.einvoice.missing.peppol.map((g: Gap) => `${g.field} ${g.code}`)).toEqual([
        'buyerReference DE-R-015',
      ]);
      expect(creditNote.einvoice.missing.xrechnung.map((g: Gap) => `${g.field} ${g.code}`)).toEqual([
        'buyerReference BR-DE-15',
      ]);
      expect((await c.send('GET', `/credit-note/${creditNote.id}`)).json().data.einvoice).toEqual(creditNote.einvoice);
      await expectExportsAsSaid(c.send, `/credit-note/${creditNote.id}`, creditNote.einvoice);
    });
  });
}
