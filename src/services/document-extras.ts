import type { DocumentExtrasColumns } from '../db/schema.js';
import { Decimal, plainDecimal } from '../money/decimal.js';
import type { AllowanceChargeFigures, VatCategory } from '../money/invoice-calculation.js';
import type { CompanyRow } from '../repositories/company-repository.js';
import type { Invoice } from '../schemas/invoice.js';
import type { AllowanceChargeValue, DocumentExtras, PaymentMeansValue } from './invoice-input.js';

// An invoice's (or credit note's) EN 16931 data besides its lines: payment means and terms,
// delivery date or period, document allowances and charges. Stored as given; the company's
// defaults (its bank account, its payment terms) are filled in when the document is issued, so
// an issued document keeps what it was issued with.

type ApiExtras = Pick<
  Invoice,
  'paymentMeans' | 'paymentTerms' | 'deliveryDate' | 'invoicePeriod' | 'allowances' | 'charges'
>;

interface StoredAllowanceCharge {
  amount: string;
  reason: string | null;
  reasonCode: string | null;
  vatCategory: VatCategory;
  vatRate: string;
}

const stored = (item: AllowanceChargeValue): StoredAllowanceCharge => ({
  amount: plainDecimal(item.amount),
  reason: item.reason,
  reasonCode: item.reasonCode,
  vatCategory: item.vatCategory,
  vatRate: plainDecimal(item.vatRate),
});

const valueOf = (item: StoredAllowanceCharge): AllowanceChargeValue => ({
  ...item,
  amount: new Decimal(item.amount),
  vatRate: new Decimal(item.vatRate),
});

/** The columns that store the extras (totals of allowances and charges come with the calculation). */
export function extrasColumns(extras: DocumentExtras): Omit<DocumentExtrasColumns, 'allowance_total' | 'charge_total'> {
  return {
    payment_means: extras.paymentMeans ? JSON.stringify(extras.paymentMeans) : null,
    payment_terms: extras.paymentTerms,
    delivery_date: extras.deliveryDate,
    invoice_period_start: extras.invoicePeriod?.start ?? null,
    invoice_period_end: extras.invoicePeriod?.end ?? null,
    allowances: extras.allowances.length > 0 ? JSON.stringify(extras.allowances.map(stored)) : null,
    charges: extras.charges.length > 0 ? JSON.stringify(extras.charges.map(stored)) : null,
  };
}

/** The extras a row stores, as values (for recomputing and for documents). */
export function extrasOf(row: DocumentExtrasColumns): DocumentExtras {
  return {
    paymentMeans: row.payment_means ? (JSON.parse(row.payment_means) as PaymentMeansValue) : null,
    paymentTerms: row.payment_terms ?? null,
    deliveryDate: row.delivery_date ?? null,
    invoicePeriod:
      row.invoice_period_start && row.invoice_period_end
        ? { start: row.invoice_period_start, end: row.invoice_period_end }
        : null,
    allowances: row.allowances ? (JSON.parse(row.allowances) as StoredAllowanceCharge[]).map(valueOf) : [],
    charges: row.charges ? (JSON.parse(row.charges) as StoredAllowanceCharge[]).map(valueOf) : [],
  };
}

/** The extras as the API shows them. */
export function apiExtras(extras: DocumentExtras): ApiExtras {
  return {
    paymentMeans: extras.paymentMeans,
    paymentTerms: extras.paymentTerms,
    deliveryDate: extras.deliveryDate,
    invoicePeriod: extras.invoicePeriod,
    allowances: extras.allowances.map(stored),
    charges: extras.charges.map(stored),
  };
}

/** Allowances and charges as the arithmetic takes them. */
export function adjustmentsOf(extras: Pick<DocumentExtras, 'allowances' | 'charges'>): {
  allowances: AllowanceChargeFigures[];
  charges: AllowanceChargeFigures[];
} {
  return { allowances: extras.allowances, charges: extras.charges };
}

/**
 * The extras an invoice is issued with: a payment means without an account gets the company's
 * (58 SEPA credit transfer for EUR, else 30), no payment means at all becomes that default when
 * the company has an account, and no payment terms become the company's.
 */
export function withCompanyDefaults(extras: DocumentExtras, company: CompanyRow, currency: string): DocumentExtras {
  const account = company.iban
    ? {
        iban: company.iban,
        bic: company.bic ?? null,
        accountName: company.account_name ?? company.legal_name ?? company.name,
      }
    : null;
  let paymentMeans = extras.paymentMeans;
  if (paymentMeans === null && account) {
    paymentMeans = {
      code: currency === 'EUR' ? '58' : '30',
      ...account,
      mandateReference: null,
      payerIban: null,
      cardLastDigits: null,
    };
  } else if (
    paymentMeans &&
    (paymentMeans.code === '58' || paymentMeans.code === '30') &&
    paymentMeans.iban === null &&
    account
  ) {
    paymentMeans = {
      ...paymentMeans,
      ...account,
      ...(paymentMeans.accountName ? { accountName: paymentMeans.accountName } : {}),
    };
  }
  return { ...extras, paymentMeans, paymentTerms: extras.paymentTerms ?? company.payment_terms ?? null };
}
