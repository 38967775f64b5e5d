import type {
  Einvoice,
  EinvoiceAddress,
  EinvoiceAllowanceCharge,
  EinvoiceAttachment,
  EinvoiceDocumentAllowanceCharge,
  EinvoiceLine,
  EinvoiceParty,
  EinvoicePaymentMeans,
} from '../einvoice-model.js';
import type { SchemedId } from '../model.js';
import { digitsOf, Locations, splitNote, type SyntaxReading } from './reading.js';
import { XmlSource } from './xml-source.js';
import type { XmlElement } from './xml-tree.js';

// UBL 2.1 Invoice or CreditNote into the EN 16931 model, by the EN 16931 UBL syntax binding
// (CEN/TS 16931-3-2). Every element read is marked, so what is left is listed as unmapped.

export const UBL_NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

const isVat = (s: XmlSource, category: XmlElement | null) =>
  (s.text(category, 'cac:TaxScheme/cbc:ID') ?? '').toUpperCase() === 'VAT';

function schemed(s: XmlSource, element: XmlElement | null, attribute = 'schemeID'): SchemedId | null {
  const id = s.text(element);
  return id === null ? null : { id, schemeId: s.attribute(element, attribute) };
}

function address(s: XmlSource, element: XmlElement | null): EinvoiceAddress | null {
  if (!s.take(element)) return null;
  return {
    line1: s.text(element, 'cbc:StreetName'),
    line2: s.text(element, 'cbc:AdditionalStreetName'),
    line3: s.text(element, 'cac:AddressLine/cbc:Line'),
    city: s.text(element, 'cbc:CityName'),
    postalCode: s.text(element, 'cbc:PostalZone'),
    subdivision: s.text(element, 'cbc:CountrySubentity'),
    countryCode: s.text(element, 'cac:Country/cbc:IdentificationCode'),
  };
}

function party(s: XmlSource, element: XmlElement | null): { party: EinvoiceParty; creditorId: string | null } {
  const ids = s.all(element, 'cac:PartyIdentification').map((i) => s.at(i, 'cbc:ID'));
  // BT-90, the SEPA creditor id, is a party identification with scheme SEPA.
  const sepa = ids.find((i) => i?.attributes.schemeID === 'SEPA') ?? null;
  const identifiers = ids
    .filter((i) => i !== sepa)
    .map((i) => schemed(s, i))
    .filter((i): i is SchemedId => i !== null);
  const taxSchemes = s.all(element, 'cac:PartyTaxScheme');
  const vat = taxSchemes.find((t) => isVat(s, t));
  const other = taxSchemes.find((t) => !isVat(s, t));
  const contact = s.at(element, 'cac:Contact');
  s.attribute(sepa, 'schemeID');
  return {
    creditorId: s.text(sepa),
    party: {
      name: s.text(element, 'cac:PartyLegalEntity/cbc:RegistrationName'),
      tradingName: s.text(element, 'cac:PartyName/cbc:Name'),
      identifier: identifiers[0] ?? null,
      ...(identifiers.length > 1 ? { identifiers } : {}),
      legalRegistrationId: schemed(s, s.at(element, 'cac:PartyLegalEntity/cbc:CompanyID')),
      vatId: s.text(vat, 'cbc:CompanyID'),
      taxRegistrationId: s.text(other, 'cbc:CompanyID'),
      additionalLegalInformation: s.text(element, 'cac:PartyLegalEntity/cbc:CompanyLegalForm'),
      electronicAddress: schemed(s, s.at(element, 'cbc:EndpointID')),
      address: address(s, s.at(element, 'cac:PostalAddress')),
      contact: s.take(contact)
        ? {
            name: s.text(contact, 'cbc:Name'),
            phone: s.text(contact, 'cbc:Telephone'),
            email: s.text(contact, 'cbc:ElectronicMail'),
          }
        : null,
    },
  };
}

