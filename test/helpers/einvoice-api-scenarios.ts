import fc from 'fast-check';
import { UNIT_CODES } from '../../src/documents/unit-codes.js';
import type { VatCategory } from '../../src/money/invoice-calculation.js';
import type { ProfileChanges } from '../../src/schemas/company.js';
import { BASE_PATH, type TestApp } from './build.js';
import { germanIban, glnFrom } from './document-arbitraries.js';
import { decimalString } from './invoice-arbitraries.js';

// Random companies, buyers, invoices and credit notes as an API user makes them, for the
// e-invoice property test through the API and for scripts/validate-einvoices.mjs --api: seller
// profiles in DE, AT, FR, NL and BE with electronic addresses, buyers in six countries, every
// VAT category with the party data it needs, document allowances and charges, line discounts,
// net and gross prices, currencies with 0 and 2 minor digits (3 on request), every payment
// means, delivery date or invoice period; then credit notes of some (with and without lines)
// and voided invoices' credit notes.
//
// Each scenario knows the gaps it was made with on purpose (no seller contact, no buyer
// reference, an email address as the buyer's endpoint, …) and so the rules a profile's
// document must be refused by (422 EINVOICE_INCOMPLETE); every other document must be answered.

type Json = Record<string, unknown>;

export type Target = 'peppol' | 'xrechnung' | 'en16931';

export const SELLER_COUNTRIES = ['DE', 'AT', 'FR', 'NL', 'BE'] as const;
const BUYER_COUNTRIES = ['DE', 'FR', 'AT', 'BE', 'NL', 'IT'] as const;

export const CURRENCIES: Record<number, string[]> = {
  0: ['JPY', 'KRW'],
  2: ['EUR', 'EUR', 'GBP', 'USD', 'CHF', 'SEK'],
  3: ['KWD', 'BHD'],
};
export const PAYMENT_MEANS = ['58', '30', '59', '49', '48', '10'] as const;

export type CreditPlan =
  | { kind: 'none' }
  | { kind: 'full' }
  | { kind: 'lines'; lines: Json[] }
  | { kind: 'void' }
  | { kind: 'lines-then-void'; lines: Json[] };

export interface ApiScenario {
  sellerCountry: string;
  /** The company's own currency (invoices may name another). */
  companyCurrency: string;
  profile: ProfileChanges;
  buyer: Json;
  /** POST /invoice without organizationId. */
  invoice: Json;
  credit: CreditPlan;
  /** Issued at once, or made a draft and finalized. */
  issue: 'issued' | 'draft';
  /** The profiles asked for with validateFor: some of those the scenario has no gap for. */
  validateFor: Target[];
  /** Minor-unit digits of the invoice's currency. */
  digits: number;
  /** The rules each profile's document is refused by, from the gaps the scenario was made with. */
  expectedGaps: Record<Target, string[]>;
}

const digitsOf = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });

/** A Belgian enterprise number: 0 or 1, seven digits, and 97 − (the eight mod 97). */
const belgianEnterpriseNumber = fc.tuple(fc.constantFrom('0', '1'), digitsOf(7)).map(([first, seven]) => {
  const eight = first + seven;
  return eight + String(97 - (Number(eight) % 97)).padStart(2, '0');
});

/** An Italian Partita IVA: ten digits and the Luhn-like check digit Peppol tests (PEPPOL-COMMON-R047). */
const partitaIva = digitsOf(10).map((ten) => {
  const total = [...ten].reduce((sum, d, i) => sum + (i % 2 === 0 ? Number(d) : Number('0246813579'[Number(d)])), 0);
  return ten + String((10 - (total % 10)) % 10);
});

const STANDARD_RATES = ['19', '7', '20', '21', '5.5', '8.1', '10', '25', '6', '13'];
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
  K: 'Intra-community supply, Article 138 of Directive 2006/112/EC',
  G: 'Export outside the EU, Article 146 of Directive 2006/112/EC',
};

