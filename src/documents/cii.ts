import type {
  DocumentAllowanceCharge,
  DocumentLine,
  DocumentView,
  Party,
  PaymentMeans,
  PostalAddress,
} from './model.js';
import { isIban } from './identifiers.js';
import { BUSINESS_PROCESS, CUSTOMIZATION_ID } from './profiles.js';
import { group, isZeroAmount, leaf, serialize, xmlDocument, type XmlNode } from './xml.js';

// The view as UN/CEFACT Cross Industry Invoice D16B, as Factur-X 1.07 / ZUGFeRD 2.3 profile
// EN 16931 uses it (guideline urn:cen.eu:en16931:2017), or XRechnung 3.0. Elements follow the
// schema's order; the document type code says invoice (380) or credit note (381).

export type CiiProfile = 'en16931' | 'xrechnung';

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

/** YYYY-MM-DD as the CII date format 102, YYYYMMDD. */
const date102 = (date: string) => date.replaceAll('-', '');

function dateTime(node: XmlNode, name: string, date: string | null, prefix: 'udt' | 'qdt' = 'udt'): void {
  if (date) group(node, name, (d) => leaf(d, `${prefix}:DateTimeString`, date102(date), { format: '102' }));
}

function indicator(node: XmlNode, charge: boolean): void {
  group(node, 'ram:ChargeIndicator', (i) => leaf(i, 'udt:Indicator', String(charge)));
}

function address(node: XmlNode, a: PostalAddress): void {
  group(node, 'ram:PostalTradeAddress', (n) => {
    leaf(n, 'ram:PostcodeCode', a.postalCode);
    leaf(n, 'ram:LineOne', a.line1);
    leaf(n, 'ram:LineTwo', a.line2);
    leaf(n, 'ram:CityName', a.city);
    leaf(n, 'ram:CountryID', a.countryCode);
  });
}

function party(node: XmlNode, name: string, p: Party): void {
  group(node, name, (n) => {
    if (p.identifier)
      leaf(
        n,
        p.identifier.schemeId ? 'ram:GlobalID' : 'ram:ID',
        p.identifier.id,
        p.identifier.schemeId ? { schemeID: p.identifier.schemeId } : undefined,
      );
    leaf(n, 'ram:Name', p.name);
    if (p.legalRegistrationId || p.tradingName) {
      group(n, 'ram:SpecifiedLegalOrganization', (l) => {
        if (p.legalRegistrationId)
          leaf(
            l,
            'ram:ID',
            p.legalRegistrationId.id,
            p.legalRegistrationId.schemeId ? { schemeID: p.legalRegistrationId.schemeId } : undefined,
          );
        leaf(l, 'ram:TradingBusinessName', p.tradingName);
      });
    }
    const contact = p.contact;
    if (contact && (contact.name || contact.phone || contact.email)) {
      group(n, 'ram:DefinedTradeContact', (c) => {
        leaf(c, 'ram:PersonName', contact.name);
        if (contact.phone)
          group(c, 'ram:TelephoneUniversalCommunication', (t) => leaf(t, 'ram:CompleteNumber', contact.phone));
        if (contact.email) group(c, 'ram:EmailURIUniversalCommunication', (e) => leaf(e, 'ram:URIID', contact.email));
      });
    }
    address(n, p.address);
    if (p.electronicAddress) {
      const endpoint = p.electronicAddress;
      group(n, 'ram:URIUniversalCommunication', (u) =>
        leaf(u, 'ram:URIID', endpoint.id, endpoint.schemeId ? { schemeID: endpoint.schemeId } : undefined),
      );
    }
    if (p.vatId) group(n, 'ram:SpecifiedTaxRegistration', (t) => leaf(t, 'ram:ID', p.vatId, { schemeID: 'VA' }));
    // BT-32 is the seller's alone; EN 16931 has no tax number for the buyer.
    if (p.taxRegistrationId && name === 'ram:SellerTradeParty')
      group(n, 'ram:SpecifiedTaxRegistration', (t) => leaf(t, 'ram:ID', p.taxRegistrationId, { schemeID: 'FC' }));
  });
}

