import { renderCii, renderUbl } from '../../src/documents/index.js';
import type { SchemedId } from '../../src/documents/model.js';
import { Decimal } from '../../src/money/decimal.js';
import { BASE_PATH, type TestApp } from './build.js';
import { germanInput, viewOf } from './sample-document.js';

// E-invoices a supplier sends us, written by our own writers (valid EN 16931 and Peppol BIS 3
// documents, sellers and numbers chosen by the test), and the POST that receives one.

export interface SupplierDocument {
  number?: string;
  sellerName?: string;
  vatId?: string | null;
  endpoint?: SchemedId | null;
  legalId?: SchemedId | null;
  /** One line of this net price, VAT 19 %: the payable is price × 1.19. */
  price?: string;
  dueDate?: string | null;
  issueDate?: string;
  /** A credit note correcting this invoice number (BT-25). */
  corrects?: string;
  syntax?: 'ubl' | 'cii';
}

/** A supplier's invoice or credit note as UBL (Peppol BIS 3) or CII XML. */
export function supplierDocument(options: SupplierDocument = {}): string {
  const base = germanInput();
  const price = new Decimal(options.price ?? '100');
  const view = viewOf(
    germanInput({
      typeCode: options.corrects ? '381' : '380',
      number: options.number ?? 'R-1001',
      issueDate: options.issueDate ?? '2026-03-02',
      dueDate: options.dueDate === undefined ? '2026-04-01' : options.dueDate,
      precedingInvoice: options.corrects ? { number: options.corrects, issueDate: '2026-03-01' } : null,
      seller: {
        ...base.seller,
        name: options.sellerName ?? 'Nordlicht Bürobedarf GmbH',
        vatId: options.vatId === undefined ? 'DE811907980' : options.vatId,
        electronicAddress:
          options.endpoint === undefined ? { id: '4000001123452', schemeId: '0088' } : options.endpoint,
        legalRegistrationId: options.legalId === undefined ? { id: 'HRB 4711', schemeId: null } : options.legalId,
      },
      allowances: [],
      charges: [],
      lines: [
        {
          name: 'Office chairs',
          description: null,
          quantity: new Decimal('1'),
          unitCode: 'H87',
          unitPrice: price,
          discountPercent: null,
          vatRate: new Decimal('19'),
          vatCategory: 'S',
          exemptionReason: null,
        },
      ],
    }),
  );
  return options.syntax === 'cii' ? renderCii(view, { profile: 'en16931' }) : renderUbl(view, { profile: 'peppol' });
}

/** POST /purchase-invoice with the document as the raw body. */
export function receive(
  t: Pick<TestApp, 'request'>,
  key: string,
  body: string | Buffer,
  options: { contentType?: string; query?: string; headers?: Record<string, string> } = {},
) {
  return t.request({
    method: 'POST',
    url: `${BASE_PATH}/purchase-invoice${options.query ? `?${options.query}` : ''}`,
    payload: body,
    headers: { 'x-api-key': key, 'content-type': options.contentType ?? 'application/xml', ...(options.headers ?? {}) },
  });
}
