import {
  notesOf,
  paymentMeansOf,
  precedingInvoicesOf,
  type Einvoice,
  type EinvoiceAllowanceCharge,
} from '../einvoice-model.js';
import { blank, dec, isVatScheme, present, type Add, type Syntax } from './finding.js';
import { VAT_PREFIXES_CII, VAT_PREFIXES_UBL } from './code-list-data.js';

// The EN 16931 business rules on presence and consistency (BR-01 … BR-65, BR-CO-03 … BR-CO-26
// but the arithmetic). Where the official UBL and CII artefacts test a rule differently (BR-09
// only inside an address in UBL, BR-61 only on an account element in CII …), `syntax` says which
// binding the document came in; a document we issue is judged as UBL and CII both would.

export interface RuleContext {
  doc: Einvoice;
  /** The syntax the document was read from; null for one of ours (the stricter reading applies). */
  syntax: Syntax | null;
  add: Add;
}

const ubl = (syntax: Syntax | null) => syntax !== 'cii';
const cii = (syntax: Syntax | null) => syntax !== 'ubl';

function header({ doc, syntax, add }: RuleContext): void {
  if (blank(doc.specificationId) && doc.specificationId !== undefined)
    add('BR-01', 'BT-24', 'specificationId', 'The document states no specification identifier (BT-24).');
  if (blank(doc.number)) add('BR-02', 'BT-1', 'number', 'The document has no number (BT-1).');
  if (blank(doc.issueDate)) add('BR-03', 'BT-2', 'issueDate', 'The document has no issue date (BT-2).');
  if (blank(doc.typeCode)) add('BR-04', 'BT-3', 'typeCode', 'The document has no type code (BT-3).');
  if (blank(doc.currency.code)) add('BR-05', 'BT-5', 'currency', 'The document has no currency code (BT-5).');
  for (const [role, names] of [
    ['seller', ['BR-06', 'BT-27', 'BR-08', 'BG-5', 'BR-09', 'BT-40']],
    ['buyer', ['BR-07', 'BT-44', 'BR-10', 'BG-8', 'BR-11', 'BT-55']],
  ] as const) {
    const party = doc[role];
    if (blank(party.name)) add(names[0], names[1], `${role}.name`, `The ${role} has no name (${names[1]}).`);
    if (!party.address) add(names[2], names[3], `${role}.address`, `The ${role} has no postal address (${names[3]}).`);
    if ((party.address || cii(syntax)) && blank(party.address?.countryCode))
      add(
        names[4],
        names[5],
        `${role}.address.countryCode`,
        `The ${role}'s address has no country code (${names[5]}).`,
      );
  }
  if (doc.lines.length === 0) add('BR-16', 'BG-25', 'lines', 'The document has no line (BG-25).');
  const totals = doc.totals;
  const required = [
    ['BR-12', 'BT-106', 'lineNetTotal'],
    ['BR-13', 'BT-109', 'taxExclusive'],
    ['BR-14', 'BT-112', 'taxInclusive'],
    ['BR-15', 'BT-115', 'payable'],
  ] as const;
  // Without the totals group (BG-22) these rules have no context; the structure reports it missing.
  const group =
    [
      totals.lineNetTotal,
      totals.allowanceTotal,
      totals.chargeTotal,
      totals.taxExclusive,
      totals.taxInclusive,
      totals.prepaid,
      totals.roundingAmount,
      totals.payable,
    ].some(present) ||
    (syntax === 'cii' && present(totals.taxTotal));
  for (const [rule, term, field] of required)
    if (group && !present(totals[field])) add(rule, term, `totals.${field}`, `The document total ${term} is missing.`);
  const taxCurrency = doc.taxCurrencyCode;
  if (
    present(taxCurrency) &&
    (syntax === 'cii'
      ? taxCurrency === doc.currency.code || !present(totals.taxTotalAccounting)
      : !present(totals.taxTotalAccounting) && taxCurrency !== doc.currency.code)
  ) {
    add(
      'BR-53',
      'BT-111',
      'totals.taxTotalAccounting',
      'A VAT accounting currency (BT-6) is given, but not the total VAT in it (BT-111).',
    );
  }
  const pointContext = syntax !== 'cii' || doc.vatBreakdown.some((b) => !shadowedInCii(b));
  if (pointContext && present(doc.taxPointDate) && present(doc.taxPointDateCode))
    add('BR-CO-03', 'BT-7', 'taxPointDate', 'The VAT point date (BT-7) and its code (BT-8) exclude each other.');
  if (doc.vatBreakdown.length === 0 && (ubl(syntax) || doc.lines.length > 0))
    add('BR-CO-18', 'BG-23', 'vatBreakdown', 'The document has no VAT breakdown (BG-23).');
  const seller = doc.seller;
  if (!seller.identifier && !seller.legalRegistrationId && !present(seller.vatId)) {
    add(
      'BR-CO-26',
      'BT-29',
      'seller.identifier',
      'The seller is identified by none of its identifier (BT-29), legal registration (BT-30) or VAT identifier (BT-31).',
    );
  }
}

