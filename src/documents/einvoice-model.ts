import type { Contact, DateText, DecimalText, DocumentView, SchemedId } from './model.js';

// The EN 16931 semantic model of any invoice or credit note: one we received (read/ fills it from
// UBL or CII) or one we issue. DocumentView (model.ts) is this model narrowed to what we write,
// and TypeScript holds it to that (the assignment at the end): every field of the view has the
// same name and meaning here, only wider (a received document may lack what ours always has, or
// use codes we never write). Fields the view lacks are optional. The rule engine (rules/) judges
// this model, so our own documents and received ones meet the same code.
// Amounts are the exact decimal text as written; codes are the text as written, unchecked.

export interface EinvoiceAddress {
  /** BT-35 / BT-50 / BT-64 / BT-75 */
  line1: string | null;
  /** BT-36 / BT-51 / BT-65 / BT-76 */
  line2: string | null;
  /** BT-162 / BT-163 / BT-164 / BT-165 */
  line3?: string | null;
  /** BT-37 / BT-52 / BT-66 / BT-77 */
  city: string | null;
  /** BT-38 / BT-53 / BT-67 / BT-78 */
  postalCode: string | null;
  /** BT-39 / BT-54 / BT-68 / BT-79 */
  subdivision?: string | null;
  /** BT-40 / BT-55 / BT-69 / BT-80 */
  countryCode: string | null;
}

/** BG-4 seller, BG-7 buyer. */
export interface EinvoiceParty {
  /** BT-27 / BT-44 */
  name: string | null;
  /** BT-28 / BT-45 */
  tradingName: string | null;
  /** BT-29 / BT-46 (the first) */
  identifier: SchemedId | null;
  /** Every BT-29 / BT-46, when there are several. */
  identifiers?: SchemedId[];
  /** BT-30 / BT-47 */
  legalRegistrationId: SchemedId | null;
  /** BT-31 / BT-48 */
  vatId: string | null;
  /** BT-32 (seller only) */
  taxRegistrationId: string | null;
  /** BT-33 (seller only) */
  additionalLegalInformation?: string | null;
  /** BT-34 / BT-49 */
  electronicAddress: SchemedId | null;
  /** BG-5 / BG-8; null when the document has none. */
  address: EinvoiceAddress | null;
  /** BG-6 / BG-9 */
  contact: Contact | null;
}

/** BG-10 payee. */
export interface EinvoicePayee {
  /** BT-59 */
  name: string | null;
  /** BT-60 */
  identifier: SchemedId | null;
  /** BT-61 */
  legalRegistrationId: SchemedId | null;
}

/** BG-11 seller tax representative. */
export interface EinvoiceTaxRepresentative {
  /** BT-62 */
  name: string | null;
  /** BT-63 */
  vatId: string | null;
  /** BG-12; null when absent. */
  address: EinvoiceAddress | null;
}

/** BG-16 payment instructions. */
export interface EinvoicePaymentMeans {
  /** BT-81 */
  code: string | null;
  /** BT-82 */
  text?: string | null;
  /** BT-83 */
  remittanceInformation: string | null;
  /** BG-17 (the first account) */
  creditTransfer: { accountId: string | null; accountName: string | null; serviceProviderId: string | null } | null;
  /** Every BG-17, when there are several. */
  creditTransfers?: { accountId: string | null; accountName: string | null; serviceProviderId: string | null }[];
  /** BG-18 */
  card: { accountNumber: string | null; holderName: string | null } | null;
  /** BG-19 */
  directDebit: { mandateReference: string | null; creditorId: string | null; debitedAccountId: string | null } | null;
}

/** BG-20 / BG-21 document allowance or charge; BG-27 / BG-28 line allowance or charge (no VAT there). */
export interface EinvoiceAllowanceCharge {
  /** BT-92 / BT-99 / BT-136 / BT-141 */
  amount: DecimalText | null;
  /** BT-93 / BT-100 / BT-137 / BT-142 */
  baseAmount?: DecimalText | null;
  /** BT-94 / BT-101 / BT-138 / BT-143 */
  percent?: DecimalText | null;
  /** BT-97 / BT-104 / BT-139 / BT-144 */
  reason: string | null;
  /** BT-98 / BT-105 / BT-140 / BT-145 */
  reasonCode: string | null;
}