function paymentMeans(node: XmlNode, means: PaymentMeans): void {
  group(node, 'ram:SpecifiedTradeSettlementPaymentMeans', (m) => {
    leaf(m, 'ram:TypeCode', means.code);
    if (means.card) {
      const card = means.card;
      group(m, 'ram:ApplicableTradeSettlementFinancialCard', (c) =>
        leaf(leaf(c, 'ram:ID', card.accountNumber), 'ram:CardholderName', card.holderName),
      );
    }
    if (means.directDebit?.debitedAccountId) {
      const debit = means.directDebit;
      group(m, 'ram:PayerPartyDebtorFinancialAccount', (a) => leaf(a, 'ram:IBANID', debit.debitedAccountId));
    }
    if (means.creditTransfer) {
      const account = means.creditTransfer;
      group(m, 'ram:PayeePartyCreditorFinancialAccount', (a) => {
        // An IBAN goes to IBANID; any other account id (code 30 outside SEPA) to ProprietaryID.
        const iban = isIban(account.accountId);
        if (iban) leaf(a, 'ram:IBANID', account.accountId);
        leaf(a, 'ram:AccountName', account.accountName);
        if (!iban) leaf(a, 'ram:ProprietaryID', account.accountId);
      });
      if (account.serviceProviderId)
        group(m, 'ram:PayeeSpecifiedCreditorFinancialInstitution', (b) =>
          leaf(b, 'ram:BICID', account.serviceProviderId),
        );
    }
  });
}

function tradeTax(node: XmlNode, category: string, rate: string): void {
  group(node, 'ram:CategoryTradeTax', (t) => {
    leaf(t, 'ram:TypeCode', 'VAT');
    leaf(t, 'ram:CategoryCode', category);
    if (category !== 'O') leaf(t, 'ram:RateApplicablePercent', rate);
  });
}

function documentAllowanceCharge(node: XmlNode, charge: boolean, item: DocumentAllowanceCharge): void {
  group(node, 'ram:SpecifiedTradeAllowanceCharge', (a) => {
    indicator(a, charge);
    leaf(a, 'ram:ActualAmount', item.amount);
    leaf(a, 'ram:ReasonCode', item.reasonCode);
    leaf(a, 'ram:Reason', item.reason);
    tradeTax(a, item.vatCategory, item.vatRate);
  });
}

function line(node: XmlNode, l: DocumentLine): void {
  group(node, 'ram:IncludedSupplyChainTradeLineItem', (n) => {
    group(n, 'ram:AssociatedDocumentLineDocument', (d) => leaf(d, 'ram:LineID', l.id));
    group(n, 'ram:SpecifiedTradeProduct', (p) => leaf(leaf(p, 'ram:Name', l.name), 'ram:Description', l.description));
    group(n, 'ram:SpecifiedLineTradeAgreement', (a) =>
      group(a, 'ram:NetPriceProductTradePrice', (p) => {
        leaf(p, 'ram:ChargeAmount', l.price.amount);
        leaf(p, 'ram:BasisQuantity', l.price.baseQuantity, { unitCode: l.unitCode });
      }),
    );
    group(n, 'ram:SpecifiedLineTradeDelivery', (d) =>
      leaf(d, 'ram:BilledQuantity', l.quantity, { unitCode: l.unitCode }),
    );
    group(n, 'ram:SpecifiedLineTradeSettlement', (s) => {
      group(s, 'ram:ApplicableTradeTax', (t) => {
        leaf(t, 'ram:TypeCode', 'VAT');
        leaf(t, 'ram:CategoryCode', l.vatCategory);
        if (l.vatCategory !== 'O') leaf(t, 'ram:RateApplicablePercent', l.vatRate);
      });
      for (const allowance of l.allowances) {
        group(s, 'ram:SpecifiedTradeAllowanceCharge', (a) => {
          indicator(a, false);
          leaf(a, 'ram:CalculationPercent', allowance.percent);
          leaf(a, 'ram:BasisAmount', allowance.baseAmount);
          leaf(a, 'ram:ActualAmount', allowance.amount);
          leaf(a, 'ram:ReasonCode', allowance.reasonCode);
          leaf(a, 'ram:Reason', allowance.reason);
        });
      }
      group(s, 'ram:SpecifiedTradeSettlementLineMonetarySummation', (m) => leaf(m, 'ram:LineTotalAmount', l.netAmount));
    });
  });
}