function lineArbitrary(categories: VatCategory[], positive: boolean): fc.Arbitrary<Json> {
  return fc.constantFrom(...categories).chain((vatCategory) =>
    fc
      .record({
        name: fc.constantFrom(
          'Consulting',
          'Handbook',
          'Training day',
          'Licence — annual',
          'Straße & Söhne <service>',
          'Café crème',
          'Bell\u0007 and \uFFFE are not XML',
        ),
        description: fc.option(fc.constantFrom('Includes travel', 'Zeilenbeschreibung mit Umlauten: äöü'), {
          nil: undefined,
        }),
        quantity: decimalString({ maxInt: 4, maxScale: 6, min: positive ? 1n : -99n, max: 9999n }).filter(
          (q) => Number(q) !== 0,
        ),
        unitCode: fc.option(fc.constantFrom(...Object.keys(UNIT_CODES)), { nil: undefined }),
        unitPrice: decimalString({ maxInt: 5, maxScale: 6, min: 0n, max: 99_999n }),
        discountPercent: fc.option(
          fc.oneof(fc.constant('100'), decimalString({ maxInt: 2, maxScale: 4, min: 0n, max: 99n })),
          { nil: undefined, freq: 3 },
        ),
        vatRate: rateFor(vatCategory),
        // S and Z may be left to the default (by the rate); a stray reason on S must not reach the XML.
        explicitCategory: fc.boolean(),
        reason: fc.boolean(),
      })
      .map(({ explicitCategory, reason, ...line }) => ({
        ...line,
        ...(explicitCategory || !['S', 'Z'].includes(vatCategory) ? { vatCategory } : {}),
        ...(EXEMPTION[vatCategory] && (reason || vatCategory === 'E' || vatCategory === 'AE')
          ? { exemptionReason: EXEMPTION[vatCategory] }
          : {}),
        ...(vatCategory === 'S' && reason ? { exemptionReason: 'Not exempt' } : {}),
      })),
  );
}

function adjustmentArbitrary(categories: VatCategory[], charge: boolean): fc.Arbitrary<Json> {
  return fc.constantFrom(...categories).chain((vatCategory) =>
    fc
      .record({
        amount: decimalString({ maxInt: 3, maxScale: 4, min: 0n, max: 999n }).filter((a) => Number(a) > 0),
        vatCategory: fc.constant(vatCategory),
        vatRate: rateFor(vatCategory),
        reason: fc.option(
          charge ? fc.constantFrom('Freight', 'Packing') : fc.constantFrom('Loyalty discount', 'Early order rebate'),
          { nil: null },
        ),
        reasonCode: fc.constantFrom(...(charge ? ['FC', 'ABK', null] : ['95', '100', null])),
      })
      .filter((a) => a.reason !== null || a.reasonCode !== null),
  );
}

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

const CITY: Record<string, [string, string, string]> = {
  DE: ['Friedrichstraße 100', 'Berlin', '10117'],
  AT: ['Kärntner Straße 5', 'Wien', '1010'],
  FR: ['12 rue de la Paix', 'Paris', '75002'],
  NL: ['Damrak 1', 'Amsterdam', '1012 LG'],
  BE: ['Rue de la Loi 16', 'Bruxelles', '1000'],
  IT: ['Via Roma 1', 'Milano', '20121'],
};

const address = (country: string) => {
  const [line1, city, postalCode] = CITY[country]!;
  return { line1, city, postalCode, countryCode: country };
};

/** The VAT id of a party in a country. */
function vatIdOf(country: string, digits: string, piva = ''): string {
  switch (country) {
    case 'IT':
      return `IT${piva}`;
    case 'AT':
      return `ATU${digits.slice(0, 8)}`;
    case 'FR':
      return `FR${digits.slice(0, 2)}${digits}`;
    case 'NL':
      return `NL${digits}B01`;
    case 'BE':
      return `BE0${digits}`;
    default:
      return `${country}${digits}`;
  }
}

