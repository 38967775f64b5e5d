import { describe, expect, it } from 'vitest';
import type { DocumentInput } from '../../../src/documents/build-view.js';
import { problemsFor, problemsForEach } from '../../../src/documents/index.js';
import { Decimal } from '../../../src/money/decimal.js';
import type { VatCategory } from '../../../src/money/invoice-calculation.js';
import { germanInput, viewOf } from '../../helpers/sample-document.js';
import type { Profile } from '../../../src/documents/model.js';

// problemsFor names each gap by its official rule and by the field the API user sets.

const problems = (
  input: DocumentInput,
  profiles: Parameters<typeof problemsFor>[1] = ['en16931', 'peppol', 'xrechnung'],
) => problemsFor(viewOf(input), profiles);
const codesOf = (input: DocumentInput, profiles?: Parameters<typeof problemsFor>[1]) =>
  problems(input, profiles).map((p) => `${p.field} ${p.code}`);
const base = germanInput();
const withCategory = (vatCategory: VatCategory, extra: Partial<DocumentInput> = {}): DocumentInput => ({
  ...base,
  allowances: [],
  charges: [],
  lines: [
    {
      ...base.lines[1]!,
      vatCategory,
      vatRate: new Decimal(vatCategory === 'S' ? '19' : '0'),
      exemptionReason: vatCategory === 'E' ? 'Exempt' : null,
    },
  ],
  ...extra,
});

