import type { Einvoice } from '../einvoice-model.js';
import { UNCL4461 } from '../code-lists.js';
import { PEPPOL_SCHEME_CHECKS } from '../identifiers.js';
import type { PaymentMeansCode } from '../model.js';
import { peppolCountry, peppolNationalRules } from '../peppol-national.js';
import { EAS_NOT_IN_PEPPOL } from '../schemes.js';
import { isZeroAmount } from '../xml.js';

// The rules of the specifications built on EN 16931 that this service knows: Peppol BIS Billing
// 3.0 (PEPPOL-EN16931-…, the German DE-R-… and national rules) and XRechnung 3.0 (BR-DE-…, and
// the Peppol rules XRechnung takes over). The same checks refuse our own documents before they
// are issued (completeness.ts) and judge received documents that claim these specifications
// (specification-rules.ts). Each reports the field to set and the official rule id.

export type ProfileAdd = (field: string, code: string, message: string) => void;
export type ProfileCheck = (view: Einvoice, add: ProfileAdd) => void;
type Check = ProfileCheck;

const blank = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';

/** The German rules: BR-DE-… in XRechnung, the same as DE-R-… in Peppol between two German parties. */
const german =
  (id: (n: number) => string): Check =>
  (view, add) => {
    const { seller, buyer, paymentMeans } = view;
    if (!paymentMeans)
      add(
        'paymentMeans',
        id(1),
        'Set the payment instructions (payment means, e.g. 58 SEPA credit transfer with the IBAN).',
      );
    if (!seller.contact) add('seller.contact', id(2), "Set the seller's contact (name, phone and email).");
    if (blank(seller.address?.city)) add('seller.address.city', id(3), "Set the seller's city.");
    if (blank(seller.address?.postalCode)) add('seller.address.postalCode', id(4), "Set the seller's postal code.");
    if (seller.contact) {
      if (blank(seller.contact.name)) add('seller.contact.name', id(5), "Set the seller's contact name.");
      if (blank(seller.contact.phone)) add('seller.contact.phone', id(6), "Set the seller's contact phone number.");
      if (blank(seller.contact.email)) add('seller.contact.email', id(7), "Set the seller's contact email address.");
    }
    if (blank(buyer.address?.city)) add('buyer.address.city', id(8), "Set the buyer's city.");
    if (blank(buyer.address?.postalCode)) add('buyer.address.postalCode', id(9), "Set the buyer's postal code.");
    if (view.deliverTo) {
      // Without a deliver-to address of its own, an intra-community supply uses the buyer's.
      const field = view.deliverTo.address === buyer.address ? 'buyer.address' : 'deliverTo.address';
      if (blank(view.deliverTo.address?.city)) add(`${field}.city`, id(10), 'Set the city delivered to.');
      if (blank(view.deliverTo.address?.postalCode))
        add(`${field}.postalCode`, id(11), 'Set the postal code delivered to.');
    }
    if (blank(view.buyerReference))
      add('buyerReference', id(15), 'Set the buyer reference (BT-10; for German public buyers their Leitweg-ID).');
    const needsSellerTaxId = [...view.lines, ...view.allowances, ...view.charges].some((i) => i.vatCategory !== 'O');
    if (needsSellerTaxId && !seller.vatId && !seller.taxRegistrationId)
      add('seller.vatId', id(16), "Set the seller's VAT identifier or tax number.");
    if (
      view.paymentTerms &&
      view.paymentTerms
        .split(/\r?\n/)
        .some((l) => l.startsWith('#') && !/^#SKONTO#TAGE=\d+#PROZENT=\d+\.\d{2}(#BASISBETRAG=-?\d+\.\d{2})?#$/.test(l))
    ) {
      add(
        'paymentTerms',
        id(18),
        'A payment terms line starting with # must be a cash discount in the form #SKONTO#TAGE=14#PROZENT=2.00#.',
      );
    }
    if (paymentMeans) {
      const needs = UNCL4461[paymentMeans.code as PaymentMeansCode]?.needs;
      if (needs === 'creditTransfer' && !paymentMeans.creditTransfer)
        add('paymentMeans.creditTransfer', id(23), 'A credit transfer states the account to pay to (IBAN).');
      if (needs === 'card' && !paymentMeans.card)
        add('paymentMeans.card', id(24), 'A card payment states the card (its last digits).');
      if (paymentMeans.code === '59' && !paymentMeans.directDebit)
        add(
          'paymentMeans.directDebit',
          id(25),
          'A SEPA direct debit states the mandate, creditor id and debited account.',
        );
      if (paymentMeans.directDebit) {
        if (blank(paymentMeans.directDebit.creditorId))
          add('paymentMeans.directDebit.creditorId', id(30), "Set the seller's SEPA creditor identifier.");
        if (blank(paymentMeans.directDebit.debitedAccountId))
          add('paymentMeans.directDebit.debitedAccountId', id(31), "Set the payer's IBAN (the debited account).");
      }
    }
  };

/** BR-DE-23 to -25 carry a suffix in XRechnung (-a) and Peppol (-1); 1 to 9 are padded in Peppol. */
const xrechnungGerman = german((n) => (n >= 23 && n <= 25 ? `BR-DE-${n}-a` : `BR-DE-${n}`));
const peppolGerman = german((n) => (n >= 23 && n <= 25 ? `DE-R-0${n}-1` : `DE-R-${String(n).padStart(3, '0')}`));

function electronicAddresses(
  view: Einvoice,
  add: Parameters<Check>[1],
  rules: { seller: string; buyer: string },
): void {
  if (!view.seller.electronicAddress)
    add(
      'seller.electronicAddress',
      rules.seller,
      "Set the seller's electronic address (e.g. scheme 0088 GLN, 9930 German VAT id, 0204 Leitweg-ID).",
    );
  if (!view.buyer.electronicAddress)
    add(
      'buyer.electronicAddress',
      rules.buyer,
      "Set the buyer's electronic address (e.g. scheme 0088 GLN, 9930 German VAT id, 0204 Leitweg-ID).",
    );
}

export const peppol: Check = (view, add) => {
  // A UBL 2.1 credit note carries its due date only inside the payment means (BR-CO-25).
  const payable = view.totals.payable ?? '';
  const payablePositive = !payable.startsWith('-') && !isZeroAmount(payable);
  if (view.typeCode === '381' && payablePositive && !view.paymentMeans && blank(view.paymentTerms)) {
    add(
      'paymentTerms',
      'BR-CO-25',
      'A credit note with an amount due states its payment terms or payment means (a UBL credit note writes its due date into the payment means).',
    );
  }
  if (blank(view.buyerReference) && blank(view.purchaseOrderReference))
    add('buyerReference', 'PEPPOL-EN16931-R003', 'Set the buyer reference or the purchase order reference.');
  electronicAddresses(view, add, { seller: 'PEPPOL-EN16931-R020', buyer: 'PEPPOL-EN16931-R010' });
  for (const role of ['seller', 'buyer'] as const) {
    const p = view[role];
    if (p.electronicAddress?.schemeId && EAS_NOT_IN_PEPPOL.has(p.electronicAddress.schemeId)) {
      add(
        `${role}.electronicAddress.schemeId`,
        'PEPPOL-EN16931-CL008',
        `Peppol does not accept electronic address scheme ${p.electronicAddress.schemeId}; use the party's Peppol participant id (e.g. 0088 GLN or 9930 VAT id).`,
      );
    }
    for (const [field, id] of [
      ['electronicAddress', p.electronicAddress],
      ['identifier', p.identifier],
      ['legalRegistrationId', p.legalRegistrationId],
    ] as const) {
      const check = id?.schemeId ? PEPPOL_SCHEME_CHECKS[id.schemeId] : undefined;
      if (id && check && !check.test(id.id)) add(`${role}.${field}.id`, check.rule, `${id.id} is not ${check.what}.`);
    }
  }
  const debit = view.paymentMeans?.directDebit;
  if (debit && blank(debit.mandateReference))
    add(
      'paymentMeans.directDebit.mandateReference',
      'PEPPOL-EN16931-R061',
      'A direct debit states its mandate reference.',
    );
  if (peppolCountry(view.seller) === 'DE' && peppolCountry(view.buyer) === 'DE') peppolGerman(view, add);
  peppolNationalRules(view, add);
};

export const xrechnung: Check = (view, add) => {
  xrechnungGerman(view, add);
  // XRechnung 3.0 takes over Peppol's rules on these (rule list of the KoSIT artefacts).
  if (blank(view.buyerReference) && blank(view.purchaseOrderReference))
    add('buyerReference', 'PEPPOL-EN16931-R003', 'Set the buyer reference or the purchase order reference.');
  electronicAddresses(view, add, { seller: 'PEPPOL-EN16931-R020', buyer: 'PEPPOL-EN16931-R010' });
  const debit = view.paymentMeans?.directDebit;
  if (debit && blank(debit.mandateReference))
    add(
      'paymentMeans.directDebit.mandateReference',
      'PEPPOL-EN16931-R061',
      'A direct debit states its mandate reference.',
    );
};
