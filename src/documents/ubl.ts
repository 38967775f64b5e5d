import type {
  DocumentAllowanceCharge,
  DocumentLine,
  DocumentView,
  Party,
  PaymentMeans,
  PostalAddress,
  VatBreakdownEntry,
} from './model.js';
import { BUSINESS_PROCESS, CUSTOMIZATION_ID } from './profiles.js';
import { group, isZeroAmount, leaf, serialize, xmlDocument, type XmlNode } from './xml.js';

// The view as UBL 2.1 Invoice or CreditNote, per the EN 16931 UBL binding with Peppol BIS
// Billing 3.0 (and XRechnung 3.0) identifiers. Elements are written in UBL schema order; every
// amount is the view's text with the document currency.

export type UblProfile = 'peppol' | 'xrechnung';

const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** EN 16931 writes no rate for "not subject to VAT" on lines, allowances and charges (BR-O-05…07). */
const rateOf = (category: string, rate: string) => (category === 'O' ? null : rate);

function taxCategory(
  node: XmlNode,
  name: string,
  category: string,
  rate: string | null,
  exemption?: VatBreakdownEntry,
): void {
  group(node, name, (c) => {
    leaf(c, 'cbc:ID', category);
    leaf(c, 'cbc:Percent', rate);
    if (exemption) {
      leaf(c, 'cbc:TaxExemptionReasonCode', exemption.exemptionReasonCode);
      leaf(c, 'cbc:TaxExemptionReason', exemption.exemptionReason);
    }
    group(c, 'cac:TaxScheme', (s) => leaf(s, 'cbc:ID', 'VAT'));
  });
}

function address(node: XmlNode, name: string, a: PostalAddress): void {
  // No empty elements (PEPPOL-EN16931-R008): an address or country without content is left out.
  if (![a.line1, a.line2, a.city, a.postalCode, a.countryCode].some((v) => v && v.trim() !== '')) return;
  group(node, name, (n) => {
    leaf(n, 'cbc:StreetName', a.line1);
    leaf(n, 'cbc:AdditionalStreetName', a.line2);
    leaf(n, 'cbc:CityName', a.city);
    leaf(n, 'cbc:PostalZone', a.postalCode);
    if (a.countryCode) group(n, 'cac:Country', (c) => leaf(c, 'cbc:IdentificationCode', a.countryCode));
  });
}

function party(
  node: XmlNode,
  role: 'cac:AccountingSupplierParty' | 'cac:AccountingCustomerParty',
  p: Party,
  creditorId: string | null,
): void {
  group(node, role, (r) =>
    group(r, 'cac:Party', (n) => {
      if (p.electronicAddress)
        leaf(n, 'cbc:EndpointID', p.electronicAddress.id, schemeAttribute(p.electronicAddress.schemeId));
      if (p.identifier)
        group(n, 'cac:PartyIdentification', (i) =>
          leaf(i, 'cbc:ID', p.identifier!.id, schemeAttribute(p.identifier!.schemeId)),
        );
      // BT-90, the SEPA creditor id, is a seller identification with scheme SEPA in UBL.
      if (creditorId) group(n, 'cac:PartyIdentification', (i) => leaf(i, 'cbc:ID', creditorId, { schemeID: 'SEPA' }));
      if (p.tradingName) group(n, 'cac:PartyName', (i) => leaf(i, 'cbc:Name', p.tradingName));
      address(n, 'cac:PostalAddress', p.address);
      if (p.vatId)
        group(n, 'cac:PartyTaxScheme', (t) =>
          leaf(t, 'cbc:CompanyID', p.vatId).ele('cac:TaxScheme').ele('cbc:ID').txt('VAT'),
        );
      // BT-32 is the seller's alone; EN 16931 has no tax number for the buyer.
      if (p.taxRegistrationId && role === 'cac:AccountingSupplierParty')
        group(n, 'cac:PartyTaxScheme', (t) =>
          leaf(t, 'cbc:CompanyID', p.taxRegistrationId).ele('cac:TaxScheme').ele('cbc:ID').txt('FC'),
        );
      group(n, 'cac:PartyLegalEntity', (l) => {
        leaf(l, 'cbc:RegistrationName', p.name);
        if (p.legalRegistrationId)
          leaf(l, 'cbc:CompanyID', p.legalRegistrationId.id, schemeAttribute(p.legalRegistrationId.schemeId));
      });
      const contact = p.contact;
      if (contact && (contact.name || contact.phone || contact.email)) {
        group(n, 'cac:Contact', (c) => {
          leaf(c, 'cbc:Name', contact.name);
          leaf(c, 'cbc:Telephone', contact.phone);
          leaf(c, 'cbc:ElectronicMail', contact.email);
        });
      }
    }),
  );
}

