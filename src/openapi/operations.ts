import { API_MAJOR_VERSION, API_VERSION } from '../http/api-version.js';

// Operation ids and one realistic example per operation. The examples are data beside the
// schemas, not schemas: a test validates every one of them against the schema it illustrates,
// so they cannot drift from what the API answers.

export interface OperationExtras {
  operationId: string;
  /** The example request body, for operations that take one. */
  requestBody?: unknown;
  /** The example success body (the status is the operation's one 2xx). */
  response?: unknown;
}

const REQUEST_ID = 'req_6f1c2a4e-2b7d-4c1e-9a51-3f0d8e7b9c21';
const meta = {
  requestId: REQUEST_ID,
  requestTime: '2026-03-02T09:15:04.120Z',
  apiVersion: API_MAJOR_VERSION,
  timestamp: '2026-03-02T09:15:04.164Z',
};

const ORGANIZATION_ID = 'org_01956a3c-7f10-7c2e-9b4d-2c5e8a1b3d4f';
const INVOICE_ID = 'inv_01956a3d-0a42-7d11-8e3a-6b1f0c9d2e57';

const organization = {
  id: ORGANIZATION_ID,
  name: 'Acme Trading GmbH',
  typeCode: 'P',
  firstName: null,
  lastName: null,
  isCustomer: true,
  isSupplier: false,
  email: 'billing@acme.example',
  phone: '+49 30 123456',
  vatId: 'DE811907980',
  taxNumber: null,
  address: { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
  createdAt: '2026-03-02T09:14:58.311Z',
};

const invoice = {
  id: INVOICE_ID,
  number: '2026-00042',
  status: 'issued',
  organizationId: ORGANIZATION_ID,
  buyer: {
    name: 'Acme Trading GmbH',
    typeCode: 'P',
    firstName: null,
    lastName: null,
    vatId: 'DE811907980',
    taxNumber: null,
    email: 'billing@acme.example',
    address: { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
  },
  seller: { name: 'Example Software GmbH', vatId: 'DE123456789', countryCode: 'DE' },
  issueDate: '2026-03-02',
  dueDate: '2026-04-01',
  currency: 'EUR',
  pricesIncludeTax: false,
  buyerReference: null,
  purchaseOrderReference: 'PO-7781',
  note: null,
  lines: [
    {
      position: 1,
      name: 'Consulting (hours)',
      description: null,
      quantity: '3',
      unitCode: 'HUR',
      unitPrice: '19.99',
      discountPercent: null,
      vatRate: '19',
      vatCategory: 'S',
      exemptionReason: null,
      netAmount: '59.97',
    },
  ],
  vatBreakdown: [{ vatCategory: 'S', vatRate: '19', taxableAmount: '59.97', taxAmount: '11.39', exemptionReason: null }],
  totals: {
    lineNetTotal: '59.97',
    taxExclusive: '59.97',
    taxTotal: '11.39',
    taxInclusive: '71.36',
    roundingAmount: '0.00',
    payable: '71.36',
  },
  createdAt: '2026-03-02T09:15:04.150Z',
};

const NEXT_CURSOR = 'MjAyNi0wMy0wMlQwOToxNDo1OC4zMTFafG9yZ18wMTk1NmEzYy03ZjEwLTdjMmUtOWI0ZC0yYzVlOGExYjNkNGY';

const EXTRAS: Record<string, OperationExtras> = {
  'GET /': {
    operationId: 'getHealth',
    response: {
      success: true,
      message: 'Service is up.',
      data: {
        status: 'ok',
        version: API_VERSION,
        companyId: 'cmp_01956a30-1b2c-7d3e-8f40-5a6b7c8d9e0f',
        keyPrefix: 'AbCdEfGh',
        permissions: ['invoice.create', 'invoice.read', 'organization.create', 'organization.read'],
      },
      meta,
    },
  },
  'GET /openapi.json': { operationId: 'getOpenApiDocument' },
  'POST /organization': {
    operationId: 'createOrganization',
    requestBody: {
      name: 'Acme Trading GmbH',
      typeCode: 'P',
      isCustomer: true,
      email: 'billing@acme.example',
      phone: '+49 30 123456',
      vatId: 'DE811907980',
      address: { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
    },
    response: { success: true, message: 'Organization created.', data: organization, meta },
  },
  'GET /organization': {
    operationId: 'listOrganizations',
    response: { success: true, message: 'Organizations listed.', data: { items: [organization], nextCursor: NEXT_CURSOR }, meta },
  },
  'GET /organization/{id}': {
    operationId: 'getOrganization',
    response: { success: true, message: 'Organization found.', data: organization, meta },
  },
  'POST /invoice': {
    operationId: 'createInvoice',
    requestBody: {
      organizationId: ORGANIZATION_ID,
      issueDate: '2026-03-02',
      purchaseOrderReference: 'PO-7781',
      lines: [{ name: 'Consulting (hours)', quantity: '3', unitCode: 'HUR', unitPrice: '19.99', vatRate: '19' }],
    },
    response: { success: true, message: 'Invoice 2026-00042 created.', data: invoice, meta },
  },
  'GET /invoice': {
    operationId: 'listInvoices',
    response: { success: true, message: 'Invoices listed.', data: { items: [invoice], nextCursor: null }, meta },
  },
  'GET /invoice/{id}': {
    operationId: 'getInvoice',
    response: { success: true, message: 'Invoice found.', data: invoice, meta },
  },
};

export const EXAMPLE_REQUEST_ID = REQUEST_ID;

/** The extras of an operation; operations without an entry get a derived id and no example. */
export function operationExtras(method: string, path: string): OperationExtras | undefined {
  return EXTRAS[`${method.toUpperCase()} ${path}`];
}

export function operationIdFor(method: string, path: string): string {
  const known = operationExtras(method, path)?.operationId;
  if (known) return known;
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}