interface SellerChoice {
  country: string;
  vatDigits: string;
  gln: string;
  kvk: string;
  enterprise: string;
  endpoint: 'vat' | 'gln' | 'national';
  taxNumber: boolean;
  register: 'none' | 'plain' | 'schemed';
  contact: 'full' | 'none';
  account: boolean;
  creditorId: boolean;
  paymentTerms: string | null;
  legalName: boolean;
}

const sellerChoice: fc.Arbitrary<SellerChoice> = fc.record({
  country: fc.constantFrom(...SELLER_COUNTRIES),
  vatDigits: digitsOf(9),
  gln: digitsOf(12).map(glnFrom),
  kvk: digitsOf(8),
  enterprise: belgianEnterpriseNumber,
  endpoint: fc.constantFrom('vat', 'gln', 'national'),
  taxNumber: fc.boolean(),
  register: fc.constantFrom('none', 'plain', 'schemed'),
  contact: fc.constantFrom('full', 'full', 'full', 'full', 'full', 'full', 'none'),
  account: fc.constantFrom(true, true, true, true, false),
  creditorId: fc.constantFrom(true, true, true, false),
  paymentTerms: fc.constantFrom(null, 'Payable within 30 days.', '#SKONTO#TAGE=14#PROZENT=2.00#'),
  legalName: fc.boolean(),
});

/** The seller's profile: the company register entry a Dutch seller needs (KVK), a VAT id unless outside the scope of VAT. */
function sellerProfile(s: SellerChoice, outsideScope: boolean): ProfileChanges {
  const vatId = outsideScope ? null : vatIdOf(s.country, s.vatDigits);
  const national: Record<string, string> = {
    DE: `0088:${s.gln}`,
    AT: `0088:${s.gln}`,
    FR: `0009:${s.vatDigits}00012`,
    NL: `0106:${s.kvk}`,
    BE: `0208:${s.enterprise}`,
  };
  const vatScheme: Record<string, string> = { DE: '9930', AT: '9914', FR: '9957', NL: '9944', BE: '9925' };
  const electronicAddress =
    s.endpoint === 'gln' || (s.endpoint === 'vat' && vatId === null)
      ? `0088:${s.gln}`
      : s.endpoint === 'vat'
        ? `${vatScheme[s.country]}:${vatId}`
        : national[s.country]!;
  // A Dutch seller is named by its KVK number (NL-R-003); outside the scope of VAT every seller
  // needs an identifier besides the VAT id it may not state (BR-CO-26).
  const registers: Record<string, [string, string]> = {
    DE: ['HRB 12345', 'HRB 12345'],
    AT: ['FN 123456a', 'FN 123456a'],
    FR: [`${s.vatDigits}`, `0002:${s.vatDigits}`],
    NL: [s.kvk, `0106:${s.kvk}`],
    BE: [s.enterprise, `0208:${s.enterprise}`],
  };
  const register = s.country === 'NL' || outsideScope ? (s.register === 'schemed' ? 'schemed' : 'plain') : s.register;
  const [plain, schemed] = registers[s.country]!;
  return {
    legalName: s.legalName ? 'Muster Software GmbH & Co. KG' : null,
    ...address(s.country),
    vatId,
    taxNumber:
      s.taxNumber && s.country === 'DE'
        ? `${s.vatDigits.slice(0, 3)}/${s.vatDigits.slice(3, 6)}/${s.vatDigits.slice(6)}0`
        : null,
    legalRegistrationId: register === 'none' ? null : register === 'plain' ? plain : schemed,
    electronicAddress,
    contactName: s.contact === 'full' ? 'Erika Mustermann' : null,
    contactPhone: s.contact === 'full' ? '+49 30 1234567' : null,
    contactEmail: s.contact === 'full' ? 'billing@muster.example' : null,
    iban: s.account ? germanIban(`${s.vatDigits}${s.vatDigits}`) : null,
    bic: s.account ? 'COBADEFFXXX' : null,
    accountName: null,
    paymentTerms: s.paymentTerms,
    creditorId: s.creditorId ? 'DE98ZZZ09999999999' : null,
  };
}