function schemeAttribute(schemeId: string | null): Record<string, string> | undefined {
  return schemeId ? { schemeID: schemeId } : undefined;
}

function paymentMeans(node: XmlNode, means: PaymentMeans, dueDateHere: string | null): void {
  group(node, 'cac:PaymentMeans', (m) => {
    leaf(m, 'cbc:PaymentMeansCode', means.code);
    leaf(m, 'cbc:PaymentDueDate', dueDateHere);
    leaf(m, 'cbc:PaymentID', means.remittanceInformation);
    if (means.card) {
      const card = means.card;
      group(m, 'cac:CardAccount', (c) => {
        leaf(c, 'cbc:PrimaryAccountNumberID', card.accountNumber);
        // UBL requires the card network; EN 16931 has no term for it.
        leaf(c, 'cbc:NetworkID', 'NA');
        leaf(c, 'cbc:HolderName', card.holderName);
      });
    }
    if (means.creditTransfer) {
      const account = means.creditTransfer;
      group(m, 'cac:PayeeFinancialAccount', (a) => {
        leaf(a, 'cbc:ID', account.accountId);
        leaf(a, 'cbc:Name', account.accountName);
        if (account.serviceProviderId)
          group(a, 'cac:FinancialInstitutionBranch', (b) => leaf(b, 'cbc:ID', account.serviceProviderId));
      });
    }
    if (means.directDebit && (means.directDebit.mandateReference || means.directDebit.debitedAccountId)) {
      const debit = means.directDebit;
      group(m, 'cac:PaymentMandate', (d) => {
        leaf(d, 'cbc:ID', debit.mandateReference);
        if (debit.debitedAccountId)
          group(d, 'cac:PayerFinancialAccount', (a) => leaf(a, 'cbc:ID', debit.debitedAccountId));
      });
    }
  });
}

function allowanceCharge(node: XmlNode, charge: boolean, item: DocumentAllowanceCharge, currency: string): void {
  group(node, 'cac:AllowanceCharge', (a) => {
    leaf(a, 'cbc:ChargeIndicator', String(charge));
    leaf(a, 'cbc:AllowanceChargeReasonCode', item.reasonCode);
    leaf(a, 'cbc:AllowanceChargeReason', item.reason);
    leaf(a, 'cbc:Amount', item.amount, { currencyID: currency });
    taxCategory(a, 'cac:TaxCategory', item.vatCategory, rateOf(item.vatCategory, item.vatRate));
  });
}

