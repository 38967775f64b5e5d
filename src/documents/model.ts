import type { VatCategory } from '../money/invoice-calculation.js';

// The syntax-neutral EN 16931 view of one issued invoice (BT-3 380) or credit note (BT-3 381).
// Every amount is the exact decimal text our arithmetic computed, already in the currency's minor
// unit ("59.97", "1100", "1.250"); the mappers write these strings and never recompute them.
// Names follow the API; each field names its business term (BT-…) or group (BG-…). It is the
// general EN 16931 model of einvoice-model.ts (which received documents are read into) narrowed
// to what we issue; the compiler holds the two together.

/** A decimal as text: amounts with exactly the currency's digits, other numbers plain ("7.5"). */
export type DecimalText = string;
/** YYYY-MM-DD */
export type DateText = string;

export type DocumentTypeCode = '380' | '381';

/** An identifier with its scheme (ISO 6523 ICD for legal ids, EAS for electronic addresses). */
export interface SchemedId {
  id: string;
  /** Absent when the identifier needs no scheme. */
  schemeId: string | null;
}

/** BG-5 (seller), BG-8 (buyer), BG-15 (deliver to). */
export interface PostalAddress {
  /** BT-35 / BT-50 / BT-75 */
  line1: string | null;
  /** BT-36 / BT-51 / BT-76 */
  line2: string | null;
  /** BT-37 / BT-52 / BT-77 */
  city: string | null;
  /** BT-38 / BT-53 / BT-78 */
  postalCode: string | null;
  /** BT-40 / BT-55 / BT-80: ISO 3166-1 alpha-2 */
  countryCode: string | null;
}

/** BG-6 (seller), BG-9 (buyer). */
export interface Contact {
  /** BT-41 / BT-56 */
  name: string | null;
  /** BT-42 / BT-57 */
  phone: string | null;
  /** BT-43 / BT-58 */
  email: string | null;
}

/** BG-4 seller or BG-7 buyer. */
export interface Party {
  /** BT-27 / BT-44 */
  name: string;
  /** BT-28 / BT-45 */
  tradingName: string | null;
  /** BT-29 / BT-46: seller or buyer identifier, with its ICD scheme. */
  identifier: SchemedId | null;
  /** BT-30 / BT-47: legal registration identifier (company register number), with its ICD scheme. */
  legalRegistrationId: SchemedId | null;
  /** BT-31 / BT-48: VAT identifier with its country prefix (DE123456789). */
  vatId: string | null;
  /** BT-32: the seller's tax registration (tax number). EN 16931 has none for the buyer. */
  taxRegistrationId: string | null;
  /** BT-34 / BT-49: electronic address; schemeId is the EAS code (BT-34-1 / BT-49-1). */
  electronicAddress: SchemedId | null;
  /** BG-5 / BG-8 */
  address: PostalAddress;
  /** BG-6 / BG-9 */
  contact: Contact | null;
}

/** UNCL4461 codes this service uses (BT-81). */
export type PaymentMeansCode = '58' | '30' | '59' | '49' | '48' | '10';

/** BG-16 payment instructions. */
export interface PaymentMeans {
  /** BT-81 */
  code: PaymentMeansCode;
  /** BT-83: remittance information; we put the document number here. */
  remittanceInformation: string | null;
  /** BG-17 credit transfer (codes 30, 58). */
  creditTransfer: {
    /** BT-84: IBAN (or another account id for code 30). */
    accountId: string;
    /** BT-85 */
    accountName: string | null;
    /** BT-86: BIC */
    serviceProviderId: string | null;
  } | null;
  /** BG-18 payment card (code 48). */
  card: {
    /** BT-87: the last 4 to 6 digits of the card number. */
    accountNumber: string;
    /** BT-88 */
    holderName: string | null;
  } | null;
  /** BG-19 direct debit (codes 49, 59). */
  directDebit: {
    /** BT-89: mandate reference */
    mandateReference: string | null;
    /** BT-90: the seller's bank-assigned creditor identifier (SEPA creditor id). */
    creditorId: string | null;
    /** BT-91: the payer's IBAN. */
    debitedAccountId: string | null;
  } | null;
}

/** BG-20 document allowance or BG-21 document charge. */
export interface DocumentAllowanceCharge {
  /** BT-92 / BT-99: net of VAT. */
  amount: DecimalText;
  /** The amount as the customer saw it: VAT included when the document has gross prices (PDF only). */
  amountAsGiven: DecimalText;
  /** BT-97 / BT-104 */
  reason: string | null;
  /** BT-98 (UNCL5189) / BT-105 (UNCL7161) */
  reasonCode: string | null;
  /** BT-95 / BT-102 */
  vatCategory: VatCategory;
  /** BT-96 / BT-103: percent */
  vatRate: DecimalText;
}