describe('problemsFor', () => {
  it('finds nothing to complain about in a complete German invoice, for any profile', () => {
    expect(problems(base)).toEqual([]);
  });

  it('names the missing seller country and the unknown unit code by rule and field', () => {
    const input = {
      ...base,
      seller: { ...base.seller, address: { ...base.seller.address, countryCode: null } },
      lines: base.lines.map((l, i) => (i === 2 ? { ...l, unitCode: 'XYZ' } : l)),
    };
    const found = problems(input, ['en16931']);
    expect(found).toContainEqual(expect.objectContaining({ field: 'seller.address.countryCode', code: 'BR-9' }));
    expect(found).toContainEqual(expect.objectContaining({ field: 'lines[2].unitCode', code: 'BR-CL-23' }));
    expect(found.find((p) => p.code === 'BR-9')!.message).toMatch(/country/);
  });

  it('asks for the electronic addresses in Peppol and XRechnung, but not in plain EN 16931', () => {
    const input = { ...base, buyer: { ...base.buyer, electronicAddress: null } };
    expect(codesOf(input, ['peppol'])).toContain('buyer.electronicAddress PEPPOL-EN16931-R010');
    expect(codesOf(input, ['xrechnung'])).toContain('buyer.electronicAddress PEPPOL-EN16931-R010');
    expect(codesOf(input, ['en16931'])).toEqual([]);
  });

  it('asks for the buyer reference and the seller contact in XRechnung (BR-DE-15, BR-DE-7)', () => {
    const input = {
      ...base,
      buyerReference: null,
      seller: { ...base.seller, contact: { ...base.seller.contact!, email: null } },
    };
    expect(codesOf(input, ['xrechnung'])).toEqual(
      expect.arrayContaining(['buyerReference BR-DE-15', 'seller.contact.email BR-DE-7']),
    );
    // Peppol asks the same between two German parties, under its DE-R ids.
    expect(codesOf(input, ['peppol'])).toEqual(
      expect.arrayContaining(['buyerReference DE-R-015', 'seller.contact.email DE-R-007']),
    );
  });

  it('lets a Peppol invoice between non-German parties go without a seller contact', () => {
    const input = {
      ...base,
      seller: {
        ...base.seller,
        contact: null,
        vatId: 'AT123456789',
        address: { ...base.seller.address, countryCode: 'AT' },
      },
      buyer: { ...base.buyer, vatId: 'FR12345678901', address: { ...base.buyer.address, countryCode: 'FR' } },
    };
    expect(codesOf(input, ['peppol'])).toEqual([]);
    expect(codesOf(input, ['xrechnung'])).toContain('seller.contact BR-DE-2');
  });

  it('asks reverse charge and intra-community supplies for both VAT ids, and the latter for its delivery date', () => {
    const noBuyerVat = { ...base.buyer, vatId: null };
    // The reverse-charge reason defaults to VATEX-EU-AE, so only the buyer's VAT id is missing.
    expect(codesOf(withCategory('AE', { buyer: noBuyerVat }), ['en16931'])).toEqual(['buyer.vatId BR-AE-02']);
    expect(codesOf(withCategory('K', { buyer: noBuyerVat, deliveryDate: null }), ['en16931'])).toEqual(
      expect.arrayContaining(['buyer.vatId BR-IC-02', 'deliveryDate BR-IC-11']),
    );
    expect(codesOf(withCategory('K', { seller: { ...base.seller, vatId: null } }), ['en16931'])).toContain(
      'seller.vatId BR-IC-02',
    );
  });

  it('asks an export for the seller VAT id, and a standard-rated line for a VAT id or tax number', () => {
    const noIds = { ...base.seller, vatId: null, taxRegistrationId: null };
    expect(codesOf(withCategory('G', { seller: { ...base.seller, vatId: null } }), ['en16931'])).toContain(
      'seller.vatId BR-G-02',
    );
    expect(codesOf(withCategory('S', { seller: noIds }), ['en16931'])).toContain('seller.vatId BR-S-02');
    expect(codesOf(withCategory('S', { seller: { ...base.seller, vatId: null } }), ['en16931'])).toEqual([]);
  });

  it('refuses an exempt line without its reason (BR-E-10) and mixing O with other categories (BR-O-11)', () => {
    expect(
      codesOf(withCategory('E', { lines: [{ ...base.lines[2]!, exemptionReason: null }] }), ['en16931']),
    ).toContain('lines[0].exemptionReason BR-E-10');
    const mixed = {
      ...base,
      allowances: [],
      charges: [],
      lines: [base.lines[1]!, { ...base.lines[1]!, vatCategory: 'O' as const, vatRate: new Decimal(0) }],
    };
    expect(codesOf(mixed, ['en16931'])).toContain('lines BR-O-11');
  });

  it('leaves the VAT ids out of a document wholly outside the scope of VAT, so BR-O-02 holds', () => {
    const view = viewOf(withCategory('O'));
    expect([view.seller.vatId, view.buyer.vatId]).toEqual([null, null]);
    expect(problemsFor(view, ['en16931', 'xrechnung'])).toEqual([]);
  });

  it('checks VAT id prefixes and deliver-to countries (BR-CO-9, BR-57)', () => {
    const input = {
      ...base,
      buyer: { ...base.buyer, vatId: 'XX811907980' },
      deliverTo: { name: 'Lager', address: { ...base.buyer.address, countryCode: null } },
    };
    expect(codesOf(input, ['en16931'])).toEqual(['buyer.vatId BR-CO-9', 'deliverTo.address.countryCode BR-57']);
    expect(codesOf({ ...base, buyer: { ...base.buyer, vatId: 'EL123456789' } }, ['en16931'])).toEqual([]);
  });

  it('asks a UBL credit note with an amount due for payment terms or means, where its due date can go (BR-CO-25)', () => {
    const note = {
      ...base,
      typeCode: '381' as const,
      precedingInvoice: { number: '2026-00041', issueDate: null },
      paymentMeans: null,
      paymentTerms: null,
    };
    expect(codesOf(note, ['peppol'])).toContain('paymentTerms BR-CO-25');
    expect(codesOf({ ...note, paymentTerms: 'Refunded within 14 days.' }, ['peppol'])).not.toContain(
      'paymentTerms BR-CO-25',
    );
  });

  it('refuses currencies with three minor digits by BR-DEC', () => {
    const found = problems({ ...base, currency: { code: 'KWD', minorDigits: 3 } }, ['en16931']);
    expect(found).toEqual([expect.objectContaining({ field: 'currency', code: 'BR-DEC-09' })]);
    expect(found[0]!.message).toMatch(/KWD/);
  });

  it('checks Peppol identifier schemes: an e-mail address is not a Peppol endpoint, a GLN needs its check digit', () => {
    const input = {
      ...base,
      seller: { ...base.seller, electronicAddress: { id: 'a@b.example', schemeId: 'EM' } },
      buyer: { ...base.buyer, electronicAddress: { id: '4000001123453', schemeId: '0088' } },
    };
    expect(codesOf(input, ['peppol'])).toEqual(
      expect.arrayContaining([
        'seller.electronicAddress.schemeId PEPPOL-EN16931-CL008',
        'buyer.electronicAddress.id PEPPOL-COMMON-R040',
      ]),
    );
    expect(codesOf(input, ['en16931'])).toEqual([]);
  });

  it('asks a SEPA direct debit in XRechnung for the creditor id and the payer IBAN', () => {
    const input = {
      ...base,
      paymentMeans: {
        code: '59' as const,
        remittanceInformation: null,
        creditTransfer: null,
        card: null,
        directDebit: { mandateReference: 'M-1', creditorId: null, debitedAccountId: null },
      },
    };
    expect(codesOf(input, ['xrechnung'])).toEqual(
      expect.arrayContaining([
        'paymentMeans.directDebit.creditorId BR-DE-30',
        'paymentMeans.directDebit.debitedAccountId BR-DE-31',
      ]),
    );
  });
});

