import { notesOf, paymentMeansOf, type Einvoice } from '../einvoice-model.js';
import type { SchemedId } from '../model.js';
import * as lists from './code-list-data.js';
import type { RuleContext } from './en16931-core.js';
import { present } from './finding.js';

// The EN 16931 code-list rules (BR-CL-…): each coded value must be one of its list's codes. The
// currency of every UBL amount (BR-CL-03) is checked by the reader, which sees the attributes.

export type DocumentKindOf = (doc: Einvoice) => 'invoice' | 'credit-note' | null;

// The lists a check picks between, made once (the ICD list has hundreds of codes).
const UBL_TYPE_CODES: ReadonlySet<string> = new Set([
  ...lists.INVOICE_TYPE_CODES_UBL,
  ...lists.CREDIT_NOTE_TYPE_CODES_UBL,
]);
const ICD_OR_SEPA: ReadonlySet<string> = new Set([...lists.ICD, 'SEPA']);

const inList = (list: ReadonlySet<string>, value: string) => !/\s/.test(value.trim()) && list.has(value.trim());

function check(
  ctx: RuleContext,
  value: string | null | undefined,
  list: ReadonlySet<string>,
  rule: string,
  term: string,
  field: string,
  what: string,
): void {
  if (present(value) && !inList(list, value)) ctx.add(rule, term, field, `${value} is not ${what}.`);
}

function scheme(
  ctx: RuleContext,
  id: SchemedId | null | undefined,
  list: ReadonlySet<string>,
  rule: string,
  term: string,
  field: string,
  what: string,
): void {
  if (id && id.schemeId !== null) check(ctx, id.schemeId, list, rule, term, `${field}.schemeId`, what);
}

