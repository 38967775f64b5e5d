import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { expectXmlIdentities } from '../helpers/einvoice-identities.js';
import { canValidate, validateAgainstXsd, XSD } from '../helpers/einvoice-files.js';
import { readCii, readUbl } from '../helpers/einvoice-reading.js';
import { legalRegistrationOf } from '../../src/services/document-view.js';
import { canInspectPdf, pdfAttachments, pdfText } from '../helpers/pdf-tools.js';

// E-invoices through the API: the seller profile, the buyer's electronic address, the EN 16931
// data of an invoice, and its documents (UBL, CII, PDF) as the endpoints answer them. Every XML
// the tests receive is checked against the official XSD; gaps are answered 422 with their rule.

type Json = Record<string, unknown>;

const SELLER_PROFILE = [
  '--legal-name',
  'Seller Software GmbH',
  '--line1',
  'Friedrichstr. 100',
  '--city',
  'Berlin',
  '--postal-code',
  '10117',
  '--country',
  'DE',
  '--vat-id',
  'DE123456789',
  '--electronic-address',
  '9930:DE123456789',
  '--contact-name',
  'Ada Seller',
  '--contact-phone',
  '+49 30 987654',
  '--contact-email',
  'billing@seller.example',
  '--iban',
  'DE89 3704 0044 0532 0130 00',
  '--bic',
  'COBADEFFXXX',
  '--payment-terms',
  'Payable within 30 days.',
];

const BUYER = {
  name: 'Buyer AG',
  isCustomer: true,
  vatId: 'DE811907980',
  email: 'ap@buyer.example',
  address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
  legalRegistrationId: 'HRB 4711',
};

const LINES = [
  { name: 'Consulting', quantity: '3', unitCode: 'HUR', unitPrice: '80', vatRate: '19', discountPercent: '10' },
  { name: 'Books', quantity: '2', unitPrice: '12.50', vatRate: '7' },
];

