import { Decimal } from '../money/decimal.js';
import type { VatCategory } from '../money/invoice-calculation.js';
import type { Einvoice, EinvoiceAddress, EinvoiceParty } from './einvoice-model.js';
import { notesOf } from './einvoice-model.js';
import type { DocumentView, Party, PaymentMeansCode, PostalAddress } from './model.js';
import { CREDIT_NOTE_TYPE_CODES_UBL } from './rules/code-list-data.js';

// A received document (the EN 16931 model as it was read, absent terms null, text as written)
// as the view our PDF renderer draws: the other direction of build-view.ts, for the rendering
// of a purchase invoice. Nothing is computed: what the document states is what the page shows.
// Terms the page needs and the document lacks are empty; decimals are drawn as numbers when they
// are decimals and as the text written when they are not; a currency code that is no ISO code
// shape is drawn as XXX (no currency).

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A decimal as plain text ("+1.50" → "1.5"), text that is no decimal as written, none as "0". */
function decimal(text: string | null | undefined): string {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '') return '0';
  return DECIMAL.test(trimmed) ? new Decimal(trimmed).toFixed() : trimmed;
}

const optionalDecimal = (text: string | null | undefined) =>
  text === null || text === undefined || text.trim() === '' ? null : decimal(text);
const textOf = (text: string | null | undefined) => (text?.trim() ? text.trim() : null);

function address(a: EinvoiceAddress | null | undefined): PostalAddress {
  return {
    line1: textOf(a?.line1),
    line2: textOf([a?.line2, a?.line3].filter((l) => l?.trim()).join(', ')),
    city: textOf(a?.city),
    postalCode: textOf(a?.postalCode),
    countryCode: textOf(a?.countryCode),
  };
}

function party(p: EinvoiceParty): Party {
  return {
    name: textOf(p.name) ?? textOf(p.tradingName) ?? '',
    tradingName: textOf(p.name) ? textOf(p.tradingName) : null,
    identifier: p.identifier,
    legalRegistrationId: p.legalRegistrationId,
    vatId: textOf(p.vatId),
    taxRegistrationId: textOf(p.taxRegistrationId),
    electronicAddress: p.electronicAddress,
    address: address(p.address),
    contact: p.contact,
  };
}

function paymentMeans(doc: Einvoice): DocumentView['paymentMeans'] {
  const means = doc.paymentMeans;
  if (!means) return null;
  const transfer = means.creditTransfer;
  const card = means.card;
  const debit = means.directDebit;
  return {
    code: (textOf(means.code) ?? '30') as PaymentMeansCode,
    remittanceInformation: textOf(means.remittanceInformation),
    creditTransfer:
      transfer && textOf(transfer.accountId)
        ? {
            accountId: textOf(transfer.accountId)!,
            accountName: textOf(transfer.accountName),
            serviceProviderId: textOf(transfer.serviceProviderId),
          }
        : null,
    card:
      card && textOf(card.accountNumber)
        ? { accountNumber: textOf(card.accountNumber)!, holderName: textOf(card.holderName) }
        : null,
    directDebit: debit
      ? {
          mandateReference: textOf(debit.mandateReference),
          creditorId: textOf(debit.creditorId),
          debitedAccountId: textOf(debit.debitedAccountId),
        }
      : null,
  };
}

const category = (code: string | null | undefined) => (textOf(code) ?? '') as VatCategory;

