import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

// A typed client generated from the OpenAPI document (`npm run generate:client`): create an
// organization and an invoice (each with an Idempotency-Key, so a retry after a timeout cannot
// create a second one), then read both back. test/api/client-example.test.ts runs this file against
// a listening server, so it cannot rot.

export async function runExample(baseUrl: string, apiKey: string) {
  // baseUrl is the base path, e.g. http://127.0.0.1:3000/api/v1.0.0/public
  const api = createClient<paths>({ baseUrl, headers: { 'X-API-Key': apiKey } });

  const organization = await api.POST('/organization', {
    params: { header: { 'Idempotency-Key': randomUUID() } },
    body: {
      name: 'Acme Trading GmbH',
      isCustomer: true,
      vatId: 'DE811907980',
      address: { city: 'Berlin', countryCode: 'DE' },
    },
  });
  if (!organization.data) throw new Error(`creating the organization failed: ${organization.error?.error.code}`);
  const organizationId = organization.data.data.id;

  const invoiceKey = randomUUID();
  const invoiceBody = {
    organizationId,
    lines: [{ name: 'Consulting (hours)', quantity: '3', unitCode: 'HUR', unitPrice: '19.99', vatRate: '19' }],
  };
  const invoice = await api.POST('/invoice', {
    params: { header: { 'Idempotency-Key': invoiceKey } },
    body: invoiceBody,
  });
  if (!invoice.data) throw new Error(`creating the invoice failed: ${invoice.error?.error.code}`);

  // Retrying with the same key (say, after a timeout) returns the same invoice, not a second one.
  const retried = await api.POST('/invoice', {
    params: { header: { 'Idempotency-Key': invoiceKey } },
    body: invoiceBody,
  });
  if (!retried.data) throw new Error(`retrying the invoice failed: ${retried.error?.error.code}`);

  const readOrganization = await api.GET('/organization/{id}', { params: { path: { id: organizationId } } });
  const readInvoice = await api.GET('/invoice/{id}', { params: { path: { id: invoice.data.data.id } } });
  const invoices = await api.GET('/invoice', { params: { query: { organizationId, limit: 10 } } });
  if (!readOrganization.data || !readInvoice.data || !invoices.data) throw new Error('reading back failed');

  return {
    organization: organization.data.data,
    invoice: invoice.data.data,
    retriedInvoice: retried.data.data,
    replayed: retried.response.headers.get('Idempotent-Replayed') === 'true',
    readOrganization: readOrganization.data.data,
    readInvoice: readInvoice.data.data,
    listedInvoices: invoices.data.data.items,
  };
}
