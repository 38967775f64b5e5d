import type { VatCategory } from '../money/invoice-calculation.js';
import type { InvoiceLineRow, InvoiceRow } from '../repositories/invoice-repository.js';
import type { Invoice } from '../schemas/invoice.js';

// Stored rows to the invoice the API shows. What is shown is what was stored, so an answer
// built right after the insert and one read back later are the same.

export type StoredVatBreakdown = Invoice['vatBreakdown'][number];

export function invoiceFromRows(row: InvoiceRow, lines: InvoiceLineRow[]): Invoice {
  return {
    id: row.id,
    number: row.number,
    status: 'issued',
    organizationId: row.organization_id,
    buyer: JSON.parse(row.buyer_snapshot) as Invoice['buyer'],
    seller: JSON.parse(row.seller_snapshot) as Invoice['seller'],
    issueDate: row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    pricesIncludeTax: row.prices_include_tax === 1,
    buyerReference: row.buyer_reference,
    purchaseOrderReference: row.purchase_order_reference,
    note: row.note,
    lines: [...lines]
      .sort((a, b) => a.position - b.position)
      .map((line) => ({
        position: line.position,
        name: line.name,
        description: line.description,
        quantity: line.quantity,
        unitCode: line.unit_code,
        unitPrice: line.unit_price,
        discountPercent: line.discount_percent,
        vatRate: line.vat_rate,
        vatCategory: line.vat_category as VatCategory,
        exemptionReason: line.exemption_reason,
        netAmount: line.net_amount,
      })),
    vatBreakdown: JSON.parse(row.vat_breakdown) as StoredVatBreakdown[],
    totals: {
      lineNetTotal: row.line_net_total,
      taxExclusive: row.tax_exclusive,
      taxTotal: row.tax_total,
      taxInclusive: row.tax_inclusive,
      roundingAmount: row.rounding_amount,
      payable: row.payable,
    },
    createdAt: row.created_at,
  };
}
