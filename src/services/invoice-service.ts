import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ErrorDetail } from '../errors/app-error.js';
import { newId } from '../lib/ids.js';
import { plainDecimal } from '../money/decimal.js';
import { calculateInvoice } from '../money/invoice-calculation.js';
import { formatMoney } from '../money/money.js';
import type { CompanyRepository } from '../repositories/company-repository.js';
import type { InvoiceLineRow, InvoiceRepository, InvoiceRow, Numbering } from '../repositories/invoice-repository.js';
import type { OrganizationRepository } from '../repositories/organization-repository.js';
import type { CreateInvoiceInput, Invoice } from '../schemas/invoice.js';
import { invoiceFromRows, type StoredVatBreakdown } from './invoice-mapping.js';
import { readInvoiceInput, type InvoiceDraft } from './invoice-input.js';
import { formatInvoiceNumber, yearOf } from './invoice-numbering.js';
import { organizationFromRow } from './organization-service.js';

export type CreateInvoiceResult =
  | { ok: true; value: Invoice }
  | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }
  | { ok: false; code: 'ORGANIZATION_NOT_FOUND' | 'INVOICE_NUMBER_CONFLICT' };

function buyerSnapshot(organization: ReturnType<typeof organizationFromRow>): Invoice['buyer'] {
  const { name, typeCode, firstName, lastName, vatId, taxNumber, email, address } = organization;
  return { name, typeCode, firstName, lastName, vatId, taxNumber, email, address };
}

/** The invoice's rows: amounts as decimal text with exactly the currency's digits. */
function rowsOf(draft: InvoiceDraft, base: Pick<InvoiceRow, 'id' | 'company_id' | 'organization_id' | 'buyer_snapshot' | 'seller_snapshot' | 'created_at'>) {
  const { digits } = draft;
  const money = (value: Parameters<typeof formatMoney>[0]) => formatMoney(value, digits);
  const calculation = calculateInvoice(draft.lines, { digits, pricesIncludeTax: draft.pricesIncludeTax });
  const lines: InvoiceLineRow[] = draft.lines.map((line, index) => ({
    invoice_id: base.id,
    company_id: base.company_id,
    position: index + 1,
    name: line.name,
    description: line.description,
    quantity: plainDecimal(line.quantity),
    unit_code: line.unitCode,
    unit_price: plainDecimal(line.unitPrice),
    discount_percent: line.discountPercent === null ? null : plainDecimal(line.discountPercent),
    vat_rate: plainDecimal(line.vatRate),
    vat_category: line.vatCategory,
    exemption_reason: line.exemptionReason,
    net_amount: money(calculation.lineNetAmounts[index]!),
  }));
  const breakdown: StoredVatBreakdown[] = calculation.vatBreakdown.map((group) => ({
    vatCategory: group.vatCategory,
    vatRate: plainDecimal(group.vatRate),
    taxableAmount: money(group.taxableAmount),
    taxAmount: money(group.taxAmount),
    // EN 16931 carries one exemption reason per breakdown entry: the group's first.
    exemptionReason: group.lineIndexes.map((i) => draft.lines[i]!.exemptionReason).find((r) => r !== null) ?? null,
  }));
  const { totals } = calculation;
  const invoice: Omit<InvoiceRow, 'number'> = {
    ...base,
    status: 'issued',
    issue_date: draft.issueDate,
    due_date: draft.dueDate,
    currency: draft.currency,
    prices_include_tax: draft.pricesIncludeTax ? 1 : 0,
    buyer_reference: draft.buyerReference,
    purchase_order_reference: draft.purchaseOrderReference,
    note: draft.note,
    vat_breakdown: JSON.stringify(breakdown),
    line_net_total: money(totals.lineNetTotal),
    tax_exclusive: money(totals.taxExclusive),
    tax_total: money(totals.taxTotal),
    tax_inclusive: money(totals.taxInclusive),
    rounding_amount: money(totals.roundingAmount),
    payable: money(totals.payable),
  };
  return { invoice, lines };
}

export class InvoiceService {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly organizations: OrganizationRepository,
    private readonly companies: CompanyRepository,
  ) {}

  /**
   * Everything that can refuse the invoice is checked before the transaction that numbers and
   * stores it, so a refused invoice never takes a number. With `trx` (an idempotent request's
   * transaction) every read and the insert run in it, and the caller commits.
   */
  async create(companyId: string, input: CreateInvoiceInput, now: Date = new Date(), trx?: Kysely<Database>): Promise<CreateInvoiceResult> {
    const company = await this.companies.findById(companyId, trx);
    if (!company) throw new Error(`The company ${companyId} of an authenticated key does not exist`);
    const read = readInvoiceInput(input, { currency: company.currency, now });
    if (!read.ok) return { ok: false, code: 'VALIDATION_ERROR', details: read.details };
    const draft = read.value;

    const organization = await this.organizations.findById(companyId, draft.organizationId, trx);
    if (!organization) return { ok: false, code: 'ORGANIZATION_NOT_FOUND' };

    const seller: Invoice['seller'] = { name: company.name, vatId: company.vat_id, countryCode: company.country_code };
    const { invoice, lines } = rowsOf(draft, {
      id: newId('inv'),
      company_id: companyId,
      organization_id: organization.id,
      buyer_snapshot: JSON.stringify(buyerSnapshot(organizationFromRow(organization))),
      seller_snapshot: JSON.stringify(seller),
      created_at: now.toISOString(),
    });
    const numbering: Numbering =
      draft.number === null
        ? { kind: 'sequence', year: yearOf(draft.issueDate), format: formatInvoiceNumber }
        : { kind: 'given', number: draft.number };
    const inserted = await this.invoices.insertWithNumber(invoice, lines, numbering, trx);
    if (!inserted.ok) return { ok: false, code: 'INVOICE_NUMBER_CONFLICT' };
    return { ok: true, value: invoiceFromRows({ ...invoice, number: inserted.number }, lines) };
  }
}
