import createClient from 'openapi-fetch';
import type { components, paths } from './openapi-typescript/schema.js';

// The same integration against openapi-typescript's types with openapi-fetch: no cast anywhere.

type InvoiceLineInput = components['schemas']['InvoiceLineInput'];
type Invoice = components['schemas']['Invoice'];

const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000/api/v1.0.0/public', headers: { 'X-API-Key': 'inv_live_AbCdEfGh_0123456789abcdefghijklmn' } });

export async function issueDiscountedInvoice(): Promise<Invoice | undefined> {
  const organization = await api.POST('/organization', {
    params: { header: { 'Idempotency-Key': '7f3c9a52-1d4e-4b8a-9c61-0e2f5d8b7a13' } },
    body: { name: 'Acme Trading GmbH', isCustomer: true },
  });
  if (!organization.data) return undefined;

  const lines: InvoiceLineInput[] = [
    { name: 'Consulting', quantity: '7.5', unitPrice: '95.00', discountPercent: '10', vatRate: '19' },
    { name: 'Handbook', quantity: 3, unitPrice: 12.45, discountPercent: 2.5, vatRate: 7 },
  ];
  const invoice = await api.POST('/invoice', { body: { organizationId: organization.data.data.id, lines } });
  if (!invoice.data) {
    console.warn(invoice.error?.error.code);
    return undefined;
  }
  const head = await api.HEAD('/invoice/{id}', { params: { path: { id: invoice.data.data.id } } });
  console.warn(head.response.headers.get('X-Request-Id'));
  return invoice.data.data;
}

// @ts-expect-error a discount is a decimal, not a boolean
export const booleanDiscount: InvoiceLineInput = { name: 'x', quantity: 1, unitPrice: 1, vatRate: 19, discountPercent: true };