interface BuyerChoice {
  country: string;
  vatDigits: string;
  piva: string;
  gln: string;
  kvk: string;
  enterprise: string;
  person: boolean;
  hasVatId: boolean;
  endpoint: 'gln' | 'vat' | 'national' | 'email';
  email: boolean;
  phone: boolean;
}

const buyerChoice: fc.Arbitrary<BuyerChoice> = fc.record({
  country: fc.constantFrom(...BUYER_COUNTRIES),
  vatDigits: digitsOf(9),
  piva: partitaIva,
  gln: digitsOf(12).map(glnFrom),
  kvk: digitsOf(8),
  enterprise: belgianEnterpriseNumber,
  person: fc.constantFrom(false, false, false, true),
  hasVatId: fc.boolean(),
  endpoint: fc.constantFrom('gln', 'gln', 'vat', 'national', 'national', 'email'),
  email: fc.boolean(),
  phone: fc.boolean(),
});

function buyerBody(b: BuyerChoice, needsVatId: boolean, outsideScope: boolean, n: number): Json {
  const vatId = !outsideScope && (needsVatId || b.hasVatId) ? vatIdOf(b.country, b.vatDigits, b.piva) : null;
  const vatScheme: Record<string, string> = { DE: '9930', AT: '9914', FR: '9957', NL: '9944', BE: '9925', IT: '0211' };
  const national: Record<string, { scheme: string; identifier: string }> = {
    DE: { scheme: '0204', identifier: '04011000-12345-34' },
    BE: { scheme: '0208', identifier: b.enterprise },
    NL: { scheme: '0106', identifier: b.kvk },
  };
  const electronicAddress =
    b.endpoint === 'email'
      ? { scheme: 'EM', identifier: 'invoices@buyer.example' }
      : b.endpoint === 'vat' && vatId
        ? { scheme: vatScheme[b.country]!, identifier: vatId }
        : b.endpoint === 'national' && national[b.country]
          ? national[b.country]!
          : { scheme: '0088', identifier: b.gln };
  return {
    name: b.person ? `Max Käufer ${n}` : `Acme Trading & Söhne <${n}>`,
    isCustomer: true,
    ...(b.person ? { typeCode: 'F', firstName: 'Max', lastName: 'Käufer' } : {}),
    vatId,
    // A Dutch buyer is named by its KVK number (NL-R-005).
    legalRegistrationId: b.country === 'NL' ? b.kvk : null,
    email: b.email ? 'ap@buyer.example' : null,
    phone: b.phone ? '+33 1 23 45 67 89' : null,
    address: address(b.country),
    electronicAddress,
  };
}

interface PaymentChoice {
  code: (typeof PAYMENT_MEANS)[number] | 'default';
  ownAccount: boolean;
  cardDigits: boolean;
  payer: string;
}

const paymentChoice: fc.Arbitrary<PaymentChoice> = fc.record({
  code: fc.constantFrom('default', ...PAYMENT_MEANS),
  ownAccount: fc.boolean(),
  cardDigits: fc.constantFrom(true, true, true, false),
  payer: digitsOf(18),
});

function paymentMeansBody(p: PaymentChoice, companyHasAccount: boolean): Json | null {
  if (p.code === 'default') return null;
  if (p.code === '58' || p.code === '30') {
    // Without an account of its own the invoice takes the company's; with none anywhere the
    // credit transfer would have nowhere to go (BR-61), which is not a gap this test makes.
    return p.ownAccount || !companyHasAccount
      ? { code: p.code, iban: 'DE02 1203 0000 0000 2020 51', bic: 'BYLADEM1001', accountName: 'Muster Treuhand' }
      : { code: p.code };
  }
  if (p.code === '59' || p.code === '49')
    return { code: p.code, mandateReference: 'MANDATE-42', payerIban: germanIban(p.payer) };
  if (p.code === '48') return p.cardDigits ? { code: '48', cardLastDigits: '1234' } : { code: '48' };
  return { code: '10' };
}