function taxCategory(s: XmlSource, parent: XmlElement, name: string) {
  const all = s.all(parent, name);
  const category = all.find((c) => isVat(s, c)) ?? all[0] ?? null;
  return {
    category,
    vatCategory: s.text(category, 'cbc:ID'),
    vatRate: s.text(category, 'cbc:Percent'),
    taxScheme: category ? s.text(category, 'cac:TaxScheme/cbc:ID') : null,
  };
}

function allowanceCharge(s: XmlSource, element: XmlElement): EinvoiceAllowanceCharge {
  return {
    amount: s.text(element, 'cbc:Amount'),
    baseAmount: s.text(element, 'cbc:BaseAmount'),
    percent: s.text(element, 'cbc:MultiplierFactorNumeric'),
    reason: s.text(element, 'cbc:AllowanceChargeReason'),
    reasonCode: s.text(element, 'cbc:AllowanceChargeReasonCode'),
  };
}

const isCharge = (s: XmlSource, element: XmlElement) => s.text(element, 'cbc:ChargeIndicator') === 'true';

function documentAllowanceCharge(s: XmlSource, element: XmlElement): EinvoiceDocumentAllowanceCharge {
  const { vatCategory, vatRate, taxScheme } = taxCategory(s, element, 'cac:TaxCategory');
  return { ...allowanceCharge(s, element), vatCategory, vatRate, taxScheme };
}

function paymentMeans(s: XmlSource, element: XmlElement, creditorId: string | null): EinvoicePaymentMeans {
  const code = s.at(element, 'cbc:PaymentMeansCode');
  const card = s.at(element, 'cac:CardAccount');
  const mandate = s.at(element, 'cac:PaymentMandate');
  s.text(card, 'cbc:NetworkID');
  const accounts = s.all(element, 'cac:PayeeFinancialAccount').map((a) => ({
    accountId: s.text(a, 'cbc:ID'),
    accountName: s.text(a, 'cbc:Name'),
    serviceProviderId: s.text(a, 'cac:FinancialInstitutionBranch/cbc:ID'),
  }));
  return {
    code: s.text(code),
    text: s.attribute(code, 'name'),
    remittanceInformation: s.text(element, 'cbc:PaymentID'),
    creditTransfer: accounts[0] ?? null,
    ...(accounts.length > 1 ? { creditTransfers: accounts } : {}),
    card: s.take(card)
      ? { accountNumber: s.text(card, 'cbc:PrimaryAccountNumberID'), holderName: s.text(card, 'cbc:HolderName') }
      : null,
    directDebit:
      mandate || creditorId
        ? {
            mandateReference: s.text(mandate, 'cbc:ID'),
            creditorId,
            debitedAccountId: s.text(mandate, 'cac:PayerFinancialAccount/cbc:ID'),
          }
        : null,
  };
}