for (const dialect of DIALECTS) {
  describe.runIf(canValidate && canInspectPdf)(`e-invoices through the API on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    const cli = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(args, {
        stdout: (s) => out.push(s),
        stderr: (s) => err.push(s),
        env: { DATABASE_URL: t.database.url },
      });
      return { code, stdout: out.join(''), stderr: err.join('') };
    };

    async function seller(profile = SELLER_PROFILE) {
      const { companyId, key } = await t.tenant();
      if (profile.length > 0) expect((await cli('company', 'update', companyId, ...profile)).code).toBe(0);
      const buyer = (await t.post('/organization', BUYER, key)).json().data;
      const send = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: Json) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key },
          ...(body ? { payload: body } : {}),
        });
      const issue = async (body: Json = {}) => {
        const res = await t.post(
          '/invoice',
          { organizationId: buyer.id, buyerReference: '04011000-12345-34', lines: LINES, ...body },
          key,
        );
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data;
      };
      return { companyId, key, buyer, send, issue };
    }

    it('keeps the seller profile set with the CLI, shows it at GET /company, and records every change', async () => {
      const s = await seller();
      const company = (await s.send('GET', '/company')).json().data;
      expect(company).toMatchObject({
        legalName: 'Seller Software GmbH',
        address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
        electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
        contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@seller.example' },
        bankAccount: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
        paymentTerms: 'Payable within 30 days.',
      });
      expect((await cli('company', 'update', s.companyId, '--iban', 'DE02120300000000202051')).code).toBe(0);
      const history = await t.container.companyProfiles.history(s.companyId);
      expect(history[0]).toMatchObject({
        actor: 'cli',
        changes: { iban: { from: 'DE89370400440532013000', to: 'DE02120300000000202051' } },
      });
      expect(history).toHaveLength(2);
    });

    it('refuses a profile with a wrong IBAN checksum, an unknown country or EAS scheme, and changes nothing', async () => {
      const s = await seller([]);
      const res = await cli(
        'company',
        'update',
        s.companyId,
        '--iban',
        'DE89370400440532013001',
        '--country',
        'XX',
        '--electronic-address',
        '1234:x',
      );
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('--iban');
      expect(res.stderr).toContain('--country');
      expect(res.stderr).toContain('--electronic-address');
      expect((await s.send('GET', '/company')).json().data.bankAccount).toBeNull();
      expect((await cli('company', 'update', 'cmp_nope', '--city', 'X')).stderr).toContain('No company');
    });

    it("stores the buyer's electronic address and legal registration id, and edits them", async () => {
      const s = await seller();
      expect(s.buyer).toMatchObject({
        electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
        legalRegistrationId: 'HRB 4711',
      });
      const edited = (
        await s.send('PATCH', `/organization/${s.buyer.id}`, {
          electronicAddress: { scheme: '0088', identifier: '4000001123452' },
        })
      ).json().data;
      expect(edited.electronicAddress).toEqual({ scheme: '0088', identifier: '4000001123452' });
      expect(
        (await s.send('PATCH', `/organization/${s.buyer.id}`, { electronicAddress: null })).json().data
          .electronicAddress,
      ).toBeNull();
    });

    it("issues an invoice with the company's account as SEPA payment means, its payment terms, and allowances and charges in the totals", async () => {
      const s = await seller();
      const invoice = await s.issue({
        deliveryDate: '2026-04-30',
        allowances: [{ amount: '10', reason: 'Loyalty discount', reasonCode: '95', vatCategory: 'S', vatRate: '19' }],
        charges: [{ amount: '5', reason: 'Shipping', reasonCode: 'FC', vatCategory: 'S', vatRate: '19' }],
      });
      expect(invoice.paymentMeans).toEqual({
        code: '58',
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        accountName: 'Seller Software GmbH',
        mandateReference: null,
        payerIban: null,
        cardLastDigits: null,
      });
      expect(invoice.paymentTerms).toBe('Payable within 30 days.');
      // Lines 216.00 (19 %) and 25.00 (7 %); allowance 10 and charge 5 at 19 %.
      expect(invoice.totals).toMatchObject({
        lineNetTotal: '241.00',
        allowanceTotal: '10.00',
        chargeTotal: '5.00',
        taxExclusive: '236.00',
      });
      expect(invoice.vatBreakdown).toEqual([
        { vatCategory: 'S', vatRate: '19', taxableAmount: '211.00', taxAmount: '40.09', exemptionReason: null },
        { vatCategory: 'S', vatRate: '7', taxableAmount: '25.00', taxAmount: '1.75', exemptionReason: null },
      ]);
      expect(invoice.totals.payable).toBe('277.84');
      expect(invoice.seller).toMatchObject({
        legalName: 'Seller Software GmbH',
        electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
      });
    });

    it('answers UBL and CII in both profiles, valid against the official XSDs, with the exact amounts and a filename carrying the number', async () => {
      const s = await seller();
      const invoice = await s.issue({
        allowances: [{ amount: '3.33', reason: 'Promotion', vatCategory: 'S', vatRate: '19' }],
      });
      const documents = [];
      for (const [path, read, xsd] of [
        ['ubl', readUbl, XSD.ublInvoice],
        ['ubl?profile=xrechnung', readUbl, XSD.ublInvoice],
        ['cii', readCii, XSD.cii],
        ['cii?profile=xrechnung', readCii, XSD.cii],
      ] as const) {
        const res = await s.send('GET', `/invoice/${invoice.id}/${path}`);
        const parsed = read(res.body);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
        expect(res.headers['content-disposition']).toMatch(
          new RegExp(`^attachment; filename="invoice-${invoice.number}.*\\.xml"$`),
        );
        expect(parsed.totals.payable).toBe(invoice.totals.payable);
        expectXmlIdentities(parsed, 2);
        documents.push({ name: path, xml: res.body, xsd });
      }
      for (const doc of documents) {
        const [result] = validateAgainstXsd([doc], doc.xsd);
        expect(result!.valid, `${doc.name}: ${result!.errors}`).toBe(true);
      }
    });

    it('carries the number of the quote an invoice was made from as BT-17 in UBL and CII of both profiles, valid against the XSDs, and on its PDF', async () => {
      const s = await seller();
      const quote = (
        await s.send('POST', '/quote', {
          organizationId: s.buyer.id,
          buyerReference: '04011000-12345-34',
          lines: LINES,
        })
      ).json().data;
      expect((await s.send('POST', `/quote/${quote.id}/accept`)).statusCode).toBe(200);
      const made = await s.send('POST', `/quote/${quote.id}/invoice`, { purchaseOrderReference: 'PO-4711' });
      expect(made.statusCode, made.body).toBe(201);
      const invoice = made.json().data.invoice;
      const number = quote.number as string;
      const documents = [];
      for (const [path, xsd, reference] of [
        [
          'ubl',
          XSD.ublInvoice,
          `<cac:OriginatorDocumentReference><cbc:ID>${number}</cbc:ID></cac:OriginatorDocumentReference>`,
        ],
        [
          'ubl?profile=xrechnung',
          XSD.ublInvoice,
          `<cac:OriginatorDocumentReference><cbc:ID>${number}</cbc:ID></cac:OriginatorDocumentReference>`,
        ],
        [
          'cii',
          XSD.cii,
          `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>${number}</ram:IssuerAssignedID><ram:TypeCode>50</ram:TypeCode></ram:AdditionalReferencedDocument>`,
        ],
        [
          'cii?profile=xrechnung',
          XSD.cii,
          `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>${number}</ram:IssuerAssignedID><ram:TypeCode>50</ram:TypeCode></ram:AdditionalReferencedDocument>`,
        ],
      ] as const) {
        const res = await s.send('GET', `/invoice/${invoice.id}/${path}`);
        expect(res.statusCode, res.body).toBe(200);
        const xml = res.body.replace(/>\s+</g, '><');
        expect(xml, path).toContain(reference);
        // BT-13 stays the buyer's own order number.
        expect(xml, path).toContain('PO-4711');
        documents.push({ name: path, xml: res.body, xsd });
      }
      for (const doc of documents) {
        const [result] = validateAgainstXsd([doc], doc.xsd);
        expect(result!.valid, `${doc.name}: ${result!.errors}`).toBe(true);
      }
      const pdf = (await s.send('GET', `/invoice/${invoice.id}/pdf?lang=de`)).rawPayload;
      expect(pdfText(pdf)).toMatch(new RegExp(`Unser Angebot\\s+${number}`));
      expect(readCii(pdfAttachments(pdf).first!).totals.payable).toBe(invoice.totals.payable);
    });

    it('answers a PDF with the Factur-X CII embedded, in the language asked for', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const res = await s.send('GET', `/invoice/${invoice.id}/pdf?lang=de`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="invoice-${invoice.number}.pdf"`);
      const pdf = res.rawPayload;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfAttachments(pdf).names).toEqual(['factur-x.xml']);
      expect(pdfText(pdf)).toContain('Rechnung');
      expect(readCii(pdfAttachments(pdf).first!).totals.payable).toBe(invoice.totals.payable);
    });

    it('gives a draft a PDF marked DRAFT and no e-invoice (409 INVOICE_NOT_ISSUED)', async () => {
      const s = await seller();
      const draft = await s.issue({ status: 'draft' });
      const pdf = await s.send('GET', `/invoice/${draft.id}/pdf`);
      expect(pdf.statusCode).toBe(200);
      expect(pdfText(pdf.rawPayload)).toContain('DRAFT');
      expect(pdfAttachments(pdf.rawPayload).names).toEqual([]);
      for (const format of ['ubl', 'cii']) {
        const res = await s.send('GET', `/invoice/${draft.id}/${format}`);
        expect(res.statusCode).toBe(409);
        expect(res.json().error.code).toBe('INVOICE_NOT_ISSUED');
      }
    });

    it('answers 422 EINVOICE_INCOMPLETE naming each gap by its rule instead of an invalid document', async () => {
      const s = await seller([]);
      const invoice = await s.issue({ buyerReference: null });
      const res = await s.send('GET', `/invoice/${invoice.id}/ubl?profile=xrechnung`);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('EINVOICE_INCOMPLETE');
      const codes = res.json().error.details.map((d: { field: string; code: string }) => `${d.field} ${d.code}`);
      expect(codes).toEqual(
        expect.arrayContaining([
          'buyerReference BR-DE-15',
          expect.stringMatching(/^seller\.address\.city BR-/),
          expect.stringMatching(/^seller\.contact/),
        ]),
      );
      for (const detail of res.json().error.details) expect(detail.message.length).toBeGreaterThan(10);
    });

    it('refuses to issue with validateFor an invoice that could not be exported, and takes no number for it', async () => {
      const s = await seller([]);
      const refused = await t.post(
        '/invoice',
        { organizationId: s.buyer.id, lines: LINES, validateFor: ['xrechnung'] },
        s.key,
      );
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.details.map((d: { code: string }) => d.code)).toContain('BR-DE-15');
      const draft = (
        await t.post('/invoice', { organizationId: s.buyer.id, lines: LINES, status: 'draft' }, s.key)
      ).json().data;
      const finalize = await s.send('POST', `/invoice/${draft.id}/finalize`, { validateFor: ['peppol'] });
      expect(finalize.statusCode).toBe(422);
      expect((await s.send('GET', `/invoice/${draft.id}`)).json().data.status).toBe('draft');
      // Once the seller's data is complete, both go through, numbered from 00001.
      expect((await cli('company', 'update', s.companyId, ...SELLER_PROFILE)).code).toBe(0);
      await s.send('PATCH', `/invoice/${draft.id}`, { buyerReference: 'R-2' });
      const issued = await t.post(
        '/invoice',
        { organizationId: s.buyer.id, buyerReference: 'R-1', lines: LINES, validateFor: ['peppol', 'xrechnung'] },
        s.key,
      );
      expect(issued.statusCode, issued.body).toBe(201);
      expect(issued.json().data.number).toMatch(/-00001$/);
      const finalized = await s.send('POST', `/invoice/${draft.id}/finalize`, { validateFor: ['peppol'] });
      expect(finalized.statusCode, finalized.body).toBe(200);
      expect((await s.send('POST', `/invoice/${draft.id}/finalize`, { validateFor: ['nope'] })).statusCode).toBe(400);
    });

    it('answers credit notes as UBL CreditNote and CII 381 referencing the invoice, valid against the XSDs', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const note = (
        await s.send('POST', '/credit-note', { invoiceId: invoice.id, reason: 'Returned books', lines: [LINES[1]!] })
      ).json().data;
      const ubl = await s.send('GET', `/credit-note/${note.id}/ubl`);
      expect(ubl.statusCode, ubl.body).toBe(200);
      expect(ubl.headers['content-disposition']).toBe(`attachment; filename="credit-note-${note.number}.xml"`);
      expect(ubl.body).toContain('<CreditNote');
      expect(ubl.body).toContain(`<cbc:ID>${invoice.number}</cbc:ID>`);
      const cii = await s.send('GET', `/credit-note/${note.id}/cii`);
      expect(cii.body).toContain('<ram:TypeCode>381</ram:TypeCode>');
      expect(validateAgainstXsd([{ name: 'cn-ubl', xml: ubl.body }], XSD.ublCreditNote)[0]!.valid).toBe(true);
      expect(validateAgainstXsd([{ name: 'cn-cii', xml: cii.body }], XSD.cii)[0]!.valid).toBe(true);
      expect((await s.send('GET', `/credit-note/${note.id}/pdf`)).statusCode).toBe(200);
    });

    it('keeps the seller as it was at issue in the invoice and its documents after the profile changes', async () => {
      const s = await seller();
      const invoice = await s.issue();
      expect(
        (
          await cli(
            'company',
            'update',
            s.companyId,
            '--legal-name',
            'Renamed GmbH',
            '--iban',
            'DE02120300000000202051',
          )
        ).code,
      ).toBe(0);
      const read = (await s.send('GET', `/invoice/${invoice.id}`)).json().data;
      expect(read.seller.legalName).toBe('Seller Software GmbH');
      expect(read.paymentMeans.iban).toBe('DE89370400440532013000');
      const ubl = (await s.send('GET', `/invoice/${invoice.id}/ubl`)).body;
      expect(ubl).toContain('Seller Software GmbH');
      expect(ubl).not.toContain('Renamed GmbH');
    });

    it("gives a Dutch seller's KVK number and a register id written <ICD>:<id> their ISO 6523 schemes, so Peppol's Dutch rules (NL-R-003, NL-R-005) pass", async () => {
      const dutch = [
        '--legal-name',
        'Verkoper B.V.',
        '--line1',
        'Damrak 1',
        '--city',
        'Amsterdam',
        '--postal-code',
        '1012 LG',
        '--country',
        'NL',
        '--vat-id',
        'NL123456789B01',
        '--legal-registration-id',
        '12345678',
        '--electronic-address',
        '0106:12345678',
        '--contact-name',
        'Anna',
        '--contact-phone',
        '+31 20 1234567',
        '--contact-email',
        'ap@verkoper.example',
        '--iban',
        'DE89370400440532013000',
      ];
      const s = await seller(dutch);
      const buyer = (
        await s.send('POST', '/organization', {
          name: 'Koper B.V.',
          vatId: 'NL987654321B01',
          legalRegistrationId: '87654321',
          address: { line1: 'Coolsingel 40', city: 'Rotterdam', postalCode: '3011 AD', countryCode: 'NL' },
          electronicAddress: { scheme: '0106', identifier: '87654321' },
          isCustomer: true,
        })
      ).json().data;
      const invoice = (
        await t.post('/invoice', { organizationId: buyer.id, buyerReference: 'PO-1', lines: LINES }, s.key)
      ).json().data;
      const ubl = await s.send('GET', `/invoice/${invoice.id}/ubl`);
      expect(ubl.statusCode, ubl.body).toBe(200);
      expect(ubl.body).toContain('<cbc:CompanyID schemeID="0106">12345678</cbc:CompanyID>');
      expect(ubl.body).toContain('<cbc:CompanyID schemeID="0106">87654321</cbc:CompanyID>');
      // Elsewhere a register id without a scheme stays as given; "0208:…" names the Belgian scheme.
      expect(legalRegistrationOf('HRB 4711', { vatId: 'DE811907980', countryCode: 'DE' })).toEqual({
        id: 'HRB 4711',
        schemeId: null,
      });
      expect(legalRegistrationOf('12345678', { vatId: null, countryCode: 'DE' })).toEqual({
        id: '12345678',
        schemeId: null,
      });
      expect(legalRegistrationOf('0208:0123456749', { vatId: 'BE0123456749', countryCode: 'BE' })).toEqual({
        id: '0123456749',
        schemeId: '0208',
      });
      expect(legalRegistrationOf('12345678901234567890', { vatId: null, countryCode: 'NL' })).toEqual({
        id: '12345678901234567890',
        schemeId: '0190',
      });
      expect(legalRegistrationOf('9999:x', { vatId: null, countryCode: 'NL' })).toEqual({
        id: '9999:x',
        schemeId: null,
      });
    });

    it("answers 404 for another company's documents", async () => {
      const s = await seller();
      const other = await seller();
      const invoice = await s.issue();
      for (const format of ['ubl', 'cii', 'pdf'])
        expect((await other.send('GET', `/invoice/${invoice.id}/${format}`)).statusCode).toBe(404);
    });
  });
}