export interface ScenarioOptions {
  /** Minor-unit digits of the invoices' currencies. */
  digits: number[];
}

export function apiScenarioArbitrary(options: ScenarioOptions = { digits: [0, 2] }): fc.Arbitrary<ApiScenario> {
  const plan = fc.oneof(
    fc.constantFrom(...PLANS),
    fc.subarray(['S', 'Z', 'E', 'AE', 'K', 'G'] as VatCategory[], { minLength: 1 }),
  );
  const digitsArb = fc.constantFrom(...options.digits);
  return fc.tuple(plan, digitsArb).chain(([categories, digits]) => {
    const outsideScope = categories.includes('O');
    return fc
      .record({
        n: fc.integer({ min: 1, max: 999_999 }),
        seller: sellerChoice,
        buyer: buyerChoice,
        currency: fc.constantFrom(...CURRENCIES[digits]!),
        invoiceNamesCurrency: fc.boolean(),
        positive: fc.constantFrom(true, true, true, false),
        lines: fc.constant(null),
        payment: paymentChoice,
        pricesIncludeTax: fc.boolean(),
        day: fc.integer({ min: 1, max: 28 }),
        dueDate: fc.boolean(),
        delivery: fc.constantFrom('date', 'period', 'none'),
        buyerReference: fc.constantFrom(true, true, true, true, true, true, false),
        purchaseOrderReference: fc.boolean(),
        note: fc.option(fc.constant('Thank you for your order.'), { nil: null }),
        paymentTerms: fc.constantFrom(undefined, 'Net 14 days.', '#SKONTO#TAGE=7#PROZENT=3.00#'),
        credit: fc.constantFrom('none', 'full', 'lines', 'void', 'lines-then-void'),
        issue: fc.constantFrom('issued', 'issued', 'draft'),
        validateFor: fc.subarray(['en16931', 'peppol', 'xrechnung'] as Target[]),
      })
      .chain((r) =>
        fc
          .array(lineArbitrary(categories, r.positive), { minLength: 1, maxLength: 5 })
          .chain((lines) => {
            const used = [
              ...new Set(
                lines.map((l) => (l.vatCategory as VatCategory | undefined) ?? (Number(l.vatRate) === 0 ? 'Z' : 'S')),
              ),
            ];
            return fc.record({
              lines: fc.constant(lines),
              allowances: fc.array(adjustmentArbitrary(used, false), { maxLength: 2 }),
              charges: fc.array(adjustmentArbitrary(used, true), { maxLength: 2 }),
              creditLines: fc.array(lineArbitrary(categories, true), { minLength: 1, maxLength: 2 }),
            });
          })
          .map((l) => ({ ...r, ...l })),
      )
      .map((r): ApiScenario => {
        const needsBuyerVat = categories.includes('AE') || categories.includes('K');
        const profile = sellerProfile(r.seller, outsideScope);
        const buyer = buyerBody(r.buyer, needsBuyerVat, outsideScope, r.n);
        const issueDate = `2026-03-${String(r.day).padStart(2, '0')}`;
        // An intra-community supply states when it was delivered (BR-IC-11).
        const delivery = categories.includes('K') && r.delivery === 'none' ? 'date' : r.delivery;
        const paymentMeans = paymentMeansBody(r.payment, r.seller.account);
        const invoice: Json = {
          issueDate,
          ...(r.dueDate ? { dueDate: `2026-04-${String(r.day).padStart(2, '0')}` } : {}),
          ...(r.invoiceNamesCurrency ? { currency: r.currency } : {}),
          pricesIncludeTax: r.pricesIncludeTax,
          buyerReference: r.buyerReference ? '04011000-12345-34' : null,
          purchaseOrderReference: r.purchaseOrderReference ? 'PO-4711' : null,
          note: r.note,
          lines: r.lines,
          ...(paymentMeans ? { paymentMeans } : {}),
          ...(r.paymentTerms ? { paymentTerms: r.paymentTerms } : {}),
          ...(delivery === 'date' ? { deliveryDate: issueDate } : {}),
          ...(delivery === 'period' ? { invoicePeriod: { start: '2026-02-01', end: '2026-02-28' } } : {}),
          allowances: r.allowances,
          charges: r.charges,
        };
        const credit: CreditPlan =
          r.credit === 'lines' || r.credit === 'lines-then-void'
            ? { kind: r.credit, lines: r.creditLines }
            : { kind: r.credit as 'none' | 'full' | 'void' };
        const scenario: ApiScenario = {
          sellerCountry: r.seller.country,
          companyCurrency: r.invoiceNamesCurrency ? 'EUR' : r.currency,
          profile,
          buyer,
          invoice,
          credit,
          issue: r.issue,
          validateFor: [],
          digits,
          expectedGaps: { peppol: [], xrechnung: [], en16931: [] },
        };
        scenario.expectedGaps = expectedGaps(scenario, r.payment, r.seller, r.buyer);
        scenario.validateFor = r.validateFor.filter((target) => scenario.expectedGaps[target].length === 0);
        return scenario;
      });
  });
}