function line(s: XmlSource, element: XmlElement, kind: 'Invoice' | 'CreditNote'): EinvoiceLine {
  const quantity = s.at(element, kind === 'Invoice' ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity');
  const item = s.at(element, 'cac:Item');
  const price = s.at(element, 'cac:Price');
  const priceAllowance = s.at(price, 'cac:AllowanceCharge');
  s.text(priceAllowance, 'cbc:ChargeIndicator');
  const baseQuantity = s.at(price, 'cbc:BaseQuantity');
  const period = s.at(element, 'cac:InvoicePeriod');
  const objectRef = s.all(element, 'cac:DocumentReference').find((d) => s.text(d, 'cbc:DocumentTypeCode') === '130');
  const adjustments = s.all(element, 'cac:AllowanceCharge');
  const { vatCategory, vatRate, taxScheme } = taxCategory(s, item!, 'cac:ClassifiedTaxCategory');
  return {
    id: s.text(element, 'cbc:ID'),
    note: s.text(element, 'cbc:Note'),
    objectId: schemed(s, s.at(objectRef, 'cbc:ID')),
    name: s.text(item, 'cbc:Name'),
    description: s.text(item, 'cbc:Description'),
    quantity: s.text(quantity),
    unitCode: s.attribute(quantity, 'unitCode'),
    price: s.take(price)
      ? {
          amount: s.text(price, 'cbc:PriceAmount'),
          baseQuantity: s.text(baseQuantity),
          baseQuantityUnitCode: s.attribute(baseQuantity, 'unitCode'),
          grossAmount: s.text(priceAllowance, 'cbc:BaseAmount'),
          discount: s.text(priceAllowance, 'cbc:Amount'),
        }
      : null,
    allowances: adjustments.filter((a) => !isCharge(s, a)).map((a) => allowanceCharge(s, a)),
    charges: adjustments.filter((a) => isCharge(s, a)).map((a) => allowanceCharge(s, a)),
    netAmount: s.text(element, 'cbc:LineExtensionAmount'),
    vatCategory,
    vatRate,
    taxScheme,
    period: s.take(period)
      ? { startDate: s.text(period, 'cbc:StartDate'), endDate: s.text(period, 'cbc:EndDate') }
      : null,
    orderLineReference: s.text(element, 'cac:OrderLineReference/cbc:LineID'),
    accountingReference: s.text(element, 'cbc:AccountingCost'),
    sellerItemId: s.text(item, 'cac:SellersItemIdentification/cbc:ID'),
    buyerItemId: s.text(item, 'cac:BuyersItemIdentification/cbc:ID'),
    standardItemId: schemed(s, s.at(item, 'cac:StandardItemIdentification/cbc:ID')),
    classifications: s.allAt(item, 'cac:CommodityClassification/cbc:ItemClassificationCode').map((c) => ({
      code: s.text(c) ?? '',
      listId: s.attribute(c, 'listID'),
      listVersion: s.attribute(c, 'listVersionID'),
    })),
    originCountry: s.text(item, 'cac:OriginCountry/cbc:IdentificationCode'),
    attributes: s
      .all(item, 'cac:AdditionalItemProperty')
      .map((p) => ({ name: s.text(p, 'cbc:Name'), value: s.text(p, 'cbc:Value') })),
  };
}

function attachment(s: XmlSource, element: XmlElement): EinvoiceAttachment {
  const binary = s.at(element, 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject');
  return {
    id: s.text(element, 'cbc:ID'),
    description: s.text(element, 'cbc:DocumentDescription'),
    uri: s.text(element, 'cac:Attachment/cac:ExternalReference/cbc:URI'),
    embedded: binary
      ? {
          mimeCode: s.attribute(binary, 'mimeCode'),
          filename: s.attribute(binary, 'filename'),
          content: Buffer.from(s.text(binary) ?? '', 'base64'),
        }
      : null,
  };
}

export function readUbl(root: XmlElement): SyntaxReading {
  const s = new XmlSource(root, UBL_NS);
  const kind = root.local === 'CreditNote' ? 'CreditNote' : 'Invoice';
  const locations = new Locations(root);
  const currency = s.text(root, 'cbc:DocumentCurrencyCode');
  const taxCurrency = s.text(root, 'cbc:TaxCurrencyCode');
  s.text(root, 'cbc:UBLVersionID');
  const supplier = party(s, s.at(root, 'cac:AccountingSupplierParty/cac:Party'));
  const customer = party(s, s.at(root, 'cac:AccountingCustomerParty/cac:Party'));
  const payeeParty = s.at(root, 'cac:PayeeParty');
  const payee = payeeParty ? party(s, payeeParty) : null;
  const representative = s.at(root, 'cac:TaxRepresentativeParty');
  const creditorId = supplier.creditorId ?? payee?.creditorId ?? null;
  const period = s.at(root, 'cac:InvoicePeriod');
  const delivery = s.at(root, 'cac:Delivery');
  const deliveryLocation = s.at(delivery, 'cac:DeliveryLocation');
  const means = s.all(root, 'cac:PaymentMeans').map((m) => paymentMeans(s, m, creditorId));
  const documentRefs = s.all(root, 'cac:AdditionalDocumentReference');
  const objectRef = documentRefs.find((d) => s.text(d, 'cbc:DocumentTypeCode') === '130');
  const adjustments = s.all(root, 'cac:AllowanceCharge');
  const taxTotals = s.all(root, 'cac:TaxTotal');
  const taxAmounts = taxTotals.map((t) => s.at(t, 'cbc:TaxAmount'));
  const inCurrency = (code: string | null) =>
    taxAmounts.find((a) => a && code !== null && s.attribute(a, 'currencyID') === code) ?? null;
  // BT-110 is the VAT total in the document currency; a document that states it in another
  // currency (or names none) gives the total of its VAT breakdown, with the currency it names.
  const breakdownTotal = taxTotals.find((t) => s.all(t, 'cac:TaxSubtotal').length > 0);
  const vatTotal = inCurrency(currency) ?? s.at(breakdownTotal, 'cbc:TaxAmount');
  const subtotals = taxTotals.flatMap((t) => s.all(t, 'cac:TaxSubtotal'));
  const monetary = s.at(root, 'cac:LegalMonetaryTotal');
  const lineElements = s.all(root, kind === 'Invoice' ? 'cac:InvoiceLine' : 'cac:CreditNoteLine');
  const notes = s.all(root, 'cbc:Note').map((n) => splitNote(s.text(n) ?? ''));
  const billing = s
    .allAt(root, 'cac:BillingReference/cac:InvoiceDocumentReference')
    .map((r) => ({ number: s.text(r, 'cbc:ID'), issueDate: s.text(r, 'cbc:IssueDate') }));
  const dueDate =
    s.text(root, 'cbc:DueDate') ??
    s
      .allAt(root, 'cac:PaymentMeans/cbc:PaymentDueDate')
      .map((d) => s.text(d))
      .find((d) => d) ??
    null;
  const amount = (element: XmlElement | null) => {
    s.attribute(element, 'currencyID');
    return s.text(element);
  };

  const model: Einvoice = {
    specificationId: s.text(root, 'cbc:CustomizationID'),
    businessProcess: s.text(root, 'cbc:ProfileID'),
    typeCode: s.text(root, kind === 'Invoice' ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode'),
    number: s.text(root, 'cbc:ID'),
    issueDate: s.text(root, 'cbc:IssueDate'),
    dueDate,
    currency: { code: currency, minorDigits: digitsOf(currency) },
    taxCurrencyCode: taxCurrency,
    taxPointDate: s.text(root, 'cbc:TaxPointDate'),
    taxPointDateCode: s.text(period, 'cbc:DescriptionCode'),
    buyerReference: s.text(root, 'cbc:BuyerReference'),
    projectReference: s.text(root, 'cac:ProjectReference/cbc:ID'),
    contractReference: s.text(root, 'cac:ContractDocumentReference/cbc:ID'),
    purchaseOrderReference: s.text(root, 'cac:OrderReference/cbc:ID'),
    salesOrderReference: s.text(root, 'cac:OrderReference/cbc:SalesOrderID'),
    receivingAdviceReference: s.text(root, 'cac:ReceiptDocumentReference/cbc:ID'),
    despatchAdviceReference: s.text(root, 'cac:DespatchDocumentReference/cbc:ID'),
    tenderReference: s.text(root, 'cac:OriginatorDocumentReference/cbc:ID'),
    invoicedObjectId: schemed(s, s.at(objectRef, 'cbc:ID')),
    buyerAccountingReference: s.text(root, 'cbc:AccountingCost'),
    note: notes[0]?.text ?? null,
    notes,
    paymentTerms:
      s
        .allAt(root, 'cac:PaymentTerms/cbc:Note')
        .map((n) => s.text(n))
        .join('\n') || null,
    deliveryDate: s.text(delivery, 'cbc:ActualDeliveryDate'),
    invoicePeriod: s.take(period)
      ? { startDate: s.text(period, 'cbc:StartDate'), endDate: s.text(period, 'cbc:EndDate') }
      : null,
    deliverTo:
      s.take(delivery) && (deliveryLocation || s.at(delivery, 'cac:DeliveryParty'))
        ? {
            name: s.text(delivery, 'cac:DeliveryParty/cac:PartyName/cbc:Name'),
            locationId: schemed(s, s.at(deliveryLocation, 'cbc:ID')),
            address: address(s, s.at(deliveryLocation, 'cac:Address')),
          }
        : null,
    precedingInvoice: billing[0] ?? null,
    precedingInvoices: billing,
    seller: supplier.party,
    buyer: customer.party,
    payee: payee
      ? {
          name: payee.party.tradingName,
          identifier: payee.party.identifier,
          legalRegistrationId: payee.party.legalRegistrationId,
        }
      : null,
    taxRepresentative: s.take(representative)
      ? {
          name: s.text(representative, 'cac:PartyName/cbc:Name'),
          vatId: s.text(
            s.all(representative, 'cac:PartyTaxScheme').find((t) => isVat(s, t)),
            'cbc:CompanyID',
          ),
          address: address(s, s.at(representative, 'cac:PostalAddress')),
        }
      : null,
    paymentMeans: means[0] ?? null,
    allPaymentMeans: means,
    allowances: adjustments.filter((a) => !isCharge(s, a)).map((a) => documentAllowanceCharge(s, a)),
    charges: adjustments.filter((a) => isCharge(s, a)).map((a) => documentAllowanceCharge(s, a)),
    lines: lineElements.map((l) => line(s, l, kind)),
    vatBreakdown: subtotals.map((sub) => {
      const { category, vatCategory, taxScheme } = taxCategory(s, sub, 'cac:TaxCategory');
      return {
        vatCategory,
        taxScheme,
        vatRate: s.text(category, 'cbc:Percent'),
        taxableAmount: amount(s.at(sub, 'cbc:TaxableAmount')),
        taxAmount: amount(s.at(sub, 'cbc:TaxAmount')),
        exemptionReason: s.text(category, 'cbc:TaxExemptionReason'),
        exemptionReasonCode: s.text(category, 'cbc:TaxExemptionReasonCode'),
      };
    }),
    totals: {
      lineNetTotal: amount(s.at(monetary, 'cbc:LineExtensionAmount')),
      allowanceTotal: amount(s.at(monetary, 'cbc:AllowanceTotalAmount')),
      chargeTotal: amount(s.at(monetary, 'cbc:ChargeTotalAmount')),
      taxExclusive: amount(s.at(monetary, 'cbc:TaxExclusiveAmount')),
      taxTotal: amount(vatTotal),
      taxTotalCurrency: s.attribute(vatTotal, 'currencyID'),
      taxTotalAccounting: taxCurrency && taxCurrency !== currency ? amount(inCurrency(taxCurrency)) : null,
      taxInclusive: amount(s.at(monetary, 'cbc:TaxInclusiveAmount')),
      prepaid: amount(s.at(monetary, 'cbc:PrepaidAmount')),
      roundingAmount: amount(s.at(monetary, 'cbc:PayableRoundingAmount')),
      payable: amount(s.at(monetary, 'cbc:PayableAmount')),
    },
    attachments: documentRefs.filter((d) => d !== objectRef).map((d) => attachment(s, d)),
  };
  locations.addAll('seller', s.at(root, 'cac:AccountingSupplierParty'));
  locations.addAll('buyer', s.at(root, 'cac:AccountingCustomerParty'));
  locations.addAll('totals', monetary);
  locations.addList('lines', lineElements);
  locations.addList(
    'allowances',
    adjustments.filter((a) => !isCharge(s, a)),
  );
  locations.addList(
    'charges',
    adjustments.filter((a) => isCharge(s, a)),
  );
  locations.addList('vatBreakdown', subtotals);
  locations.addList('allPaymentMeans', s.all(root, 'cac:PaymentMeans'));
  return { model, unmapped: s.unmapped(), locations };
}
