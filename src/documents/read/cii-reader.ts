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
import { digitsOf, Locations, type SyntaxReading } from './reading.js';
import { XmlSource } from './xml-source.js';
import type { XmlElement } from './xml-tree.js';

// UN/CEFACT CII D16B (Factur-X / ZUGFeRD 2.x, XRechnung CII) into the EN 16931 model, by the
// EN 16931 CII syntax binding (CEN/TS 16931-3-3). Dates of format 102 (YYYYMMDD) become
// YYYY-MM-DD; a date in any other form is kept as written (the rules then refuse it).

export const CII_NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

function date(s: XmlSource, element: XmlElement | null, path: string): string | null {
  const node = s.at(element, path);
  const text = s.text(node);
  s.attribute(node, 'format');
  if (text === null) return null;
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : text;
}

function schemed(s: XmlSource, element: XmlElement | null): SchemedId | null {
  const id = s.text(element);
  return id === null ? null : { id, schemeId: s.attribute(element, 'schemeID') };
}

function address(s: XmlSource, element: XmlElement | null): EinvoiceAddress | null {
  if (!s.take(element)) return null;
  return {
    line1: s.text(element, 'ram:LineOne'),
    line2: s.text(element, 'ram:LineTwo'),
    line3: s.text(element, 'ram:LineThree'),
    city: s.text(element, 'ram:CityName'),
    postalCode: s.text(element, 'ram:PostcodeCode'),
    subdivision: s.text(element, 'ram:CountrySubDivisionName'),
    countryCode: s.text(element, 'ram:CountryID'),
  };
}

function registration(s: XmlSource, element: XmlElement | null, scheme: 'VA' | 'FC'): string | null {
  const id =
    s.allAt(element, 'ram:SpecifiedTaxRegistration/ram:ID').find((i) => i.attributes.schemeID === scheme) ?? null;
  s.attribute(id, 'schemeID');
  return s.text(id);
}

function party(s: XmlSource, element: XmlElement | null): EinvoiceParty {
  const identifiers = [...s.all(element, 'ram:ID'), ...s.all(element, 'ram:GlobalID')]
    .map((i) => schemed(s, i))
    .filter((i): i is SchemedId => i !== null);
  const contact = s.at(element, 'ram:DefinedTradeContact');
  return {
    name: s.text(element, 'ram:Name'),
    tradingName: s.text(element, 'ram:SpecifiedLegalOrganization/ram:TradingBusinessName'),
    identifier: identifiers[0] ?? null,
    ...(identifiers.length > 1 ? { identifiers } : {}),
    legalRegistrationId: schemed(s, s.at(element, 'ram:SpecifiedLegalOrganization/ram:ID')),
    vatId: registration(s, element, 'VA'),
    taxRegistrationId: registration(s, element, 'FC'),
    additionalLegalInformation: s.text(element, 'ram:Description'),
    // A communication element without its URIID is an electronic address with nothing in it.
    electronicAddress:
      schemed(s, s.at(element, 'ram:URIUniversalCommunication/ram:URIID')) ??
      (s.take(s.at(element, 'ram:URIUniversalCommunication')) ? { id: '', schemeId: null } : null),
    address: address(s, s.at(element, 'ram:PostalTradeAddress')),
    contact: s.take(contact)
      ? {
          name: s.text(contact, 'ram:PersonName') ?? s.text(contact, 'ram:DepartmentName'),
          phone: s.text(contact, 'ram:TelephoneUniversalCommunication/ram:CompleteNumber'),
          email: s.text(contact, 'ram:EmailURIUniversalCommunication/ram:URIID'),
        }
      : null,
  };
}

const isCharge = (s: XmlSource, element: XmlElement) => s.text(element, 'ram:ChargeIndicator/udt:Indicator') === 'true';

function allowanceCharge(s: XmlSource, element: XmlElement): EinvoiceAllowanceCharge {
  return {
    amount: s.text(element, 'ram:ActualAmount'),
    baseAmount: s.text(element, 'ram:BasisAmount'),
    percent: s.text(element, 'ram:CalculationPercent'),
    reason: s.text(element, 'ram:Reason'),
    reasonCode: s.text(element, 'ram:ReasonCode'),
  };
}