describe('problemsFor with Peppol national rules', () => {
  const from = (country: string, seller: Partial<DocumentInput['seller']>) => ({
    ...base,
    seller: { ...base.seller, vatId: null, ...seller, address: { ...base.seller.address, countryCode: country } },
  });

  it('asks a Dutch seller for its KVK or OIN number (NL-R-003)', () => {
    expect(codesOf(from('NL', { vatId: 'NL123456789B01', legalRegistrationId: null }), ['peppol'])).toContain(
      'seller.legalRegistrationId NL-R-003',
    );
    expect(
      codesOf(from('NL', { vatId: 'NL123456789B01', legalRegistrationId: { id: '12345678', schemeId: '0106' } }), [
        'peppol',
      ]),
    ).toEqual([]);
  });

  it('asks a Norwegian seller for a VAT number of the form NO…MVA (NO-R-001)', () => {
    expect(codesOf(from('NO', { vatId: 'NO123456789' }), ['peppol'])).toContain('seller.vatId NO-R-001');
    expect(codesOf(from('NO', { vatId: 'NO974760673MVA' }), ['peppol'])).toEqual([]);
  });

  it('refuses Greek sellers, whose invoice numbers and MARK this service cannot issue', () => {
    expect(codesOf(from('GR', { vatId: 'EL123456789' }), ['peppol'])).toContain('seller.vatId GR-R-001-1');
    expect(codesOf(from('GR', { vatId: 'EL123456789' }), ['en16931'])).toEqual([]);
  });
});

describe('problemsForEach', () => {
  const sets: Profile[][] = [['en16931'], ['en16931', 'peppol'], ['en16931', 'xrechnung'], []];
  const incomplete: DocumentInput[] = [
    base,
    {
      ...base,
      buyerReference: null,
      buyer: { ...base.buyer, electronicAddress: null },
      seller: { ...base.seller, address: { ...base.seller.address, countryCode: null } },
      lines: base.lines.map((l, i) => (i === 2 ? { ...l, unitCode: 'XYZ' } : l)),
    },
    withCategory('K', { deliveryDate: null }),
    withCategory('E', { buyer: { ...base.buyer, electronicAddress: null } }),
    { ...base, currency: { code: 'KWD', minorDigits: 3 } },
  ];

  it('answers each set of profiles what problemsFor answers for that set alone', () => {
    for (const input of incomplete) {
      const view = viewOf(input);
      expect(problemsForEach(view, sets)).toEqual(sets.map((profiles) => problemsFor(viewOf(input), profiles)));
    }
  });

  it("keeps one set's gaps out of another's when they are worked out together", () => {
    const [en16931, peppol, xrechnung, none] = problemsForEach(viewOf(incomplete[1]!), sets);
    const codes = (found: { field: string; code: string }[] | undefined) => found!.map((p) => `${p.field} ${p.code}`);
    expect(codes(en16931)).toContain('seller.address.countryCode BR-9');
    expect(codes(en16931)).not.toContain('buyer.electronicAddress PEPPOL-EN16931-R010');
    expect(codes(peppol)).toContain('buyer.electronicAddress PEPPOL-EN16931-R010');
    expect(codes(peppol)).not.toContain('buyerReference BR-DE-15');
    expect(codes(xrechnung)).toContain('buyerReference BR-DE-15');
    expect(none).toEqual([]);
  });
});
