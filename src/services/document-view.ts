import {
  documentViewFrom,
  problemsForEach,
  type CreditFacts,
  type DocumentView,
  type Profile,
} from '../documents/index.js';
import type { PaymentMeans, Party, PostalAddress, SchemedId } from '../documents/model.js';
import { paymentReference } from '../documents/payment-reference.js';
import { isIcdScheme } from '../documents/schemes.js';
import { minorUnitDigits } from '../money/currency.js';
import { Decimal } from '../money/decimal.js';
import { calculateInvoice } from '../money/invoice-calculation.js';
import type { ErrorDetail } from '../errors/app-error.js';
import { adjustmentsOf } from './document-extras.js';
import type { DocumentExtras, DraftLine } from './invoice-input.js';
import type { Buyer, Seller } from './parties.js';

// From what an invoice or credit note stores (or what an invoice about to be issued would store)
// to the e-invoice engine's EN 16931 view, and the engine's gaps back into the API's field names.

export interface DocumentSource {
  typeCode: '380' | '381';
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  pricesIncludeTax: boolean;
  buyerReference: string | null;
  purchaseOrderReference: string | null;
  /** BT-17: the number of the quote an invoice was made from. */
  tenderReference?: string | null;
  note: string | null;
  extras: DocumentExtras;
  seller: Seller;
  buyer: Buyer;
  lines: DraftLine[];
  precedingInvoice: { number: string; issueDate: string } | null;
  draft: boolean;
  test: boolean;
  /** What was stored, which the document shows (a voiding credit note's rounding amount, say). */
  stored?: { roundingAmount: string; payable: string };
  /** The note the PDF shows: the one given, without the reason or test-mode notice the XML's note carries. */
  pdfNote?: string | null;
  /** A credit note's reason and how it settled, for its PDF. */
  credit?: CreditFacts;
}

const address = (
  a: {
    line1: string | null;
    line2: string | null;
    city: string | null;
    postalCode: string | null;
    countryCode: string | null;
  } | null,
): PostalAddress => ({
  line1: a?.line1 ?? null,
  line2: a?.line2 ?? null,
  city: a?.city ?? null,
  postalCode: a?.postalCode ?? null,
  countryCode: a?.countryCode ?? null,
});

/**
 * A legal registration id (BT-30, BT-47) with its ISO 6523 scheme when one is known: given as
 * "<ICD>:<id>" (0106:12345678, 0208:0123456749), or a Dutch party's KVK number (eight digits,
 * 0106) or OIN (twenty digits, 0190), which Peppol wants schemed (NL-R-003, NL-R-005).
 */
export function legalRegistrationOf(
  value: string | null,
  party: { vatId: string | null; countryCode: string | null },
): SchemedId | null {
  if (!value) return null;
  const schemed = /^(\d{4}):(.+)$/.exec(value);
  if (schemed && isIcdScheme(schemed[1]!)) return { id: schemed[2]!.trim(), schemeId: schemed[1]! };
  const country = party.vatId ? party.vatId.slice(0, 2).toUpperCase() : party.countryCode;
  if (country === 'NL' && /^\d{8}$/.test(value)) return { id: value, schemeId: '0106' };
  if (country === 'NL' && /^\d{20}$/.test(value)) return { id: value, schemeId: '0190' };
  return { id: value, schemeId: null };
}

function sellerParty(seller: Seller): Party {
  const legalName = seller.legalName ?? seller.name;
  return {
    name: legalName,
    tradingName: legalName !== seller.name ? seller.name : null,
    identifier: null,
    legalRegistrationId: legalRegistrationOf(seller.legalRegistrationId, {
      vatId: seller.vatId,
      countryCode: seller.address.countryCode,
    }),
    vatId: seller.vatId,
    taxRegistrationId: seller.taxNumber,
    electronicAddress: seller.electronicAddress
      ? { id: seller.electronicAddress.identifier, schemeId: seller.electronicAddress.scheme }
      : null,
    address: address(seller.address),
    contact: seller.contact.name || seller.contact.phone || seller.contact.email ? seller.contact : null,
  };
}

function buyerParty(buyer: Buyer): Party {
  const person = [buyer.firstName, buyer.lastName].filter(Boolean).join(' ') || null;
  return {
    name: buyer.name,
    tradingName: null,
    identifier: null,
    legalRegistrationId: legalRegistrationOf(buyer.legalRegistrationId, {
      vatId: buyer.vatId,
      countryCode: buyer.address?.countryCode ?? null,
    }),
    vatId: buyer.vatId,
    taxRegistrationId: null,
    electronicAddress: buyer.electronicAddress
      ? { id: buyer.electronicAddress.identifier, schemeId: buyer.electronicAddress.scheme }
      : null,
    address: address(buyer.address),
    contact:
      buyer.email || buyer.phone
        ? { name: buyer.typeCode === 'F' ? person : null, phone: buyer.phone, email: buyer.email }
        : null,
  };
}