function vatPrefixes({ doc, syntax, add }: RuleContext): void {
  const ids: [string, string | null | undefined, string][] = [
    ['seller.vatId', doc.seller.vatId, 'BT-31'],
    ['buyer.vatId', doc.buyer.vatId, 'BT-48'],
    ['taxRepresentative.vatId', doc.taxRepresentative?.vatId, 'BT-63'],
  ];
  for (const [field, id, term] of ids) {
    if (!present(id)) continue;
    const prefix = id.trim().slice(0, 2);
    const known = syntax === 'cii' ? VAT_PREFIXES_CII.has(prefix) : prefix === '' || VAT_PREFIXES_UBL.has(prefix);
    if (!known)
      add(
        'BR-CO-09',
        term,
        field,
        `The VAT identifier ${id} does not start with an ISO 3166-1 country code (EL for Greece).`,
      );
  }
}

function parties({ doc, syntax, add }: RuleContext): void {
  for (const [role, rule, term] of [
    ['seller', 'BR-62', 'BT-34-1'],
    ['buyer', 'BR-63', 'BT-49-1'],
  ] as const) {
    const endpoint = doc[role].electronicAddress;
    if (endpoint && (syntax === 'cii' ? blank(endpoint.schemeId) : endpoint.schemeId === null))
      add(
        rule,
        term,
        `${role}.electronicAddress.schemeId`,
        `The ${role}'s electronic address has no scheme identifier (${term}).`,
      );
  }
  const payee = doc.payee;
  if (payee) {
    const sellerName = syntax === 'cii' ? doc.seller.name : doc.seller.tradingName;
    const sameId = payee.identifier && doc.seller.identifier && payee.identifier.id === doc.seller.identifier.id;
    const sameLegal =
      syntax === 'cii' &&
      payee.legalRegistrationId &&
      doc.seller.legalRegistrationId &&
      payee.legalRegistrationId.id === doc.seller.legalRegistrationId.id;
    if (!present(payee.name) || payee.name === sellerName || sameId || sameLegal)
      add('BR-17', 'BT-59', 'payee.name', 'A payee other than the seller needs its own name (BT-59).');
  }
  const representative = doc.taxRepresentative;
  if (representative) {
    if (blank(representative.name))
      add('BR-18', 'BT-62', 'taxRepresentative.name', 'The seller tax representative has no name (BT-62).');
    if (!representative.address)
      add(
        'BR-19',
        'BG-12',
        'taxRepresentative.address',
        'The seller tax representative has no postal address (BG-12).',
      );
    if ((representative.address || syntax === 'cii') && blank(representative.address?.countryCode))
      add(
        'BR-20',
        'BT-69',
        'taxRepresentative.address.countryCode',
        "The tax representative's address has no country code (BT-69).",
      );
    if (blank(representative.vatId) && (syntax === 'cii' || !present(representative.vatId)))
      add('BR-56', 'BT-63', 'taxRepresentative.vatId', 'The seller tax representative has no VAT identifier (BT-63).');
  }
  const deliverTo = doc.deliverTo;
  if (
    deliverTo?.address &&
    (syntax === 'cii' ? blank(deliverTo.address.countryCode) : !present(deliverTo.address.countryCode))
  ) {
    add('BR-57', 'BT-80', 'deliverTo.address.countryCode', 'The deliver-to address has no country code (BT-80).');
  }
}