/** BG-27 line allowance: here, the line's discount. */
export interface LineAllowance {
  /** BT-136 */
  amount: DecimalText;
  /** BT-137: only together with percent, and only when amount = baseAmount × percent / 100 exactly. */
  baseAmount: DecimalText | null;
  /** BT-138 */
  percent: DecimalText | null;
  /** BT-139 */
  reason: string | null;
  /** BT-140 (UNCL5189) */
  reasonCode: string | null;
}

/** BG-25 invoice line. */
export interface DocumentLine {
  /** BT-126 */
  id: string;
  /** BT-153 */
  name: string;
  /** BT-154 */
  description: string | null;
  /** BT-129: negative credits a quantity. */
  quantity: DecimalText;
  /** BT-130: UN/ECE Recommendation 20 or 21 code. */
  unitCode: string;
  /**
   * BG-29 price details, chosen so that quantity × amount / baseQuantity − allowances = netAmount
   * holds exactly (PEPPOL-EN16931-R120), see line-price.ts.
   */
  price: {
    /** BT-146: item net price, never negative. */
    amount: DecimalText;
    /** BT-149: price base quantity; null for one unit. */
    baseQuantity: DecimalText | null;
  };
  /** BG-27 */
  allowances: LineAllowance[];
  /** BT-131 */
  netAmount: DecimalText;
  /** BT-151 */
  vatCategory: VatCategory;
  /** BT-152: percent */
  vatRate: DecimalText;
  /** The unit price as given (VAT included when the document has gross prices); for the PDF. */
  unitPriceAsGiven: DecimalText;
  /** The line discount as given, percent; for the PDF. */
  discountPercent: DecimalText | null;
  /** round(quantity × unit price × (1 − discount)): what the customer saw, VAT included when the document has gross prices; for the PDF. */
  amountAsGiven: DecimalText;
}

/** BG-23 VAT breakdown entry. */
export interface VatBreakdownEntry {
  /** BT-118 */
  vatCategory: VatCategory;
  /** BT-119: percent */
  vatRate: DecimalText;
  /** BT-116 */
  taxableAmount: DecimalText;
  /** BT-117 */
  taxAmount: DecimalText;
  /** BT-120 */
  exemptionReason: string | null;
  /** BT-121: VATEX code */
  exemptionReasonCode: string | null;
}

/** BG-22 document totals. */
export interface DocumentTotals {
  /** BT-106 */
  lineNetTotal: DecimalText;
  /** BT-107 */
  allowanceTotal: DecimalText;
  /** BT-108 */
  chargeTotal: DecimalText;
  /** BT-109 */
  taxExclusive: DecimalText;
  /** BT-110 */
  taxTotal: DecimalText;
  /** BT-112 */
  taxInclusive: DecimalText;
  /** BT-114 */
  roundingAmount: DecimalText;
  /** BT-115 */
  payable: DecimalText;
}

export interface DocumentView {
  /** BT-3: 380 commercial invoice, 381 credit note. */
  typeCode: DocumentTypeCode;
  /** BT-1 (TEST-2026-00001 for test documents) */
  number: string;
  /** BT-2 */
  issueDate: DateText;
  /** BT-9 */
  dueDate: DateText | null;
  /** BT-5, with the number of minor-unit digits every amount has. */
  currency: { code: string; minorDigits: number };
  /** BT-10 (the Leitweg-ID in Germany) */
  buyerReference: string | null;
  /** BT-13 */
  purchaseOrderReference: string | null;
  /** BT-17: the tender or lot reference; our invoices carry the number of the quote they were made from. */
  tenderReference: string | null;
  /** BT-22 */
  note: string | null;
  /** BT-20 */
  paymentTerms: string | null;
  /** BT-72 */
  deliveryDate: DateText | null;
  /** BG-14: BT-73 start, BT-74 end. */
  invoicePeriod: { startDate: DateText; endDate: DateText } | null;
  /** BG-13 deliver to: BT-70 name and BG-15 address; null for none. */
  deliverTo: { name: string | null; address: PostalAddress } | null;
  /** BG-3: BT-25 number and BT-26 issue date of the invoice a credit note corrects. */
  precedingInvoice: { number: string; issueDate: DateText | null } | null;
  /** BG-4 */
  seller: Party;
  /** BG-7 */
  buyer: Party;
  /** BG-16 */
  paymentMeans: PaymentMeans | null;
  /** BG-20 */
  allowances: DocumentAllowanceCharge[];
  /** BG-21 */
  charges: DocumentAllowanceCharge[];
  /** BG-25 */
  lines: DocumentLine[];
  /** BG-23 */
  vatBreakdown: VatBreakdownEntry[];
  /** BG-22 */
  totals: DocumentTotals;
  /** Unit prices (and document allowances and charges) were given with VAT included; for the PDF. */
  pricesIncludeTax: boolean;
  /** Not issued yet: the PDF carries a DRAFT mark and no e-invoice. */
  draft: boolean;
  /** A sandbox document: the PDF carries a TEST mark. */
  test: boolean;
}

export type Profile = 'en16931' | 'peppol' | 'xrechnung';