/**
 * The tax scheme a category is given in (UBL TaxScheme ID, CII TypeCode): EN 16931 knows only VAT,
 * and the rules read a category of any other scheme as missing. Absent on our own documents.
 */
export interface TaxSchemed {
  taxScheme?: string | null;
}

export interface EinvoiceDocumentAllowanceCharge extends EinvoiceAllowanceCharge, TaxSchemed {
  /** BT-95 / BT-102 */
  vatCategory: string | null;
  /** BT-96 / BT-103 */
  vatRate: DecimalText | null;
}

/** BG-25 invoice line. */
export interface EinvoiceLine extends TaxSchemed {
  /** BT-126 */
  id: string | null;
  /** BT-127 */
  note?: string | null;
  /** BT-128 with its scheme */
  objectId?: SchemedId | null;
  /** BT-153 */
  name: string | null;
  /** BT-154 */
  description: string | null;
  /** BT-129 */
  quantity: DecimalText | null;
  /** BT-130 */
  unitCode: string | null;
  /** BG-29; null when the line has no price. */
  price: {
    /** BT-146 */
    amount: DecimalText | null;
    /** BT-149 */
    baseQuantity: DecimalText | null;
    /** BT-150 */
    baseQuantityUnitCode?: string | null;
    /** BT-148 */
    grossAmount?: DecimalText | null;
    /** BT-147 */
    discount?: DecimalText | null;
  } | null;
  /** BG-27 */
  allowances: EinvoiceAllowanceCharge[];
  /** BG-28 */
  charges?: EinvoiceAllowanceCharge[];
  /** BT-131 */
  netAmount: DecimalText | null;
  /** BT-151 */
  vatCategory: string | null;
  /** BT-152 */
  vatRate: DecimalText | null;
  /** BG-26: BT-134, BT-135 */
  period?: { startDate: DateText | null; endDate: DateText | null } | null;
  /** BT-132 */
  orderLineReference?: string | null;
  /** BT-133 */
  accountingReference?: string | null;
  /** BT-155 */
  sellerItemId?: string | null;
  /** BT-156 */
  buyerItemId?: string | null;
  /** BT-157 with its scheme */
  standardItemId?: SchemedId | null;
  /** BT-158 with list id (BT-158-1) and version (BT-158-2) */
  classifications?: { code: string; listId: string | null; listVersion: string | null }[];
  /** BT-159 */
  originCountry?: string | null;
  /** BG-32: BT-160, BT-161 */
  attributes?: { name: string | null; value: string | null }[];
}

/** BG-23 */
export interface EinvoiceVatBreakdown extends TaxSchemed {
  /** BT-118 */
  vatCategory: string | null;
  /** BT-119 */
  vatRate: DecimalText | null;
  /** BT-116 */
  taxableAmount: DecimalText | null;
  /** BT-117 */
  taxAmount: DecimalText | null;
  /** BT-120 */
  exemptionReason: string | null;
  /** BT-121 */
  exemptionReasonCode: string | null;
}

/** BG-22 */
export interface EinvoiceTotals {
  /** BT-106 */
  lineNetTotal: DecimalText | null;
  /** BT-107 */
  allowanceTotal: DecimalText | null;
  /** BT-108 */
  chargeTotal: DecimalText | null;
  /** BT-109 */
  taxExclusive: DecimalText | null;
  /** BT-110: the total VAT in the document currency. */
  taxTotal: DecimalText | null;
  /** The currency BT-110 is stated in, as written (CII may leave it out: null); absent on ours. */
  taxTotalCurrency?: string | null;
  /** BT-111: the total VAT in the accounting currency (BT-6). */
  taxTotalAccounting?: DecimalText | null;
  /** BT-112 */
  taxInclusive: DecimalText | null;
  /** BT-113 */
  prepaid?: DecimalText | null;
  /** BT-114 */
  roundingAmount: DecimalText | null;
  /** BT-115 */
  payable: DecimalText | null;
}