function vatOf(s: XmlSource, tax: XmlElement | null) {
  return {
    vatCategory: s.text(tax, 'ram:CategoryCode'),
    vatRate: s.text(tax, 'ram:RateApplicablePercent'),
    taxScheme: tax ? s.text(tax, 'ram:TypeCode') : null,
  };
}

function documentAllowanceCharge(s: XmlSource, element: XmlElement): EinvoiceDocumentAllowanceCharge {
  return { ...allowanceCharge(s, element), ...vatOf(s, s.at(element, 'ram:CategoryTradeTax')) };
}

function paymentMeans(
  s: XmlSource,
  element: XmlElement,
  shared: { remittance: string | null; creditorId: string | null; mandate: string | null },
): EinvoicePaymentMeans {
  const card = s.at(element, 'ram:ApplicableTradeSettlementFinancialCard');
  const accounts = s.all(element, 'ram:PayeePartyCreditorFinancialAccount').map((a) => ({
    accountId: s.text(a, 'ram:IBANID') ?? s.text(a, 'ram:ProprietaryID'),
    accountName: s.text(a, 'ram:AccountName'),
    serviceProviderId: s.text(element, 'ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID'),
  }));
  const debited = s.text(element, 'ram:PayerPartyDebtorFinancialAccount/ram:IBANID');
  return {
    code: s.text(element, 'ram:TypeCode'),
    text: s.text(element, 'ram:Information'),
    remittanceInformation: shared.remittance,
    creditTransfer: accounts[0] ?? null,
    ...(accounts.length > 1 ? { creditTransfers: accounts } : {}),
    card: s.take(card)
      ? { accountNumber: s.text(card, 'ram:ID'), holderName: s.text(card, 'ram:CardholderName') }
      : null,
    directDebit:
      debited !== null || shared.mandate !== null || shared.creditorId !== null
        ? { mandateReference: shared.mandate, creditorId: shared.creditorId, debitedAccountId: debited }
        : null,
  };
}

