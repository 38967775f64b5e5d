import fc from 'fast-check';
import type { DocumentInput, DocumentLineInput } from '../../src/documents/build-view.js';
import { UNIT_CODES } from '../../src/documents/unit-codes.js';
import type { Party, PaymentMeans } from '../../src/documents/model.js';
import { Decimal } from '../../src/money/decimal.js';
import type { AllowanceChargeFigures, VatCategory } from '../../src/money/invoice-calculation.js';
import { decimalString } from './invoice-arbitraries.js';

// Random complete invoices and credit notes for the document tests and the official validation
// script: every VAT category (O alone, the others mixed), document allowances and charges, both
// price modes, currencies with 0, 2 and 3 minor digits, every payment means.

export const CURRENCY_DIGITS: Record<string, number> = {
  EUR: 2,
  USD: 2,
  CHF: 2,
  GBP: 2,
  SEK: 2,
  JPY: 0,
  KRW: 0,
  KWD: 3,
  BHD: 3,
};

/** A GS1 GLN: twelve digits and the check digit. */
export function glnFrom(twelve: string): string {
  const total = [...twelve].reverse().reduce((sum, d, i) => sum + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return twelve + String((10 - (total % 10)) % 10);
}

/** A German IBAN with valid check digits for an 18-digit account. */
export function germanIban(bban: string): string {
  const numeric = `${bban}131400`; // D=13, E=14, then 00
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  return `DE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

const digitsOf = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const text = (words: string[]) => fc.constantFrom(...words);

const STANDARD_RATES = ['19', '7', '20', '21', '5.5', '8.1', '10', '25'];
const rateFor = (category: VatCategory) =>
  category === 'S'
    ? fc.oneof(
        fc.constantFrom(...STANDARD_RATES),
        decimalString({ maxInt: 2, maxScale: 2, min: 1n, max: 99n }).filter((r) => Number(r) > 0),
      )
    : fc.constant('0');

const EXEMPTION: Partial<Record<VatCategory, string>> = {
  E: 'Exempt under Article 132(1)(i) of Directive 2006/112/EC',
  AE: 'Reverse charge: the recipient owes the VAT (Article 196 of Directive 2006/112/EC)',
};

function lineArbitrary(categories: VatCategory[]): fc.Arbitrary<DocumentLineInput> {
  return fc.constantFrom(...categories).chain((vatCategory) =>
    fc
      .record({
        name: text([
          'Consulting',
          'Handbook',
          'Training day',
          'Licence — annual',
          'Straße & Söhne <service>',
          'Café crème',
          'Bell\u0007 and \uFFFE are not XML',
        ]),
        description: fc.option(text(['Includes travel', 'Per attendee', 'Zeilenbeschreibung mit Umlauten: äöü']), {
          nil: null,
        }),
        quantity: decimalString({ maxInt: 4, maxScale: 6, min: -999n, max: 9999n }).filter((q) => Number(q) !== 0),
        unitCode: fc.constantFrom(...Object.keys(UNIT_CODES)),
        unitPrice: decimalString({ maxInt: 5, maxScale: 6, min: 0n, max: 99_999n }),
        discountPercent: fc.option(
          fc.oneof(fc.constant('100'), decimalString({ maxInt: 2, maxScale: 4, min: 0n, max: 99n })),
          { nil: null },
        ),
        vatRate: rateFor(vatCategory),
        // A reason given on a standard-rated line must not reach the document (BR-S-10).
        strayReason: fc.boolean(),
      })
      .map(({ strayReason, ...l }): DocumentLineInput => ({
        name: l.name,
        description: l.description,
        unitCode: l.unitCode,
        quantity: new Decimal(l.quantity),
        unitPrice: new Decimal(l.unitPrice),
        discountPercent:
          l.discountPercent === null || Number(l.discountPercent) === 0 ? null : new Decimal(l.discountPercent),
        vatRate: new Decimal(l.vatRate),
        vatCategory,
        exemptionReason: EXEMPTION[vatCategory] ?? (strayReason && vatCategory === 'S' ? 'Not exempt' : null),
      })),
  );
}

function adjustmentArbitrary(
  categories: VatCategory[],
  charge: boolean,
  digits: number,
): fc.Arbitrary<AllowanceChargeFigures> {
  return fc.constantFrom(...categories).chain((vatCategory) =>
    fc
      .record({
        amount: decimalString({ maxInt: 4, maxScale: Math.min(digits, 2), min: 0n, max: 9_999n }),
        vatRate: rateFor(vatCategory),
        reason: fc.option(
          charge ? text(['Freight', 'Packing', 'Express surcharge']) : text(['Loyalty discount', 'Early order rebate']),
          { nil: null },
        ),
        withCode: fc.boolean(),
      })
      .map(({ amount, vatRate, reason, withCode }) => ({
        amount: new Decimal(amount),
        vatCategory,
        vatRate: new Decimal(vatRate),
        reason: reason ?? (charge ? 'Freight' : 'Discount'),
        reasonCode: withCode ? (charge ? 'FC' : '95') : null,
      })),
  );
}

const address = (country: string) =>
  fc.record({
    line1: fc.constantFrom('Hauptstraße 1', 'Rue de la Paix 12', 'Main street 5'),
    line2: fc.option(fc.constantFrom('Hinterhaus', 'Bâtiment B'), { nil: null }),
    city: fc.constantFrom('Berlin', 'München', 'Paris', 'Wien'),
    postalCode: digitsOf(5),
    countryCode: fc.constant(country),
  });

/** A Norwegian organisation number: eight digits and the mod-11 check digit (never 10). */
const norwegianOrgNumber = digitsOf(8)
  .map((eight) => {
    const total = [3, 2, 7, 6, 5, 4, 3, 2].reduce((sum, w, i) => sum + w * Number(eight[i]), 0);
    const check = (11 - (total % 11)) % 11;
    return check === 10 ? null : eight + String(check);
  })
  .filter((n): n is string => n !== null);

/** The seller's VAT id and register entry, as its country's Peppol rules want them. */
function sellerIds(country: string, digits: string, orgNumber: string, register: string | null, outsideScope: boolean) {
  if (country === 'NO') return { vatId: `NO${orgNumber}MVA`, legal: { id: orgNumber, schemeId: '0192' } };
  if (country === 'NL') return { vatId: `NL${digits}B01`, legal: { id: digits.slice(0, 8), schemeId: '0106' } };
  return {
    vatId: `${country}${digits}`,
    legal: register || outsideScope ? { id: register ?? 'HRB 12345', schemeId: null } : null,
  };
}

function sellerArbitrary(outsideScope: boolean): fc.Arbitrary<Party> {
  return fc
    .record({
      country: fc.constantFrom('DE', 'DE', 'DE', 'AT', 'FR', 'NL', 'NO'),
      orgNumber: norwegianOrgNumber,
      vatDigits: digitsOf(9),
      glnDigits: digitsOf(12),
      taxNumber: fc.option(
        digitsOf(10).map((d) => `${d.slice(0, 3)}/${d.slice(3, 6)}/${d.slice(6)}`),
        { nil: null },
      ),
      tradingName: fc.option(fc.constant('Muster Shop'), { nil: null }),
      register: fc.option(fc.constantFrom('HRB 12345', 'FN 123456a'), { nil: null }),
      endpointIsVat: fc.boolean(),
    })
    .chain((s) =>
      address(s.country).map((a): Party => {
        // Outside the scope of VAT the VAT id is not stated, so another id must name the seller (BR-CO-26).
        const { vatId, legal } = sellerIds(s.country, s.vatDigits, s.orgNumber, s.register, outsideScope);
        const gln = glnFrom(s.glnDigits);
        return {
          name: 'Muster Software GmbH & Co. KG',
          tradingName: s.tradingName,
          identifier: null,
          legalRegistrationId: legal,
          vatId,
          taxRegistrationId: s.taxNumber,
          electronicAddress:
            s.endpointIsVat && !outsideScope && s.country === 'DE'
              ? { id: vatId, schemeId: '9930' }
              : { id: gln, schemeId: '0088' },
          address: a,
          contact: { name: 'Erika Mustermann', phone: '+49 30 1234567', email: 'billing@muster.example' },
        };
      }),
    );
}

function buyerArbitrary(needsVatId: boolean): fc.Arbitrary<Party> {
  return fc
    .record({
      country: fc.constantFrom('DE', 'FR', 'AT', 'BE', 'IT'),
      vatDigits: digitsOf(9),
      glnDigits: digitsOf(12),
      hasVatId: fc.boolean(),
      contact: fc.option(
        fc.record({
          name: fc.constant('Max Käufer'),
          phone: fc.constant('+33 1 23 45 67 89'),
          email: fc.constant('ap@buyer.example'),
        }),
        { nil: null },
      ),
    })
    .chain((b) =>
      address(b.country).map((a): Party => ({
        name: 'Acme Trading SARL',
        tradingName: null,
        identifier: null,
        legalRegistrationId: null,
        vatId: needsVatId || b.hasVatId ? `${b.country}${b.vatDigits}` : null,
        // The API keeps a buyer's tax number; EN 16931 has no place for it, so it must not appear.
        taxRegistrationId: b.hasVatId ? null : '12/345/67890',
        electronicAddress: { id: glnFrom(b.glnDigits), schemeId: '0088' },
        address: a,
        contact: b.contact,
      })),
    );
}

const paymentMeansArbitrary: fc.Arbitrary<PaymentMeans> = fc
  .record({ code: fc.constantFrom('58', '30', '59', '49', '48', '10'), account: digitsOf(18), payer: digitsOf(18) })
  .map(({ code, account, payer }): PaymentMeans => {
    const transfer = code === '58' || code === '30';
    const debit = code === '59' || code === '49';
    return {
      code: code as PaymentMeans['code'],
      remittanceInformation: null,
      creditTransfer: transfer
        ? { accountId: germanIban(account), accountName: 'Muster Software GmbH', serviceProviderId: 'COBADEFFXXX' }
        : null,
      card: code === '48' ? { accountNumber: '1234', holderName: 'Max Käufer' } : null,
      directDebit: debit
        ? { mandateReference: 'MANDATE-42', creditorId: 'DE98ZZZ09999999999', debitedAccountId: germanIban(payer) }
        : null,
    };
  });

const PLANS: VatCategory[][] = [
  ['O'],
  ['S'],
  ['S', 'Z'],
  ['S', 'E'],
  ['AE'],
  ['K'],
  ['G'],
  ['S', 'Z', 'E', 'AE', 'K', 'G'],
];

export interface DocumentOptions {
  /** Minor-unit digits the currency may have. */
  digits: number[];
}

export function documentInputArbitrary(options: DocumentOptions = { digits: [0, 2] }): fc.Arbitrary<DocumentInput> {
  const currencies = Object.entries(CURRENCY_DIGITS)
    .filter(([, d]) => options.digits.includes(d))
    .map(([c]) => c);
  const plan = fc.oneof(
    fc.constantFrom(...PLANS),
    fc.subarray(['S', 'Z', 'E', 'AE', 'K', 'G'] as VatCategory[], { minLength: 1 }),
  );
  return fc.tuple(plan, fc.constantFrom(...currencies)).chain(([categories, currency]) => {
    const digits = CURRENCY_DIGITS[currency]!;
    const outsideScope = categories.includes('O');
    return fc
      .record({
        typeCode: fc.constantFrom('380', '381'),
        test: fc.boolean(),
        sequence: fc.integer({ min: 1, max: 99_999 }),
        day: fc.integer({ min: 1, max: 28 }),
        pricesIncludeTax: fc.boolean(),
        seller: sellerArbitrary(outsideScope),
        buyer: buyerArbitrary(categories.includes('AE') || categories.includes('K')),
        paymentMeans: paymentMeansArbitrary,
        // Allowances and charges take the categories of the lines, so every group has a line
        // that gives its exemption reason.
        linesAndAdjustments: fc.array(lineArbitrary(categories), { minLength: 1, maxLength: 6 }).chain((lines) => {
          const used = [...new Set(lines.map((l) => l.vatCategory))];
          return fc.record({
            lines: fc.constant(lines),
            allowances: fc.array(adjustmentArbitrary(used, false, digits), { maxLength: 2 }),
            charges: fc.array(adjustmentArbitrary(used, true, digits), { maxLength: 2 }),
          });
        }),
        note: fc.option(fc.constant('Thank you for your order.'), { nil: null }),
        paymentTerms: fc.option(fc.constantFrom('Payable within 30 days.', '#SKONTO#TAGE=14#PROZENT=2.00#'), {
          nil: null,
        }),
        period: fc.boolean(),
        purchaseOrderReference: fc.option(fc.constant('PO-4711'), { nil: null }),
        tenderReference: fc.option(fc.constant('Q-2026-00017'), { nil: null }),
        deliverTo: fc.option(
          address('DE').map((a) => ({ name: 'Lager Nord', address: a })),
          { nil: null, freq: 4 },
        ),
      })
      .map((r): DocumentInput => {
        const month = '03';
        const issueDate = `2026-${month}-${String(r.day).padStart(2, '0')}`;
        const number = `${r.test ? 'TEST-' : ''}2026-${String(r.sequence).padStart(5, '0')}`;
        return {
          typeCode: r.typeCode as '380' | '381',
          number,
          issueDate,
          dueDate: `2026-04-${String(r.day).padStart(2, '0')}`,
          currency: { code: currency, minorDigits: digits },
          buyerReference: '04011000-12345-03',
          purchaseOrderReference: r.purchaseOrderReference,
          tenderReference: r.tenderReference,
          note: r.note,
          paymentTerms: r.paymentTerms,
          deliveryDate: r.period ? null : issueDate,
          invoicePeriod: r.period ? { startDate: '2026-02-01', endDate: '2026-02-28' } : null,
          deliverTo: r.deliverTo,
          precedingInvoice: r.typeCode === '381' ? { number: '2026-00001', issueDate: '2026-01-15' } : null,
          seller: r.seller,
          buyer: r.buyer,
          paymentMeans: r.paymentMeans,
          ...r.linesAndAdjustments,
          pricesIncludeTax: r.pricesIncludeTax,
          draft: false,
          test: r.test,
        };
      });
  });
}