export function codeLists(ctx: RuleContext & { kind: 'invoice' | 'credit-note' | null }): void {
  const { doc, syntax, kind } = ctx;
  const cii = syntax === 'cii';
  const types = cii
    ? lists.DOCUMENT_TYPE_CODES_CII
    : kind === 'credit-note'
      ? lists.CREDIT_NOTE_TYPE_CODES_UBL
      : kind === 'invoice'
        ? lists.INVOICE_TYPE_CODES_UBL
        : UBL_TYPE_CODES;
  check(
    ctx,
    doc.typeCode,
    types,
    'BR-CL-01',
    'BT-3',
    'typeCode',
    'a document type code of UNTDID 1001 for this document',
  );
  check(ctx, doc.currency.code, lists.CURRENCIES, 'BR-CL-04', 'BT-5', 'currency', 'an ISO 4217 currency code');
  check(ctx, doc.taxCurrencyCode, lists.CURRENCIES, 'BR-CL-05', 'BT-6', 'taxCurrencyCode', 'an ISO 4217 currency code');
  check(
    ctx,
    doc.taxPointDateCode,
    cii ? lists.VAT_POINT_DATE_CODES_CII : lists.VAT_POINT_DATE_CODES_UBL,
    'BR-CL-06',
    'BT-8',
    'taxPointDateCode',
    'a VAT point date code',
  );
  scheme(
    ctx,
    doc.invoicedObjectId,
    lists.OBJECT_ID_SCHEMES,
    'BR-CL-07',
    'BT-18-1',
    'invoicedObjectId',
    'an object identifier scheme of UNTDID 1153',
  );
  doc.lines.forEach((l, i) =>
    scheme(
      ctx,
      l.objectId,
      lists.OBJECT_ID_SCHEMES,
      'BR-CL-07',
      'BT-128-1',
      `lines[${i}].objectId`,
      'an object identifier scheme of UNTDID 1153',
    ),
  );
  notesOf(doc).forEach((n, i) =>
    check(
      ctx,
      n.subjectCode,
      cii ? lists.NOTE_SUBJECTS_CII : lists.NOTE_SUBJECTS_UBL,
      'BR-CL-08',
      'BT-21',
      `notes[${i}].subjectCode`,
      'a note subject code of UNTDID 4451',
    ),
  );
  const icdOrSepa = cii ? lists.ICD : ICD_OR_SEPA;
  for (const role of ['seller', 'buyer'] as const) {
    const party = doc[role];
    for (const id of party.identifiers ?? (party.identifier ? [party.identifier] : []))
      scheme(
        ctx,
        id,
        icdOrSepa,
        'BR-CL-10',
        role === 'seller' ? 'BT-29-1' : 'BT-46-1',
        `${role}.identifier`,
        'an ISO 6523 ICD scheme',
      );
    scheme(
      ctx,
      party.legalRegistrationId,
      lists.ICD,
      'BR-CL-11',
      role === 'seller' ? 'BT-30-1' : 'BT-47-1',
      `${role}.legalRegistrationId`,
      'an ISO 6523 ICD scheme',
    );
    scheme(
      ctx,
      party.electronicAddress,
      lists.EAS,
      'BR-CL-25',
      role === 'seller' ? 'BT-34-1' : 'BT-49-1',
      `${role}.electronicAddress`,
      'a CEF EAS electronic address scheme',
    );
  }
  if (doc.payee) {
    scheme(ctx, doc.payee.identifier, icdOrSepa, 'BR-CL-10', 'BT-60-1', 'payee.identifier', 'an ISO 6523 ICD scheme');
    scheme(
      ctx,
      doc.payee.legalRegistrationId,
      lists.ICD,
      'BR-CL-11',
      'BT-61-1',
      'payee.legalRegistrationId',
      'an ISO 6523 ICD scheme',
    );
  }
  scheme(
    ctx,
    doc.deliverTo?.locationId,
    lists.ICD,
    'BR-CL-26',
    'BT-71-1',
    'deliverTo.locationId',
    'an ISO 6523 ICD scheme',
  );
  const countries = cii ? lists.COUNTRIES_CII : lists.COUNTRIES_UBL;
  const addresses: [string, string | null | undefined, string][] = [
    ['seller.address.countryCode', doc.seller.address?.countryCode, 'BT-40'],
    ['buyer.address.countryCode', doc.buyer.address?.countryCode, 'BT-55'],
    ['taxRepresentative.address.countryCode', doc.taxRepresentative?.address?.countryCode, 'BT-69'],
    ['deliverTo.address.countryCode', doc.deliverTo?.address?.countryCode, 'BT-80'],
  ];
  for (const [field, value, term] of addresses)
    check(ctx, value, countries, 'BR-CL-14', term, field, 'an ISO 3166-1 alpha-2 country code');
  paymentMeansOf(doc).forEach((m, i) =>
    check(
      ctx,
      m.code,
      lists.PAYMENT_MEANS,
      'BR-CL-16',
      'BT-81',
      `allPaymentMeans[${i}].code`,
      'a payment means code of UNTDID 4461',
    ),
  );
  const categories = lists.VAT_CATEGORIES;
  doc.allowances.forEach((a, i) =>
    check(
      ctx,
      a.vatCategory,
      categories,
      'BR-CL-17',
      'BT-95',
      `allowances[${i}].vatCategory`,
      'a VAT category code of UNTDID 5305',
    ),
  );
  doc.charges.forEach((c, i) =>
    check(
      ctx,
      c.vatCategory,
      categories,
      'BR-CL-17',
      'BT-102',
      `charges[${i}].vatCategory`,
      'a VAT category code of UNTDID 5305',
    ),
  );
  doc.vatBreakdown.forEach((b, i) => {
    check(
      ctx,
      b.vatCategory,
      categories,
      cii ? 'BR-CL-18' : 'BR-CL-17',
      'BT-118',
      `vatBreakdown[${i}].vatCategory`,
      'a VAT category code of UNTDID 5305',
    );
    check(
      ctx,
      b.exemptionReasonCode?.toUpperCase(),
      lists.VATEX,
      'BR-CL-22',
      'BT-121',
      `vatBreakdown[${i}].exemptionReasonCode`,
      'a VATEX exemption reason code',
    );
  });
  doc.allowances.forEach((a, i) =>
    check(
      ctx,
      a.reasonCode,
      lists.ALLOWANCE_REASONS,
      'BR-CL-19',
      'BT-98',
      `allowances[${i}].reasonCode`,
      'an allowance reason code of UNTDID 5189',
    ),
  );
  doc.charges.forEach((c, i) =>
    check(
      ctx,
      c.reasonCode,
      lists.CHARGE_REASONS,
      'BR-CL-20',
      'BT-105',
      `charges[${i}].reasonCode`,
      'a charge reason code of UNTDID 7161',
    ),
  );
  doc.lines.forEach((l, i) => {
    const f = `lines[${i}]`;
    check(
      ctx,
      l.vatCategory,
      categories,
      'BR-CL-18',
      'BT-151',
      `${f}.vatCategory`,
      'a VAT category code of UNTDID 5305',
    );
    check(
      ctx,
      l.unitCode,
      lists.UNITS,
      'BR-CL-23',
      'BT-130',
      `${f}.unitCode`,
      'a unit of UN/ECE Recommendation 20 or 21',
    );
    check(
      ctx,
      l.price?.baseQuantityUnitCode,
      lists.UNITS,
      'BR-CL-23',
      'BT-150',
      `${f}.price.baseQuantityUnitCode`,
      'a unit of UN/ECE Recommendation 20 or 21',
    );
    check(
      ctx,
      l.originCountry,
      countries,
      'BR-CL-15',
      'BT-159',
      `${f}.originCountry`,
      'an ISO 3166-1 alpha-2 country code',
    );
    scheme(ctx, l.standardItemId, lists.ICD, 'BR-CL-21', 'BT-157-1', `${f}.standardItemId`, 'an ISO 6523 ICD scheme');
    (l.classifications ?? []).forEach((c, j) => {
      if (c.listId !== null)
        check(
          ctx,
          c.listId,
          lists.ITEM_CLASSIFICATIONS,
          'BR-CL-13',
          'BT-158-1',
          `${f}.classifications[${j}].listId`,
          'an item classification scheme of UNTDID 7143',
        );
    });
    l.allowances.forEach((a, j) =>
      check(
        ctx,
        a.reasonCode,
        lists.ALLOWANCE_REASONS,
        'BR-CL-19',
        'BT-140',
        `${f}.allowances[${j}].reasonCode`,
        'an allowance reason code of UNTDID 5189',
      ),
    );
    (l.charges ?? []).forEach((c, j) =>
      check(
        ctx,
        c.reasonCode,
        lists.CHARGE_REASONS,
        'BR-CL-20',
        'BT-145',
        `${f}.charges[${j}].reasonCode`,
        'a charge reason code of UNTDID 7161',
      ),
    );
  });
  (doc.attachments ?? []).forEach((a, i) => {
    const mime = a.embedded?.mimeCode;
    if (present(mime) && !lists.MIME_CODES.has(mime))
      ctx.add(
        'BR-CL-24',
        'BT-125-1',
        `attachments[${i}].embedded.mimeCode`,
        `${mime} is not a MIME type EN 16931 allows for attachments.`,
      );
  });
}