function line(s: XmlSource, element: XmlElement): EinvoiceLine {
  const document = s.at(element, 'ram:AssociatedDocumentLineDocument');
  const product = s.at(element, 'ram:SpecifiedTradeProduct');
  const agreement = s.at(element, 'ram:SpecifiedLineTradeAgreement');
  const gross = s.at(agreement, 'ram:GrossPriceProductTradePrice');
  const net = s.at(agreement, 'ram:NetPriceProductTradePrice');
  const grossDiscount = s.at(gross, 'ram:AppliedTradeAllowanceCharge');
  s.text(grossDiscount, 'ram:ChargeIndicator/udt:Indicator');
  const quantity = s.at(element, 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity');
  const baseQuantity = s.at(net, 'ram:BasisQuantity');
  const settlement = s.at(element, 'ram:SpecifiedLineTradeSettlement');
  const period = s.at(settlement, 'ram:BillingSpecifiedPeriod');
  const adjustments = s.all(settlement, 'ram:SpecifiedTradeAllowanceCharge');
  const lineRefs = s.all(settlement, 'ram:AdditionalReferencedDocument');
  const objectRef = lineRefs.find((d) => s.text(d, 'ram:TypeCode') === '130') ?? lineRefs[0] ?? null;
  const objectId = s.at(objectRef, 'ram:IssuerAssignedID');
  s.text(s.at(gross, 'ram:BasisQuantity'));
  return {
    id: s.text(document, 'ram:LineID'),
    note:
      s
        .allAt(document, 'ram:IncludedNote/ram:Content')
        .map((n) => s.text(n))
        .join('\n') || null,
    objectId: objectRef ? { id: s.text(objectId) ?? '', schemeId: s.text(objectRef, 'ram:ReferenceTypeCode') } : null,
    name: s.text(product, 'ram:Name'),
    description: s.text(product, 'ram:Description'),
    quantity: s.text(quantity),
    unitCode: s.attribute(quantity, 'unitCode'),
    price: s.take(net)
      ? {
          amount: s.text(net, 'ram:ChargeAmount'),
          baseQuantity: s.text(baseQuantity),
          baseQuantityUnitCode: s.attribute(baseQuantity, 'unitCode'),
          grossAmount: s.text(gross, 'ram:ChargeAmount'),
          discount: s.text(grossDiscount, 'ram:ActualAmount'),
        }
      : null,
    allowances: adjustments.filter((a) => !isCharge(s, a)).map((a) => allowanceCharge(s, a)),
    charges: adjustments.filter((a) => isCharge(s, a)).map((a) => allowanceCharge(s, a)),
    netAmount: s.text(settlement, 'ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'),
    ...vatOf(s, s.at(settlement, 'ram:ApplicableTradeTax')),
    period: s.take(period)
      ? {
          startDate: date(s, period, 'ram:StartDateTime/udt:DateTimeString'),
          endDate: date(s, period, 'ram:EndDateTime/udt:DateTimeString'),
        }
      : null,
    orderLineReference: s.text(agreement, 'ram:BuyerOrderReferencedDocument/ram:LineID'),
    accountingReference: s.text(settlement, 'ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID'),
    sellerItemId: s.text(product, 'ram:SellerAssignedID'),
    buyerItemId: s.text(product, 'ram:BuyerAssignedID'),
    standardItemId: schemed(s, s.at(product, 'ram:GlobalID')),
    classifications: s.allAt(product, 'ram:DesignatedProductClassification/ram:ClassCode').map((c) => ({
      code: s.text(c) ?? '',
      listId: s.attribute(c, 'listID'),
      listVersion: s.attribute(c, 'listVersionID'),
    })),
    originCountry: s.text(product, 'ram:OriginTradeCountry/ram:ID'),
    attributes: s
      .all(product, 'ram:ApplicableProductCharacteristic')
      .map((p) => ({ name: s.text(p, 'ram:Description'), value: s.text(p, 'ram:Value') })),
  };
}

function attachment(s: XmlSource, element: XmlElement): EinvoiceAttachment {
  const binary = s.at(element, 'ram:AttachmentBinaryObject');
  return {
    id: s.text(element, 'ram:IssuerAssignedID'),
    description: s.text(element, 'ram:Name'),
    uri: s.text(element, 'ram:URIID'),
    embedded: binary
      ? {
          mimeCode: s.attribute(binary, 'mimeCode'),
          filename: s.attribute(binary, 'filename'),
          content: Buffer.from(s.text(binary) ?? '', 'base64'),
        }
      : null,
  };
}

export function readCii(root: XmlElement): SyntaxReading {
  const s = new XmlSource(root, CII_NS);
  const locations = new Locations(root);
  const context = s.at(root, 'rsm:ExchangedDocumentContext');
  const header = s.at(root, 'rsm:ExchangedDocument');
  const transaction = s.at(root, 'rsm:SupplyChainTradeTransaction');
  const agreement = s.at(transaction, 'ram:ApplicableHeaderTradeAgreement');
  const delivery = s.at(transaction, 'ram:ApplicableHeaderTradeDelivery');
  const settlement = s.at(transaction, 'ram:ApplicableHeaderTradeSettlement');
  const currency = s.text(settlement, 'ram:InvoiceCurrencyCode');
  const taxCurrency = s.text(settlement, 'ram:TaxCurrencyCode');
  const terms = s.all(settlement, 'ram:SpecifiedTradePaymentTerms');
  const shared = {
    remittance: s.text(settlement, 'ram:PaymentReference'),
    creditorId: s.text(settlement, 'ram:CreditorReferenceID'),
    mandate: terms.map((t) => s.text(t, 'ram:DirectDebitMandateID')).find((m) => m !== null) ?? null,
  };
  const meansElements = s.all(settlement, 'ram:SpecifiedTradeSettlementPaymentMeans');
  const means = meansElements.map((m) => paymentMeans(s, m, shared));
  if (means.length === 0 && (shared.mandate || shared.creditorId)) s.take(settlement);
  const taxes = s.all(settlement, 'ram:ApplicableTradeTax');
  const adjustments = s.all(settlement, 'ram:SpecifiedTradeAllowanceCharge');
  const monetary = s.at(settlement, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  const taxTotals = s.all(monetary, 'ram:TaxTotalAmount');
  const taxTotalIn = (code: string | null) =>
    taxTotals.find((t) => s.attribute(t, 'currencyID') === code) ??
    (code === currency ? (taxTotals.find((t) => t.attributes.currencyID === undefined) ?? null) : null);
  const lineElements = s.all(transaction, 'ram:IncludedSupplyChainTradeLineItem');
  const references = s.all(agreement, 'ram:AdditionalReferencedDocument');
  const typed = (code: string) => references.find((r) => s.text(r, 'ram:TypeCode') === code) ?? null;
  const objectRef = typed('130');
  const tenderRef = typed('50');
  const period = s.at(settlement, 'ram:BillingSpecifiedPeriod');
  const shipTo = s.at(delivery, 'ram:ShipToTradeParty');
  const representative = s.at(agreement, 'ram:SellerTaxRepresentativeTradeParty');
  const payee = s.at(settlement, 'ram:PayeeTradeParty');
  const preceding = s.all(settlement, 'ram:InvoiceReferencedDocument').map((r) => ({
    number: s.text(r, 'ram:IssuerAssignedID'),
    issueDate: date(s, r, 'ram:FormattedIssueDateTime/qdt:DateTimeString'),
  }));
  const notes = s
    .all(header, 'ram:IncludedNote')
    .map((n) => ({ subjectCode: s.text(n, 'ram:SubjectCode'), text: s.text(n, 'ram:Content') ?? '' }));
  const dueDates = terms.map((t) => date(s, t, 'ram:DueDateDateTime/udt:DateTimeString')).filter((d) => d !== null);
  const payeeParty = payee ? party(s, payee) : null;
  s.text(context, 'ram:TestIndicator/udt:Indicator');
  const taxPoint = taxes.map((t) => s.text(t, 'ram:TaxPointDate/udt:DateString')).find((d) => d !== null) ?? null;

  const model: Einvoice = {
    specificationId: s.text(context, 'ram:GuidelineSpecifiedDocumentContextParameter/ram:ID'),
    businessProcess: s.text(context, 'ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID'),
    typeCode: s.text(header, 'ram:TypeCode'),
    number: s.text(header, 'ram:ID'),
    issueDate: date(s, header, 'ram:IssueDateTime/udt:DateTimeString'),
    dueDate: dueDates[0] ?? null,
    currency: { code: currency, minorDigits: digitsOf(currency) },
    taxCurrencyCode: taxCurrency,
    taxPointDate:
      taxPoint && /^\d{8}$/.test(taxPoint)
        ? `${taxPoint.slice(0, 4)}-${taxPoint.slice(4, 6)}-${taxPoint.slice(6)}`
        : taxPoint,
    taxPointDateCode: taxes.map((t) => s.text(t, 'ram:DueDateTypeCode')).find((d) => d !== null) ?? null,
    buyerReference: s.text(agreement, 'ram:BuyerReference'),
    projectReference: s.text(agreement, 'ram:SpecifiedProcuringProject/ram:ID'),
    contractReference: s.text(agreement, 'ram:ContractReferencedDocument/ram:IssuerAssignedID'),
    purchaseOrderReference: s.text(agreement, 'ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID'),
    salesOrderReference: s.text(agreement, 'ram:SellerOrderReferencedDocument/ram:IssuerAssignedID'),
    receivingAdviceReference: s.text(delivery, 'ram:ReceivingAdviceReferencedDocument/ram:IssuerAssignedID'),
    despatchAdviceReference: s.text(delivery, 'ram:DespatchAdviceReferencedDocument/ram:IssuerAssignedID'),
    tenderReference: s.text(tenderRef, 'ram:IssuerAssignedID'),
    invoicedObjectId: objectRef
      ? { id: s.text(objectRef, 'ram:IssuerAssignedID') ?? '', schemeId: s.text(objectRef, 'ram:ReferenceTypeCode') }
      : null,
    buyerAccountingReference: s.text(settlement, 'ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID'),
    note: notes[0]?.text ?? null,
    notes,
    paymentTerms:
      terms
        .map((t) => s.text(t, 'ram:Description'))
        .filter((d) => d !== null)
        .join('\n') || null,
    deliveryDate: date(s, delivery, 'ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString'),
    invoicePeriod: s.take(period)
      ? {
          startDate: date(s, period, 'ram:StartDateTime/udt:DateTimeString'),
          endDate: date(s, period, 'ram:EndDateTime/udt:DateTimeString'),
        }
      : null,
    deliverTo: s.take(shipTo)
      ? {
          name: s.text(shipTo, 'ram:Name'),
          locationId: schemed(s, s.at(shipTo, 'ram:GlobalID') ?? s.at(shipTo, 'ram:ID')),
          address: address(s, s.at(shipTo, 'ram:PostalTradeAddress')),
        }
      : null,
    precedingInvoice: preceding[0] ?? null,
    precedingInvoices: preceding,
    seller: party(s, s.at(agreement, 'ram:SellerTradeParty')),
    buyer: party(s, s.at(agreement, 'ram:BuyerTradeParty')),
    payee: payeeParty
      ? {
          name: payeeParty.name,
          identifier: payeeParty.identifier,
          legalRegistrationId: payeeParty.legalRegistrationId,
        }
      : null,
    taxRepresentative: s.take(representative)
      ? {
          name: s.text(representative, 'ram:Name'),
          vatId: registration(s, representative, 'VA'),
          address: address(s, s.at(representative, 'ram:PostalTradeAddress')),
        }
      : null,
    paymentMeans: means[0] ?? null,
    allPaymentMeans: means,
    allowances: adjustments.filter((a) => !isCharge(s, a)).map((a) => documentAllowanceCharge(s, a)),
    charges: adjustments.filter((a) => isCharge(s, a)).map((a) => documentAllowanceCharge(s, a)),
    lines: lineElements.map((l) => line(s, l)),
    vatBreakdown: taxes.map((t) => ({
      ...vatOf(s, t),
      taxableAmount: s.text(t, 'ram:BasisAmount'),
      taxAmount: s.text(t, 'ram:CalculatedAmount'),
      exemptionReason: s.text(t, 'ram:ExemptionReason'),
      exemptionReasonCode: s.text(t, 'ram:ExemptionReasonCode'),
    })),
    totals: {
      lineNetTotal: s.text(monetary, 'ram:LineTotalAmount'),
      allowanceTotal: s.text(monetary, 'ram:AllowanceTotalAmount'),
      chargeTotal: s.text(monetary, 'ram:ChargeTotalAmount'),
      taxExclusive: s.text(monetary, 'ram:TaxBasisTotalAmount'),
      taxTotal: s.text(taxTotalIn(currency)),
      taxTotalCurrency: s.attribute(taxTotalIn(currency), 'currencyID'),
      taxTotalAccounting: taxCurrency && taxCurrency !== currency ? s.text(taxTotalIn(taxCurrency)) : null,
      taxInclusive: s.text(monetary, 'ram:GrandTotalAmount'),
      prepaid: s.text(monetary, 'ram:TotalPrepaidAmount'),
      roundingAmount: s.text(monetary, 'ram:RoundingAmount'),
      payable: s.text(monetary, 'ram:DuePayableAmount'),
    },
    attachments: references.filter((r) => r !== objectRef && r !== tenderRef).map((r) => attachment(s, r)),
  };
  locations.addAll('seller', s.at(agreement, 'ram:SellerTradeParty'));
  locations.addAll('buyer', s.at(agreement, 'ram:BuyerTradeParty'));
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
  locations.addList('vatBreakdown', taxes);
  locations.addList('allPaymentMeans', meansElements);
  return { model, unmapped: s.unmapped(), locations };
}
