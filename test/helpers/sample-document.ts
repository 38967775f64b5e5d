import { documentViewFrom, type DocumentInput } from '../../src/documents/build-view.js';
import type { DocumentView } from '../../src/documents/model.js';
import { calculateInvoice } from '../../src/money/invoice-calculation.js';
import { Decimal } from '../../src/money/decimal.js';

// A hand-made invoice with the business content of Peppol's base example
// (../shared/einvoice/examples/peppol/base-example.xml), for the mapping and PDF tests.

export function sampleInput(overrides: Partial<DocumentInput> = {}): DocumentInput {
  return {
    typeCode: '380',
    number: 'Snippet1',
    issueDate: '2017-11-13',
    dueDate: '2017-12-01',
    currency: { code: 'EUR', minorDigits: 2 },
    buyerReference: '0150abc',
    purchaseOrderReference: null,
    tenderReference: null,
    note: null,
    paymentTerms: 'Payment within 10 days, 2% discount',
    deliveryDate: '2017-11-01',
    invoicePeriod: null,
    deliverTo: {
      name: 'Delivery party Name',
      address: {
        line1: 'Delivery street 2',
        line2: 'Building 56',
        city: 'Stockholm',
        postalCode: '21234',
        countryCode: 'SE',
      },
    },
    precedingInvoice: null,
    seller: {
      name: 'SupplierOfficialName Ltd',
      tradingName: 'SupplierTradingName Ltd.',
      identifier: { id: '99887766', schemeId: null },
      legalRegistrationId: { id: 'GB983294', schemeId: null },
      vatId: 'GB1232434',
      taxRegistrationId: null,
      electronicAddress: { id: '9482348239847239874', schemeId: '0088' },
      address: {
        line1: 'Main street 1',
        line2: 'Postbox 123',
        city: 'London',
        postalCode: 'GB 123 EW',
        countryCode: 'GB',
      },
      contact: null,
    },
    buyer: {
      name: 'Buyer Official Name',
      tradingName: 'BuyerTradingName AS',
      identifier: { id: 'FR23342', schemeId: '0002' },
      legalRegistrationId: { id: '39937423947', schemeId: '0183' },
      vatId: 'SE4598375937',
      taxRegistrationId: null,
      electronicAddress: { id: 'FR23342', schemeId: '0002' },
      address: {
        line1: 'Hovedgatan 32',
        line2: 'Po box 878',
        city: 'Stockholm',
        postalCode: '456 34',
        countryCode: 'SE',
      },
      contact: { name: 'Lisa Johnson', phone: '23434234', email: 'lj@buyer.se' },
    },
    paymentMeans: {
      code: '30',
      remittanceInformation: 'Snippet1',
      creditTransfer: { accountId: 'IBAN32423940', accountName: 'AccountName', serviceProviderId: 'BIC324098' },
      card: null,
      directDebit: null,
    },
    allowances: [],
    charges: [
      {
        amount: new Decimal('25'),
        reason: 'Insurance',
        reasonCode: null,
        vatCategory: 'S',
        vatRate: new Decimal('25'),
      },
    ],
    lines: [
      {
        name: 'item name',
        description: 'Description of item',
        quantity: new Decimal('7'),
        unitCode: 'DAY',
        unitPrice: new Decimal('400'),
        discountPercent: null,
        vatRate: new Decimal('25'),
        vatCategory: 'S',
        exemptionReason: null,
      },
      {
        name: 'item name 2',
        description: 'Description 2',
        quantity: new Decimal('-3'),
        unitCode: 'DAY',
        unitPrice: new Decimal('500'),
        discountPercent: null,
        vatRate: new Decimal('25'),
        vatCategory: 'S',
        exemptionReason: null,
      },
    ],
    pricesIncludeTax: false,
    draft: false,
    test: false,
    ...overrides,
  };
}