function line(node: XmlNode, kind: 'Invoice' | 'CreditNote', l: DocumentLine, currency: string): void {
  group(node, kind === 'Invoice' ? 'cac:InvoiceLine' : 'cac:CreditNoteLine', (n) => {
    leaf(n, 'cbc:ID', l.id);
    leaf(n, kind === 'Invoice' ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity', l.quantity, { unitCode: l.unitCode });
    leaf(n, 'cbc:LineExtensionAmount', l.netAmount, { currencyID: currency });
    for (const allowance of l.allowances) {
      group(n, 'cac:AllowanceCharge', (a) => {
        leaf(a, 'cbc:ChargeIndicator', 'false');
        leaf(a, 'cbc:AllowanceChargeReasonCode', allowance.reasonCode);
        leaf(a, 'cbc:AllowanceChargeReason', allowance.reason);
        leaf(a, 'cbc:MultiplierFactorNumeric', allowance.percent);
        leaf(a, 'cbc:Amount', allowance.amount, { currencyID: currency });
        leaf(a, 'cbc:BaseAmount', allowance.baseAmount, { currencyID: currency });
      });
    }
    group(n, 'cac:Item', (i) => {
      leaf(i, 'cbc:Description', l.description);
      leaf(i, 'cbc:Name', l.name);
      taxCategory(i, 'cac:ClassifiedTaxCategory', l.vatCategory, rateOf(l.vatCategory, l.vatRate));
    });
    group(n, 'cac:Price', (p) => {
      leaf(p, 'cbc:PriceAmount', l.price.amount, { currencyID: currency });
      leaf(p, 'cbc:BaseQuantity', l.price.baseQuantity, { unitCode: l.unitCode });
    });
  });
}

export function renderUblDocument(view: DocumentView, profile: UblProfile): string {
  const kind = view.typeCode === '381' ? 'CreditNote' : 'Invoice';
  const currency = view.currency.code;
  const money = { currencyID: currency };
  const root = xmlDocument(kind, { xmlns: NS[kind], 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc });

  leaf(root, 'cbc:CustomizationID', CUSTOMIZATION_ID[profile]);
  leaf(root, 'cbc:ProfileID', BUSINESS_PROCESS[profile]);
  leaf(root, 'cbc:ID', view.number);
  leaf(root, 'cbc:IssueDate', view.issueDate);
  // A UBL 2.1 CreditNote has no DueDate; its BT-9 goes into the payment means.
  if (kind === 'Invoice') leaf(root, 'cbc:DueDate', view.dueDate);
  leaf(root, kind === 'Invoice' ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode', view.typeCode);
  leaf(root, 'cbc:Note', view.note);
  leaf(root, 'cbc:DocumentCurrencyCode', currency);
  leaf(root, 'cbc:BuyerReference', view.buyerReference);
  if (view.invoicePeriod) {
    const period = view.invoicePeriod;
    group(root, 'cac:InvoicePeriod', (p) =>
      leaf(leaf(p, 'cbc:StartDate', period.startDate), 'cbc:EndDate', period.endDate),
    );
  }
  if (view.purchaseOrderReference)
    group(root, 'cac:OrderReference', (o) => leaf(o, 'cbc:ID', view.purchaseOrderReference));
  if (view.precedingInvoice) {
    const preceding = view.precedingInvoice;
    group(root, 'cac:BillingReference', (b) =>
      group(b, 'cac:InvoiceDocumentReference', (d) =>
        leaf(leaf(d, 'cbc:ID', preceding.number), 'cbc:IssueDate', preceding.issueDate),
      ),
    );
  }
  if (view.tenderReference)
    group(root, 'cac:OriginatorDocumentReference', (o) => leaf(o, 'cbc:ID', view.tenderReference));
  party(root, 'cac:AccountingSupplierParty', view.seller, view.paymentMeans?.directDebit?.creditorId ?? null);
  party(root, 'cac:AccountingCustomerParty', view.buyer, null);
  if (view.deliveryDate || view.deliverTo) {
    group(root, 'cac:Delivery', (d) => {
      leaf(d, 'cbc:ActualDeliveryDate', view.deliveryDate);
      if (view.deliverTo) {
        const deliverTo = view.deliverTo;
        group(d, 'cac:DeliveryLocation', (l) => address(l, 'cac:Address', deliverTo.address));
        if (deliverTo.name)
          group(d, 'cac:DeliveryParty', (p) => group(p, 'cac:PartyName', (n) => leaf(n, 'cbc:Name', deliverTo.name)));
      }
    });
  }
  if (view.paymentMeans) paymentMeans(root, view.paymentMeans, kind === 'CreditNote' ? view.dueDate : null);
  if (view.paymentTerms) group(root, 'cac:PaymentTerms', (t) => leaf(t, 'cbc:Note', view.paymentTerms));
  for (const allowance of view.allowances) allowanceCharge(root, false, allowance, currency);
  for (const charge of view.charges) allowanceCharge(root, true, charge, currency);
  group(root, 'cac:TaxTotal', (t) => {
    leaf(t, 'cbc:TaxAmount', view.totals.taxTotal, money);
    for (const entry of view.vatBreakdown) {
      group(t, 'cac:TaxSubtotal', (s) => {
        leaf(s, 'cbc:TaxableAmount', entry.taxableAmount, money);
        leaf(s, 'cbc:TaxAmount', entry.taxAmount, money);
        taxCategory(s, 'cac:TaxCategory', entry.vatCategory, entry.vatRate, entry);
      });
    }
  });
  const totals = view.totals;
  group(root, 'cac:LegalMonetaryTotal', (m) => {
    leaf(m, 'cbc:LineExtensionAmount', totals.lineNetTotal, money);
    leaf(m, 'cbc:TaxExclusiveAmount', totals.taxExclusive, money);
    leaf(m, 'cbc:TaxInclusiveAmount', totals.taxInclusive, money);
    if (view.allowances.length > 0) leaf(m, 'cbc:AllowanceTotalAmount', totals.allowanceTotal, money);
    if (view.charges.length > 0) leaf(m, 'cbc:ChargeTotalAmount', totals.chargeTotal, money);
    if (!isZeroAmount(totals.roundingAmount)) leaf(m, 'cbc:PayableRoundingAmount', totals.roundingAmount, money);
    leaf(m, 'cbc:PayableAmount', totals.payable, money);
  });
  for (const l of view.lines) line(root, kind, l, currency);
  return serialize(root);
}