export function renderCiiDocument(view: DocumentView, profile: CiiProfile): string {
  const currency = view.currency.code;
  const root = xmlDocument('rsm:CrossIndustryInvoice', {
    'xmlns:rsm': NS.rsm,
    'xmlns:ram': NS.ram,
    'xmlns:udt': NS.udt,
    'xmlns:qdt': NS.qdt,
  });
  group(root, 'rsm:ExchangedDocumentContext', (c) => {
    const process = BUSINESS_PROCESS[profile];
    if (process) group(c, 'ram:BusinessProcessSpecifiedDocumentContextParameter', (p) => leaf(p, 'ram:ID', process));
    group(c, 'ram:GuidelineSpecifiedDocumentContextParameter', (p) => leaf(p, 'ram:ID', CUSTOMIZATION_ID[profile]));
  });
  group(root, 'rsm:ExchangedDocument', (d) => {
    leaf(d, 'ram:ID', view.number);
    leaf(d, 'ram:TypeCode', view.typeCode);
    dateTime(d, 'ram:IssueDateTime', view.issueDate);
    if (view.note) group(d, 'ram:IncludedNote', (n) => leaf(n, 'ram:Content', view.note));
  });
  group(root, 'rsm:SupplyChainTradeTransaction', (t) => {
    for (const l of view.lines) line(t, l);
    group(t, 'ram:ApplicableHeaderTradeAgreement', (a) => {
      leaf(a, 'ram:BuyerReference', view.buyerReference);
      party(a, 'ram:SellerTradeParty', view.seller);
      party(a, 'ram:BuyerTradeParty', view.buyer);
      if (view.purchaseOrderReference)
        group(a, 'ram:BuyerOrderReferencedDocument', (o) =>
          leaf(o, 'ram:IssuerAssignedID', view.purchaseOrderReference),
        );
      // BT-17 is an additional referenced document of type 50 (a call for tender or lot).
      if (view.tenderReference)
        group(a, 'ram:AdditionalReferencedDocument', (r) =>
          leaf(leaf(r, 'ram:IssuerAssignedID', view.tenderReference), 'ram:TypeCode', '50'),
        );
    });
    group(t, 'ram:ApplicableHeaderTradeDelivery', (d) => {
      if (view.deliverTo) {
        const deliverTo = view.deliverTo;
        group(d, 'ram:ShipToTradeParty', (p) => {
          leaf(p, 'ram:Name', deliverTo.name);
          address(p, deliverTo.address);
        });
      }
      if (view.deliveryDate)
        group(d, 'ram:ActualDeliverySupplyChainEvent', (e) => dateTime(e, 'ram:OccurrenceDateTime', view.deliveryDate));
    });
    group(t, 'ram:ApplicableHeaderTradeSettlement', (s) => {
      const means = view.paymentMeans;
      leaf(s, 'ram:CreditorReferenceID', means?.directDebit?.creditorId);
      leaf(s, 'ram:PaymentReference', means?.remittanceInformation);
      leaf(s, 'ram:InvoiceCurrencyCode', currency);
      if (means) paymentMeans(s, means);
      for (const entry of view.vatBreakdown) {
        group(s, 'ram:ApplicableTradeTax', (x) => {
          leaf(x, 'ram:CalculatedAmount', entry.taxAmount);
          leaf(x, 'ram:TypeCode', 'VAT');
          leaf(x, 'ram:ExemptionReason', entry.exemptionReason);
          leaf(x, 'ram:BasisAmount', entry.taxableAmount);
          leaf(x, 'ram:CategoryCode', entry.vatCategory);
          leaf(x, 'ram:ExemptionReasonCode', entry.exemptionReasonCode);
          leaf(x, 'ram:RateApplicablePercent', entry.vatRate);
        });
      }
      if (view.invoicePeriod) {
        const period = view.invoicePeriod;
        group(s, 'ram:BillingSpecifiedPeriod', (p) => {
          dateTime(p, 'ram:StartDateTime', period.startDate);
          dateTime(p, 'ram:EndDateTime', period.endDate);
        });
      }
      for (const allowance of view.allowances) documentAllowanceCharge(s, false, allowance);
      for (const charge of view.charges) documentAllowanceCharge(s, true, charge);
      if (view.paymentTerms || view.dueDate || means?.directDebit?.mandateReference) {
        group(s, 'ram:SpecifiedTradePaymentTerms', (p) => {
          leaf(p, 'ram:Description', view.paymentTerms);
          dateTime(p, 'ram:DueDateDateTime', view.dueDate);
          leaf(p, 'ram:DirectDebitMandateID', means?.directDebit?.mandateReference);
        });
      }
      const totals = view.totals;
      group(s, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation', (m) => {
        leaf(m, 'ram:LineTotalAmount', totals.lineNetTotal);
        if (view.charges.length > 0) leaf(m, 'ram:ChargeTotalAmount', totals.chargeTotal);
        if (view.allowances.length > 0) leaf(m, 'ram:AllowanceTotalAmount', totals.allowanceTotal);
        leaf(m, 'ram:TaxBasisTotalAmount', totals.taxExclusive);
        leaf(m, 'ram:TaxTotalAmount', totals.taxTotal, { currencyID: currency });
        if (!isZeroAmount(totals.roundingAmount)) leaf(m, 'ram:RoundingAmount', totals.roundingAmount);
        leaf(m, 'ram:GrandTotalAmount', totals.taxInclusive);
        leaf(m, 'ram:DuePayableAmount', totals.payable);
      });
      if (view.precedingInvoice) {
        const preceding = view.precedingInvoice;
        group(s, 'ram:InvoiceReferencedDocument', (r) => {
          leaf(r, 'ram:IssuerAssignedID', preceding.number);
          dateTime(r, 'ram:FormattedIssueDateTime', preceding.issueDate, 'qdt');
        });
      }
    });
  });
  return serialize(root);
}
