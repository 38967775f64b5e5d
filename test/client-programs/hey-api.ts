import { createClient } from './hey-api/client/index.js';
import { createInvoice, createOrganization, getInvoice, headGetInvoice } from './hey-api/sdk.gen.js';
import type { CreateInvoiceInput, ErrorEnvelope, Invoice, InvoiceLineInput, Organization } from './hey-api/types.gen.js';

// Written as an integration would be, against the client @hey-api/openapi-ts generates: no cast
// anywhere. Decimals go as strings or numbers, a line carries a discount, and the named types
// (Invoice, InvoiceLineInput, …) are importable.

const client = createClient({ baseUrl: 'http://127.0.0.1:3000/api/v1.0.0/public', headers: { 'X-API-Key': 'inv_live_AbCdEfGh_0123456789abcdefghijklmn' } });

export async function issueDiscountedInvoice(): Promise<Invoice | ErrorEnvelope> {
  const organization = await createOrganization({
    client,
    headers: { 'Idempotency-Key': '7f3c9a52-1d4e-4b8a-9c61-0e2f5d8b7a13' },
    body: { name: 'Acme Trading GmbH', isCustomer: true, address: { city: 'Berlin', countryCode: 'DE' } },
  });
  if (organization.error) return organization.error;
  const buyer: Organization = organization.data.data;

  const consulting: InvoiceLineInput = { name: 'Consulting', quantity: '7.5', unitCode: 'HUR', unitPrice: '95.00', discountPercent: '10', vatRate: '19' };
  const handbook: InvoiceLineInput = { name: 'Handbook', quantity: 3, unitPrice: 12.45, discountPercent: 2.5, vatRate: 7 };
  const body: CreateInvoiceInput = { organizationId: buyer.id, issueDate: '2026-03-02', lines: [consulting, handbook] };
  const created = await createInvoice({ client, body });
  if (created.error) {
    const code = created.error.error.code;
    // @ts-expect-error the error codes are the invoice's own: NAME_CONFLICT is never among them
    if (code === 'NAME_CONFLICT') return created.error;
    console.warn(code, created.error.error.details?.map((detail) => detail.field));
    return created.error;
  }
  const discount: string | null = created.data.data.lines[0]!.discountPercent;
  console.warn(discount, created.data.data.totals.payable);

  const head = await headGetInvoice({ client, path: { id: created.data.data.id } });
  console.warn(head.response.status);
  const read = await getInvoice({ client, path: { id: created.data.data.id } });
  return read.data ? read.data.data : read.error;
}

// What the API refuses, the types refuse too (each line would compile if a type were unknown).
// @ts-expect-error a discount is a decimal, not a boolean
export const booleanDiscount: InvoiceLineInput = { name: 'x', quantity: 1, unitPrice: 1, vatRate: 19, discountPercent: true };
// @ts-expect-error a quantity is a decimal, not an object
export const objectQuantity: InvoiceLineInput = { name: 'x', quantity: { value: 1 }, unitPrice: 1, vatRate: 19 };
// @ts-expect-error unknown VAT categories are refused
export const unknownCategory: InvoiceLineInput = { name: 'x', quantity: 1, unitPrice: 1, vatRate: 19, vatCategory: 'X' };
