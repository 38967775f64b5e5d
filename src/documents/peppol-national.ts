import { isIcdScheme } from './schemes.js';
import { isNorwegianOrgNumber, isSwedishOrgNumber } from './identifiers.js';
import type { Einvoice as DocumentView, EinvoiceParty as Party } from './einvoice-model.js';

// Peppol BIS Billing 3.0's national rules for sellers in Norway, Sweden, Italy, the Netherlands,
// Denmark, Iceland and Greece (the German DE-R rules live with XRechnung's in completeness.ts).
// Each check is the fatal assert of the Peppol rules, in terms of the view.

type Add = (field: string, code: string, message: string) => void;

const blank = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';

/** The country Peppol takes the seller (or buyer) to be in: its VAT id's prefix, else its address. */
export function peppolCountry(p: Party): string | null {
  return p.vatId ? p.vatId.slice(0, 2).toUpperCase() : (p.address?.countryCode ?? null);
}

function address(add: Add, role: 'seller' | 'buyer', p: Party, code: string, who: string): void {
  for (const part of ['line1', 'city', 'postalCode'] as const) {
    if (blank(p.address?.[part]))
      add(`${role}.address.${part}`, code, `${who} state the street, city and postal code of the ${role}.`);
  }
}

const NATIONAL: Record<string, (view: DocumentView, add: Add) => void> = {
  NO: (view, add) => {
    const vat = view.seller.vatId;
    if (vat && !(/^NO\d{9}MVA$/.test(vat) && isNorwegianOrgNumber(vat.slice(2, 11)))) {
      add(
        'seller.vatId',
        'NO-R-001',
        'A Norwegian seller’s VAT number is NO, the nine-digit organisation number and MVA (NO123456785MVA).',
      );
    }
  },
  SE: (view, add) => {
    const { seller } = view;
    if (seller.vatId && !/^SE\d{12}$/.test(seller.vatId))
      add('seller.vatId', 'SE-R-001', 'A Swedish VAT number is SE and twelve digits.');
    const org = seller.legalRegistrationId?.id;
    if (org !== undefined && !isSwedishOrgNumber(org))
      add(
        'seller.legalRegistrationId.id',
        'SE-R-013',
        'A Swedish organisation number has ten digits with a valid check digit.',
      );
    if (seller.taxRegistrationId && seller.taxRegistrationId !== 'Godkänd för F-skatt')
      add('seller.taxRegistrationId', 'SE-R-005', 'A Swedish seller’s tax registration states "Godkänd för F-skatt".');
    for (const [i, line] of view.lines.entries()) {
      if (line.vatCategory === 'S' && !['6', '12', '25'].includes(line.vatRate ?? ''))
        add(`lines[${i}].vatRate`, 'SE-R-006', 'A Swedish seller uses the standard VAT rates 6, 12 or 25 %.');
    }
  },
  IT: (view, add) => {
    const taxId = view.seller.taxRegistrationId;
    if (taxId && (taxId.length < 11 || taxId.length > 16))
      add('seller.taxRegistrationId', 'IT-R-001', 'An Italian seller’s tax registration has 11 to 16 characters.');
    address(add, 'seller', view.seller, 'IT-R-002', 'Italian sellers');
  },
  NL: (view, add) => {
    const { seller, buyer } = view;
    if (view.typeCode === '381' && !view.precedingInvoice)
      add('precedingInvoice', 'NL-R-001', 'A Dutch seller’s credit note names the invoice it corrects.');
    address(add, 'seller', seller, 'NL-R-002', 'Dutch sellers');
    const dutchScheme = (p: Party) =>
      p.legalRegistrationId?.schemeId === '0106' || p.legalRegistrationId?.schemeId === '0190';
    if (!dutchScheme(seller))
      add(
        'seller.legalRegistrationId',
        'NL-R-003',
        'A Dutch seller states its KVK (scheme 0106) or OIN (scheme 0190) number.',
      );
    if (!view.paymentMeans && !(view.totals.payable ?? '').startsWith('-'))
      add('paymentMeans', 'NL-R-007', 'A Dutch seller states the payment means.');
    if (peppolCountry(buyer) === 'NL') {
      address(add, 'buyer', buyer, 'NL-R-004', 'Dutch sellers invoicing Dutch buyers');
      if (!dutchScheme(buyer))
        add(
          'buyer.legalRegistrationId',
          'NL-R-005',
          'A Dutch buyer is named by its KVK (scheme 0106) or OIN (scheme 0190) number.',
        );
      if (view.paymentMeans && !['30', '48', '49', '57', '58', '59'].includes(view.paymentMeans.code ?? ''))
        add('paymentMeans.code', 'NL-R-008', 'Between Dutch parties the payment means is 30, 48, 49, 57, 58 or 59.');
    }
  },
  DK: (view, add) => {
    const legal = view.seller.legalRegistrationId;
    if (!legal) add('seller.legalRegistrationId', 'DK-R-002', 'A Danish seller states its CVR number.');
    else if (legal.schemeId !== '0184')
      add('seller.legalRegistrationId.schemeId', 'DK-R-014', 'A Danish seller’s CVR number has scheme 0184.');
    for (const role of ['seller', 'buyer'] as const) {
      const identifier = view[role].identifier;
      if (identifier && (identifier.schemeId === null || !isIcdScheme(identifier.schemeId)))
        add(`${role}.identifier.schemeId`, 'DK-R-013', 'A Danish seller’s party identifiers carry their scheme.');
    }
    if (view.paymentMeans && !['10', '48', '49', '58', '59'].includes(view.paymentMeans.code ?? ''))
      add('paymentMeans.code', 'DK-R-005', 'A Danish seller uses payment means 10, 48, 49, 58 or 59 here.');
    if (
      view.paymentMeans?.code === '49' &&
      (blank(view.paymentMeans.directDebit?.mandateReference) || blank(view.paymentMeans.directDebit?.debitedAccountId))
    ) {
      add('paymentMeans.directDebit', 'DK-R-007', 'A Danish direct debit states the mandate and the payer’s account.');
    }
    if (view.typeCode === '381' && (view.totals.payable ?? '').startsWith('-'))
      add('lines', 'DK-R-016', 'A Danish seller’s credit note has no negative total.');
  },
  IS: (view, add) => {
    if (!view.seller.legalRegistrationId)
      add('seller.legalRegistrationId', 'IS-R-002', 'An Icelandic seller states its kennitala.');
    address(add, 'seller', view.seller, 'IS-R-003', 'Icelandic sellers');
    if (peppolCountry(view.buyer) === 'IS') {
      if (!view.buyer.legalRegistrationId)
        add('buyer.legalRegistrationId', 'IS-R-004', 'An Icelandic buyer is named by its kennitala.');
      address(add, 'buyer', view.buyer, 'IS-R-005', 'Icelandic sellers invoicing Icelandic buyers');
    }
  },
  // Greek sellers number invoices in six segments and report a MARK number to myDATA, neither
  // of which this service issues: refuse rather than send what the Greek rules reject.
  EL: (_view, add) =>
    add(
      'seller.vatId',
      'GR-R-001-1',
      'Greek sellers need invoice numbers of six segments and a myDATA MARK number, which this service does not issue.',
    ),
};
NATIONAL.GR = NATIONAL.EL!;

export function peppolNationalRules(view: DocumentView, add: Add): void {
  const country = peppolCountry(view.seller);
  if (country) NATIONAL[country]?.(view, add);
}