/** A German invoice complete for every profile: XRechnung's contact and Leitweg-ID, a GLN, SEPA transfer. */
export function germanInput(overrides: Partial<DocumentInput> = {}): DocumentInput {
  const base = sampleInput();
  return sampleInput({
    number: '2026-00042',
    issueDate: '2026-03-02',
    dueDate: '2026-04-01',
    buyerReference: '04011000-12345-03',
    purchaseOrderReference: 'PO-4711',
    tenderReference: null,
    paymentTerms: 'Zahlbar innerhalb von 30 Tagen.',
    deliveryDate: '2026-02-27',
    deliverTo: null,
    seller: {
      ...base.seller,
      name: 'Muster Software GmbH',
      tradingName: null,
      identifier: null,
      legalRegistrationId: { id: 'HRB 12345', schemeId: null },
      vatId: 'DE123456789',
      taxRegistrationId: '12/345/67890',
      electronicAddress: { id: '4000001123452', schemeId: '0088' },
      address: { line1: 'Hauptstraße 1', line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
      contact: { name: 'Erika Mustermann', phone: '+49 30 1234567', email: 'rechnung@muster.example' },
    },
    buyer: {
      ...base.buyer,
      name: 'Acme Trading GmbH',
      tradingName: null,
      identifier: null,
      legalRegistrationId: null,
      vatId: 'DE811907980',
      electronicAddress: { id: 'DE811907980', schemeId: '9930' },
      address: { line1: 'Marktplatz 7', line2: null, city: 'München', postalCode: '80331', countryCode: 'DE' },
      contact: null,
    },
    paymentMeans: {
      code: '58',
      remittanceInformation: null,
      creditTransfer: {
        accountId: 'DE02120300000000202051',
        accountName: 'Muster Software GmbH',
        serviceProviderId: 'BYLADEM1001',
      },
      card: null,
      directDebit: null,
    },
    allowances: [
      {
        amount: new Decimal('10'),
        reason: 'Treuerabatt',
        reasonCode: '95',
        vatCategory: 'S',
        vatRate: new Decimal('19'),
      },
    ],
    charges: [
      {
        amount: new Decimal('4.90'),
        reason: 'Versand',
        reasonCode: 'FC',
        vatCategory: 'S',
        vatRate: new Decimal('19'),
      },
    ],
    lines: [
      {
        name: 'Beratung',
        description: 'Workshop vor Ort',
        quantity: new Decimal('7.5'),
        unitCode: 'HUR',
        unitPrice: new Decimal('95'),
        discountPercent: new Decimal('10'),
        vatRate: new Decimal('19'),
        vatCategory: 'S',
        exemptionReason: null,
      },
      {
        name: 'Handbuch',
        description: null,
        quantity: new Decimal('3'),
        unitCode: 'H87',
        unitPrice: new Decimal('12.45'),
        discountPercent: null,
        vatRate: new Decimal('7'),
        vatCategory: 'S',
        exemptionReason: null,
      },
      {
        name: 'Zertifizierte Schulung',
        description: 'Steuerfrei nach § 4 Nr. 21 UStG',
        quantity: new Decimal('1'),
        unitCode: 'C62',
        unitPrice: new Decimal('480'),
        discountPercent: null,
        vatRate: new Decimal('0'),
        vatCategory: 'E',
        exemptionReason: 'Steuerfrei nach § 4 Nr. 21 UStG',
      },
    ],
    ...overrides,
  });
}

/**
 * The EN 16931 view of a hand-made document, built as every stored document's is
 * (src/services/document-view.ts): our arithmetic over its lines, allowances and charges, then
 * the one view builder, documentViewFrom.
 */
export function viewOf(input: DocumentInput): DocumentView {
  const calculation = calculateInvoice(
    input.lines,
    { digits: input.currency.minorDigits, pricesIncludeTax: input.pricesIncludeTax },
    { allowances: input.allowances, charges: input.charges },
  );
  return documentViewFrom(input, calculation);
}