/** The rules each profile refuses the scenario's documents by: the gaps it was made with. */
function expectedGaps(
  s: ApiScenario,
  payment: PaymentChoice,
  seller: SellerChoice,
  buyer: BuyerChoice,
): Record<Target, string[]> {
  const gaps: Record<Target, string[]> = { en16931: [], peppol: [], xrechnung: [] };
  if (s.digits > 2) for (const target of ['en16931', 'peppol', 'xrechnung'] as const) gaps[target].push('BR-DEC-09');
  const hasMeans = payment.code !== 'default' || seller.account;
  const noReference = s.invoice.buyerReference === null && s.invoice.purchaseOrderReference === null;
  // XRechnung: the German rules, whatever the countries.
  const german = (id: (n: number) => string) => {
    const out: string[] = [];
    if (!hasMeans) out.push(id(1));
    if (seller.contact === 'none') out.push(id(2));
    if (s.invoice.buyerReference === null) out.push(id(15));
    if (payment.code === '48' && !payment.cardDigits) out.push(id(24));
    if ((payment.code === '59' || payment.code === '49') && !seller.creditorId) out.push(id(30));
    return out;
  };
  gaps.xrechnung.push(...german((n) => (n === 24 ? 'BR-DE-24-a' : `BR-DE-${n}`)));
  if (noReference) gaps.xrechnung.push('PEPPOL-EN16931-R003');
  // Peppol: the German rules between German parties, the Dutch ones for Dutch sellers, and no email endpoints.
  const buyerVat = s.buyer.vatId as string | null;
  const buyerPeppolCountry = buyerVat ? buyerVat.slice(0, 2) : buyer.country;
  const sellerPeppolCountry = s.profile.vatId ? s.profile.vatId.slice(0, 2) : seller.country;
  if (sellerPeppolCountry === 'DE' && buyerPeppolCountry === 'DE')
    gaps.peppol.push(...german((n) => (n === 24 ? 'DE-R-024-1' : `DE-R-${String(n).padStart(3, '0')}`)));
  if (noReference) gaps.peppol.push('PEPPOL-EN16931-R003');
  if (buyer.endpoint === 'email') gaps.peppol.push('PEPPOL-EN16931-CL008');
  if (sellerPeppolCountry === 'NL') {
    if (!hasMeans) gaps.peppol.push('NL-R-007');
    if (buyerPeppolCountry === 'NL' && payment.code === '10') gaps.peppol.push('NL-R-008');
  }
  return gaps;
}

export interface IssuedScenario {
  key: string;
  companyId: string;
  invoice: Json;
  creditNotes: Json[];
}

type Api = Pick<TestApp, 'createCompany' | 'createKey' | 'request' | 'container'>;