/** BG-24 additional supporting document. */
export interface EinvoiceAttachment {
  /** BT-122 */
  id: string | null;
  /** BT-123 */
  description: string | null;
  /** BT-124 */
  uri: string | null;
  /** BT-125 with BT-125-1 and BT-125-2 */
  embedded: { mimeCode: string | null; filename: string | null; content: Uint8Array } | null;
}

export interface Einvoice {
  /** BT-24 */
  specificationId?: string | null;
  /** BT-23 */
  businessProcess?: string | null;
  /** BT-3 */
  typeCode: string | null;
  /** BT-1 */
  number: string | null;
  /** BT-2 */
  issueDate: DateText | null;
  /** BT-9 */
  dueDate: DateText | null;
  /** BT-5: the code, and the minor-unit digits our arithmetic rounds to. */
  currency: { code: string | null; minorDigits: number };
  /** BT-6 */
  taxCurrencyCode?: string | null;
  /** BT-7 */
  taxPointDate?: DateText | null;
  /** BT-8 */
  taxPointDateCode?: string | null;
  /** BT-10 */
  buyerReference: string | null;
  /** BT-11 */
  projectReference?: string | null;
  /** BT-12 */
  contractReference?: string | null;
  /** BT-13 */
  purchaseOrderReference: string | null;
  /** BT-14 */
  salesOrderReference?: string | null;
  /** BT-15 */
  receivingAdviceReference?: string | null;
  /** BT-16 */
  despatchAdviceReference?: string | null;
  /** BT-17 */
  tenderReference?: string | null;
  /** BT-18 with its scheme */
  invoicedObjectId?: SchemedId | null;
  /** BT-19 */
  buyerAccountingReference?: string | null;
  /** BT-22 (the first note) */
  note: string | null;
  /** BG-1: every note with its subject code (BT-21). */
  notes?: { subjectCode: string | null; text: string }[];
  /** BT-20 */
  paymentTerms: string | null;
  /** BT-72 */
  deliveryDate: DateText | null;
  /** BG-14: BT-73, BT-74 */
  invoicePeriod: { startDate: DateText | null; endDate: DateText | null } | null;
  /** BG-13: BT-70 name, BT-71 location, BG-15 address. */
  deliverTo: { name: string | null; locationId?: SchemedId | null; address: EinvoiceAddress | null } | null;
  /** BG-3 (the first) */
  precedingInvoice: { number: string | null; issueDate: DateText | null } | null;
  /** Every BG-3, when there are several. */
  precedingInvoices?: { number: string | null; issueDate: DateText | null }[];
  /** BG-4 */
  seller: EinvoiceParty;
  /** BG-7 */
  buyer: EinvoiceParty;
  /** BG-10 */
  payee?: EinvoicePayee | null;
  /** BG-11 */
  taxRepresentative?: EinvoiceTaxRepresentative | null;
  /** BG-16 (the first) */
  paymentMeans: EinvoicePaymentMeans | null;
  /** Every BG-16, when there are several. */
  allPaymentMeans?: EinvoicePaymentMeans[];
  /** BG-20 */
  allowances: EinvoiceDocumentAllowanceCharge[];
  /** BG-21 */
  charges: EinvoiceDocumentAllowanceCharge[];
  /** BG-25 */
  lines: EinvoiceLine[];
  /** BG-23 */
  vatBreakdown: EinvoiceVatBreakdown[];
  /** BG-22 */
  totals: EinvoiceTotals;
  /** BG-24 */
  attachments?: EinvoiceAttachment[];
}

/** Every note of the document (BG-1). */
export const notesOf = (doc: Einvoice) => doc.notes ?? (doc.note ? [{ subjectCode: null, text: doc.note }] : []);
/** Every payment instruction (BG-16). */
export const paymentMeansOf = (doc: Einvoice) => doc.allPaymentMeans ?? (doc.paymentMeans ? [doc.paymentMeans] : []);
/** Every preceding invoice reference (BG-3). */
export const precedingInvoicesOf = (doc: Einvoice) =>
  doc.precedingInvoices ?? (doc.precedingInvoice ? [doc.precedingInvoice] : []);

// Holds DocumentView to being this model narrowed: a field renamed or retyped there fails here.
const _issuedIsAnEinvoice = (view: DocumentView): Einvoice => view;
void _issuedIsAnEinvoice;