function paymentMeansOf(source: DocumentSource): PaymentMeans | null {
  const given = source.extras.paymentMeans;
  if (!given) return null;
  const transfer = given.code === '58' || given.code === '30';
  const debit = given.code === '59' || given.code === '49';
  return {
    code: given.code,
    // What the buyer quotes: the creditor reference given, a Belgian seller's structured communication, else the number.
    remittanceInformation: paymentReference(
      source.number,
      source.seller.address.countryCode,
      given.creditorReference ?? null,
    ),
    creditTransfer:
      transfer && given.iban
        ? { accountId: given.iban, accountName: given.accountName, serviceProviderId: given.bic }
        : null,
    card:
      given.code === '48' && given.cardLastDigits ? { accountNumber: given.cardLastDigits, holderName: null } : null,
    directDebit: debit
      ? {
          mandateReference: given.mandateReference,
          creditorId: source.seller.creditorId,
          debitedAccountId: given.payerIban,
        }
      : null,
  };
}

/** The EN 16931 view of a document, with the amounts it was stored with. */
/** The first note of every test-mode document. */
export const TEST_NOTE = 'TEST DOCUMENT: made in test mode, not a valid invoice.';

export function documentViewOf(source: DocumentSource): DocumentView {
  const digits = minorUnitDigits(source.currency);
  const input = {
    typeCode: source.typeCode,
    number: source.number,
    issueDate: source.issueDate,
    dueDate: source.dueDate,
    currency: { code: source.currency, minorDigits: digits },
    buyerReference: source.buyerReference,
    purchaseOrderReference: source.purchaseOrderReference,
    tenderReference: source.tenderReference ?? null,
    // A test document says so where every reader of an e-invoice looks, its note (BT-22), besides
    // its TEST-… number; the PDF also carries a TEST mark on every page.
    note: source.test ? [TEST_NOTE, source.note].filter(Boolean).join('\n') : source.note,
    paymentTerms: source.extras.paymentTerms,
    deliveryDate: source.extras.deliveryDate,
    invoicePeriod: source.extras.invoicePeriod
      ? { startDate: source.extras.invoicePeriod.start, endDate: source.extras.invoicePeriod.end }
      : null,
    deliverTo: null,
    precedingInvoice: source.precedingInvoice,
    seller: sellerParty(source.seller),
    buyer: buyerParty(source.buyer),
    paymentMeans: paymentMeansOf(source),
    lines: source.lines,
    ...adjustmentsOf(source.extras),
    pricesIncludeTax: source.pricesIncludeTax,
    draft: source.draft,
    test: source.test,
  };
  const calculation = calculateInvoice(
    source.lines,
    { digits, pricesIncludeTax: source.pricesIncludeTax },
    adjustmentsOf(source.extras),
  );
  if (source.stored) {
    calculation.totals.roundingAmount = new Decimal(source.stored.roundingAmount);
    calculation.totals.payable = new Decimal(source.stored.payable);
  }
  return documentViewFrom(input, calculation);
}

/** The engine names some fields as EN 16931 structures them; the API user sets them under these names. */
const API_FIELDS: [RegExp, string][] = [
  [/^paymentMeans\.creditTransfer(\.accountId)?$/, 'paymentMeans.iban'],
  [/^paymentMeans\.directDebit\.mandateReference$/, 'paymentMeans.mandateReference'],
  [/^paymentMeans\.directDebit\.debitedAccountId$/, 'paymentMeans.payerIban'],
  [/^paymentMeans\.directDebit\.creditorId$/, 'seller.creditorId'],
  [/^paymentMeans\.card(\.accountNumber)?$/, 'paymentMeans.cardLastDigits'],
  [/^(seller|buyer)\.electronicAddress\.schemeId$/, '$1.electronicAddress.scheme'],
  [/^(seller|buyer)\.electronicAddress\.id$/, '$1.electronicAddress.identifier'],
  [/^invoicePeriod\.startDate$/, 'invoicePeriod.start'],
  [/^invoicePeriod\.endDate$/, 'invoicePeriod.end'],
];

export function apiField(field: string): string {
  for (const [pattern, replacement] of API_FIELDS) if (pattern.test(field)) return field.replace(pattern, replacement);
  return field;
}

/** The profiles whose rules a format (or a validateFor entry) must pass. */
export function profilesOf(target: 'en16931' | 'peppol' | 'xrechnung'): Profile[] {
  return target === 'en16931' ? ['en16931'] : ['en16931', target];
}

type EinvoiceTarget = 'en16931' | 'peppol' | 'xrechnung';

/** What keeps the view from being a valid e-invoice for these targets, as API error details. */
export function einvoiceProblems(view: DocumentView, targets: EinvoiceTarget[]): ErrorDetail[] {
  return einvoiceProblemsEach(view, [targets])[0]!;
}

/** einvoiceProblems for several lists of targets, with the work they share done once. */
export function einvoiceProblemsEach(view: DocumentView, lists: EinvoiceTarget[][]): ErrorDetail[][] {
  const sets = lists.map((targets) => [...new Set(targets.flatMap(profilesOf))]);
  return problemsForEach(view, sets).map((problems) => {
    const seen = new Set<string>();
    const details: ErrorDetail[] = [];
    for (const problem of problems) {
      const detail = { field: apiField(problem.field), code: problem.code, message: problem.message };
      const key = `${detail.field}|${detail.code}`;
      if (!seen.has(key)) {
        seen.add(key);
        details.push(detail);
      }
    }
    return details;
  });
}