/** The view of a received document, for its rendering (marked RECEIVED by the renderer's `received` option). */
export function receivedView(doc: Einvoice, options: { test: boolean; creditNote: boolean }): DocumentView {
  const currencyCode = textOf(doc.currency.code)?.toUpperCase() ?? '';
  const notes = notesOf(doc)
    .map((n) => n.text.trim())
    .filter(Boolean);
  const typeCode = options.creditNote || CREDIT_NOTE_TYPE_CODES_UBL.has(textOf(doc.typeCode) ?? '') ? '381' : '380';
  const t = doc.totals;
  return {
    typeCode,
    number: textOf(doc.number) ?? '',
    issueDate: textOf(doc.issueDate) ?? '',
    dueDate: textOf(doc.dueDate),
    currency: { code: /^[A-Z]{3}$/.test(currencyCode) ? currencyCode : 'XXX', minorDigits: doc.currency.minorDigits },
    buyerReference: textOf(doc.buyerReference),
    purchaseOrderReference: textOf(doc.purchaseOrderReference),
    tenderReference: textOf(doc.tenderReference),
    note: notes.length > 0 ? notes.join('\n') : null,
    paymentTerms: textOf(doc.paymentTerms),
    deliveryDate: textOf(doc.deliveryDate),
    invoicePeriod: doc.invoicePeriod
      ? { startDate: textOf(doc.invoicePeriod.startDate) ?? '', endDate: textOf(doc.invoicePeriod.endDate) ?? '' }
      : null,
    deliverTo: doc.deliverTo ? { name: textOf(doc.deliverTo.name), address: address(doc.deliverTo.address) } : null,
    precedingInvoice:
      doc.precedingInvoice && textOf(doc.precedingInvoice.number)
        ? { number: textOf(doc.precedingInvoice.number)!, issueDate: textOf(doc.precedingInvoice.issueDate) }
        : null,
    seller: party(doc.seller),
    buyer: party(doc.buyer),
    paymentMeans: paymentMeans(doc),
    allowances: doc.allowances.map((a) => ({
      amount: decimal(a.amount),
      amountAsGiven: decimal(a.amount),
      reason: textOf(a.reason),
      reasonCode: textOf(a.reasonCode),
      vatCategory: category(a.vatCategory),
      vatRate: decimal(a.vatRate),
    })),
    charges: doc.charges.map((c) => ({
      amount: decimal(c.amount),
      amountAsGiven: decimal(c.amount),
      reason: textOf(c.reason),
      reasonCode: textOf(c.reasonCode),
      vatCategory: category(c.vatCategory),
      vatRate: decimal(c.vatRate),
    })),
    lines: doc.lines.map((line, index) => ({
      id: textOf(line.id) ?? String(index + 1),
      name: textOf(line.name) ?? '',
      description: textOf(line.description),
      quantity: decimal(line.quantity),
      unitCode: textOf(line.unitCode) ?? '',
      price: { amount: decimal(line.price?.amount), baseQuantity: optionalDecimal(line.price?.baseQuantity) },
      allowances: line.allowances.map((a) => ({
        amount: decimal(a.amount),
        baseAmount: optionalDecimal(a.baseAmount),
        percent: optionalDecimal(a.percent),
        reason: textOf(a.reason),
        reasonCode: textOf(a.reasonCode),
      })),
      netAmount: decimal(line.netAmount),
      vatCategory: category(line.vatCategory),
      vatRate: decimal(line.vatRate),
      unitPriceAsGiven: decimal(line.price?.amount),
      discountPercent: null,
      amountAsGiven: decimal(line.netAmount),
    })),
    vatBreakdown: doc.vatBreakdown.map((g) => ({
      vatCategory: category(g.vatCategory),
      vatRate: decimal(g.vatRate),
      taxableAmount: decimal(g.taxableAmount),
      taxAmount: decimal(g.taxAmount),
      exemptionReason: textOf(g.exemptionReason),
      exemptionReasonCode: textOf(g.exemptionReasonCode),
    })),
    totals: {
      lineNetTotal: decimal(t.lineNetTotal),
      allowanceTotal: decimal(t.allowanceTotal),
      chargeTotal: decimal(t.chargeTotal),
      taxExclusive: decimal(t.taxExclusive),
      taxTotal: decimal(t.taxTotal),
      taxInclusive: decimal(t.taxInclusive),
      roundingAmount: decimal(t.roundingAmount),
      payable: decimal(t.payable),
    },
    pricesIncludeTax: false,
    draft: false,
    test: options.test,
  };
}