function adjustments({ doc, add }: RuleContext): void {
  const check = (
    items: (EinvoiceAllowanceCharge & { vatCategory?: string | null; taxScheme?: string | null })[],
    field: string,
    rules: string[],
    terms: string[],
    document: boolean,
  ) => {
    items.forEach((item, i) => {
      if (!present(item.amount))
        add(rules[0]!, terms[0]!, `${field}[${i}].amount`, `An allowance or charge has no amount (${terms[0]}).`);
      if (document && (!present(item.vatCategory) || !isVatScheme(item)))
        add(
          rules[1]!,
          terms[1]!,
          `${field}[${i}].vatCategory`,
          `A document allowance or charge has no VAT category (${terms[1]}).`,
        );
      if (!present(item.reason) && !present(item.reasonCode)) {
        for (const rule of rules.slice(2))
          add(
            rule,
            terms[2]!,
            `${field}[${i}].reason`,
            `An allowance or charge states neither reason nor reason code (${terms[2]}).`,
          );
      }
    });
  };
  check(doc.allowances, 'allowances', ['BR-31', 'BR-32', 'BR-33', 'BR-CO-21'], ['BT-92', 'BT-95', 'BT-97'], true);
  check(doc.charges, 'charges', ['BR-36', 'BR-37', 'BR-38', 'BR-CO-22'], ['BT-99', 'BT-102', 'BT-104'], true);
  doc.lines.forEach((line, l) => {
    check(
      line.allowances,
      `lines[${l}].allowances`,
      ['BR-41', '', 'BR-42', 'BR-CO-23'],
      ['BT-136', '', 'BT-139'],
      false,
    );
    check(
      line.charges ?? [],
      `lines[${l}].charges`,
      ['BR-43', '', 'BR-44', 'BR-CO-24'],
      ['BT-141', '', 'BT-144'],
      false,
    );
  });
}

function lines({ doc, syntax, add }: RuleContext): void {
  doc.lines.forEach((line, i) => {
    const f = `lines[${i}]`;
    if (blank(line.id)) add('BR-21', 'BT-126', `${f}.id`, 'A line has no identifier (BT-126).');
    if (!present(line.quantity)) add('BR-22', 'BT-129', `${f}.quantity`, 'A line has no quantity (BT-129).');
    if (!present(line.unitCode)) add('BR-23', 'BT-130', `${f}.unitCode`, 'A line has no unit of measure (BT-130).');
    if (!present(line.netAmount)) add('BR-24', 'BT-131', `${f}.netAmount`, 'A line has no net amount (BT-131).');
    if (blank(line.name)) add('BR-25', 'BT-153', `${f}.name`, 'A line has no item name (BT-153).');
    const price = dec(line.price?.amount);
    if (!present(line.price?.amount)) add('BR-26', 'BT-146', `${f}.price.amount`, 'A line has no net price (BT-146).');
    if (!price || price.isNegative())
      add('BR-27', 'BT-146', `${f}.price.amount`, 'The item net price (BT-146) is negative or missing.');
    const gross = line.price?.grossAmount;
    if (present(gross) && (!dec(gross) || dec(gross)!.isNegative()))
      add('BR-28', 'BT-148', `${f}.price.grossAmount`, 'The item gross price (BT-148) is negative.');
    if (!present(line.vatCategory) || !isVatScheme(line))
      add('BR-CO-04', 'BT-151', `${f}.vatCategory`, 'A line has no VAT category (BT-151).');
    const period = line.period;
    if (period) {
      if (present(period.startDate) && present(period.endDate) && period.endDate < period.startDate)
        add('BR-30', 'BT-135', `${f}.period.endDate`, 'The line period ends before it starts.');
      if (!present(period.startDate) && !present(period.endDate))
        add('BR-CO-20', 'BG-26', `${f}.period`, 'A line period has neither start nor end date.');
    }
    (line.attributes ?? []).forEach((a, j) => {
      if (!present(a.name) || !present(a.value))
        add(
          'BR-54',
          'BG-32',
          `${f}.attributes[${j}]`,
          'An item attribute needs both name (BT-160) and value (BT-161).',
        );
    });
    const standard = line.standardItemId;
    if (standard && (syntax === 'cii' ? blank(standard.schemeId) : standard.schemeId === null))
      add(
        'BR-64',
        'BT-157-1',
        `${f}.standardItemId.schemeId`,
        'The item standard identifier has no scheme (BT-157-1).',
      );
    (line.classifications ?? []).forEach((c, j) => {
      if (syntax === 'cii' ? blank(c.listId) : c.listId === null)
        add(
          'BR-65',
          'BT-158-1',
          `${f}.classifications[${j}].listId`,
          'An item classification has no scheme (BT-158-1).',
        );
    });
  });
}

