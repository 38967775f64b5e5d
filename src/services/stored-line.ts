import type { VatCategory } from '../money/invoice-calculation.js';
import type { InvoiceLineRow } from '../repositories/invoice-repository.js';

/** The columns a stored line has, whether an invoice's or a credit note's. */
export type LineColumns = Omit<InvoiceLineRow, 'invoice_id' | 'company_id'>;

/** A stored line's fields under their API names, as the text they are stored as. */
export interface LineFields {
  name: string;
  description: string | null;
  quantity: string;
  unitCode: string;
  unitPrice: string;
  discountPercent: string | null;
  vatRate: string;
  vatCategory: VatCategory;
  exemptionReason: string | null;
}

/**
 * The one mapping of a stored line's columns to its fields: what the API shows of a line, what a
 * PATCH without `lines` keeps, and what the arithmetic reads (after parsing) all start here.
 */
export function lineFieldsOf(line: LineColumns): LineFields {
  return {
    name: line.name,
    description: line.description,
    quantity: line.quantity,
    unitCode: line.unit_code,
    unitPrice: line.unit_price,
    discountPercent: line.discount_percent,
    vatRate: line.vat_rate,
    vatCategory: line.vat_category as VatCategory,
    exemptionReason: line.exemption_reason,
  };
}