/** Makes the scenario through the API: company and its profile, buyer, invoice, credit notes. */
export async function issueScenario(api: Api, s: ApiScenario, n: number): Promise<IssuedScenario> {
  const companyId = await api.createCompany(`Muster ${n}`, s.companyCurrency);
  const profile = await api.container.companyProfiles.update(
    companyId,
    { ...s.profile, countryCode: s.sellerCountry },
    { userId: null, label: 'test' },
  );
  if (!profile.ok) throw new Error(`profile refused: ${JSON.stringify(profile)}`);
  const { key } = await api.createKey(companyId, [
    'organization.create',
    'invoice.create',
    'invoice.read',
    'invoice.update',
    'credit-note.create',
    'credit-note.read',
  ]);
  const send = async (method: 'GET' | 'POST', path: string, body?: Json) => {
    const res = await api.request({
      method,
      url: `${BASE_PATH}${path}`,
      headers: { 'x-api-key': key },
      ...(body ? { payload: body } : {}),
    });
    return { status: res.statusCode, json: () => res.json() as Json & { data: Json }, body: res.body };
  };
  const buyer = await send('POST', '/organization', s.buyer);
  if (buyer.status !== 201) throw new Error(`buyer refused: ${buyer.body}`);
  const validateFor = s.validateFor.length > 0 ? { validateFor: s.validateFor } : {};
  const body = { ...s.invoice, organizationId: buyer.json().data.id };
  let invoice: Json & { id?: unknown };
  if (s.issue === 'draft') {
    const draft = await send('POST', '/invoice', { ...body, status: 'draft' });
    if (draft.status !== 201) throw new Error(`draft refused: ${draft.body}`);
    const finalized = await send('POST', `/invoice/${draft.json().data.id as string}/finalize`, validateFor);
    if (finalized.status !== 200)
      throw new Error(`finalize with ${JSON.stringify(validateFor)} refused: ${finalized.body}`);
    invoice = finalized.json().data;
  } else {
    const created = await send('POST', '/invoice', { ...body, ...validateFor });
    if (created.status !== 201) throw new Error(`invoice with ${JSON.stringify(validateFor)} refused: ${created.body}`);
    invoice = created.json().data;
  }
  const creditNotes: Json[] = [];
  const credit = async (body: Json) => {
    const res = await send('POST', '/credit-note', { invoiceId: invoice.id, reason: 'Returned goods', ...body });
    // A credit note must credit a positive amount no larger than what is left of the invoice.
    if (res.status === 201) creditNotes.push(res.json().data);
    else if (![400, 409, 422].includes(res.status)) throw new Error(`credit note: ${res.status} ${res.body}`);
  };
  const voidIt = async () => {
    const res = await send('POST', `/invoice/${invoice.id as string}/void`);
    if (res.status !== 200) throw new Error(`void: ${res.status} ${res.body}`);
    const ids = res.json().data.creditNoteIds as string[];
    creditNotes.push((await send('GET', `/credit-note/${ids.at(-1)!}`)).json().data);
  };
  if (s.credit.kind === 'full') await credit({});
  if (s.credit.kind === 'lines' || s.credit.kind === 'lines-then-void') await credit({ lines: s.credit.lines });
  if (s.credit.kind === 'void' || s.credit.kind === 'lines-then-void') await voidIt();
  return { key, companyId, invoice, creditNotes };
}

export const DOCUMENT_FORMATS = [
  { name: 'ubl-peppol', format: 'ubl', profile: 'peppol' },
  { name: 'ubl-xrechnung', format: 'ubl', profile: 'xrechnung' },
  { name: 'cii-en16931', format: 'cii', profile: 'en16931' },
  { name: 'cii-xrechnung', format: 'cii', profile: 'xrechnung' },
] as const;

export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** GET a document of an invoice or credit note in one format. */
export async function getDocument(
  api: Pick<TestApp, 'request'>,
  key: string,
  kind: 'invoice' | 'credit-note',
  id: string,
  f: DocumentFormat,
) {
  const res = await api.request({
    method: 'GET',
    url: `${BASE_PATH}/${kind}/${id}/${f.format}?profile=${f.profile}`,
    headers: { 'x-api-key': key },
  });
  return { status: res.statusCode, body: res.body };
}