function periodsAndBreakdown({ doc, syntax, add }: RuleContext): void {
  const period = doc.invoicePeriod;
  if (period) {
    if (present(period.startDate) && present(period.endDate) && period.endDate < period.startDate)
      add('BR-29', 'BT-74', 'invoicePeriod.endDate', 'The invoicing period ends before it starts.');
    const byCode = syntax !== 'cii' && present(doc.taxPointDateCode);
    if (!present(period.startDate) && !present(period.endDate) && !byCode)
      add('BR-CO-19', 'BG-14', 'invoicePeriod', 'The invoicing period has neither start nor end date.');
  }
  doc.vatBreakdown.forEach((entry, i) => {
    if (syntax === 'cii' && shadowedInCii(entry)) return;
    const f = `vatBreakdown[${i}]`;
    if (!present(entry.taxableAmount))
      add('BR-45', 'BT-116', `${f}.taxableAmount`, 'A VAT breakdown has no taxable amount (BT-116).');
    if (!present(entry.taxAmount))
      add('BR-46', 'BT-117', `${f}.taxAmount`, 'A VAT breakdown has no tax amount (BT-117).');
    if (!present(entry.vatCategory) || !isVatScheme(entry))
      add('BR-47', 'BT-118', `${f}.vatCategory`, 'A VAT breakdown has no VAT category (BT-118).');
    if (!isVatScheme(entry) || (!present(entry.vatRate) && entry.vatCategory?.trim() !== 'O'))
      add('BR-48', 'BT-119', `${f}.vatRate`, 'A VAT breakdown has no rate (BT-119), and is not "not subject to VAT".');
  });
}

/**
 * In the CII artefact the rules on a VAT breakdown entry (BR-45 … BR-48, BR-CO-17, BR-DEC-19/20)
 * share their pattern with the rules of categories O, L and M, which come first: for an entry of
 * those categories only theirs apply.
 */
export const shadowedInCii = (entry: { vatCategory: string | null; taxScheme?: string | null }) =>
  ['O', 'L', 'M'].includes(entry.vatCategory?.trim() ?? '') && (entry.taxScheme ?? '').toUpperCase() === 'VAT';

function payment({ doc, syntax, add }: RuleContext): void {
  paymentMeansOf(doc).forEach((means, i) => {
    const f = `allPaymentMeans[${i}]`;
    if (!present(means.code))
      add('BR-49', 'BT-81', `${f}.code`, 'A payment instruction has no payment means code (BT-81).');
    const transfer = means.code?.trim() === '30' || means.code?.trim() === '58';
    const accounts = means.creditTransfers ?? (means.creditTransfer ? [means.creditTransfer] : []);
    if (transfer && accounts.some((a) => blank(a.accountId)))
      add('BR-50', 'BT-84', `${f}.creditTransfer.accountId`, 'A credit transfer has no account identifier (BT-84).');
    const missing =
      syntax === 'cii' ? accounts.some((a) => !present(a.accountId)) : accounts.every((a) => !present(a.accountId));
    if (transfer && missing)
      add(
        'BR-61',
        'BT-84',
        `${f}.creditTransfer.accountId`,
        'A credit transfer (30, 58) states the account to pay to (BT-84).',
      );
    const pan = means.card?.accountNumber;
    if (present(pan) && pan.trim().length > 10)
      add(
        'BR-51',
        'BT-87',
        `${f}.card.accountNumber`,
        'A card number should show at most its first six and last four digits (BT-87).',
        'warning',
      );
  });
}

function references({ doc, syntax, add }: RuleContext): void {
  (doc.attachments ?? []).forEach((a, i) => {
    if (blank(a.id)) add('BR-52', 'BT-122', `attachments[${i}].id`, 'A supporting document has no reference (BT-122).');
  });
  if (doc.invoicedObjectId && blank(doc.invoicedObjectId.id))
    add('BR-52', 'BT-122', 'invoicedObjectId', 'A referenced document has no reference.');
  // In CII a line's object identifier is an additional referenced document too.
  if (syntax === 'cii')
    doc.lines.forEach((l, i) => {
      if (l.objectId && blank(l.objectId.id))
        add('BR-52', 'BT-128', `lines[${i}].objectId`, 'A referenced document has no reference.');
    });
  precedingInvoicesOf(doc).forEach((p, i) => {
    if (syntax === 'cii' ? blank(p.number) : !present(p.number))
      add(
        'BR-55',
        'BT-25',
        `precedingInvoices[${i}].number`,
        'A preceding invoice reference has no invoice number (BT-25).',
      );
  });
  void notesOf;
}

export const EN16931_CORE = [
  header,
  vatPrefixes,
  parties,
  adjustments,
  lines,
  periodsAndBreakdown,
  payment,
  references,
];
