import type { DocumentView, Party } from '../model.js';
import type { CreditFacts, QuoteFacts, ReceivedFacts, StatusFacts } from './facts.js';
import type { Formatters } from './format.js';
import type { Labels } from './labels.js';
import {
  BOTTOM,
  COLORS,
  CONTINUATION_TOP,
  heightOf,
  LEFT,
  PAGE,
  RIGHT,
  room,
  rule,
  WIDTH,
  write,
  type Pdf,
} from './page.js';

// The sections of the PDF a person reads, top to bottom: header, parties, lines, and the totals
// with the VAT breakdown. What the document asks or says about money (a status, a credit note's
// settlement, how to pay) is in settlement.ts. Every amount ends at the right margin, RIGHT:
// line amounts and totals alike.

export interface Context {
  doc: Pdf;
  view: DocumentView;
  t: Labels;
  f: Formatters;
  /** The note the page shows (the XML's note may carry the credit note's reason or the test-mode notice, shown elsewhere). */
  note: string | null;
  credit: CreditFacts | null;
  status: StatusFacts | null;
  /** A rendering of a received document. */
  received: ReceivedFacts | null;
  /** A quote: its validity instead of a due date, and no payment asked. */
  quote: QuoteFacts | null;
}

export const titleOf = (view: DocumentView, t: Labels, quote: QuoteFacts | null = null) =>
  quote ? t.quote : view.typeCode === '381' ? t.creditNote : t.invoice;

/**
 * A party's address lines, its country by name in the document's language; a domestic
 * document (buyer and seller in the same country) leaves the country out, as letters do.
 */
export function addressLines({ view, f }: Pick<Context, 'view' | 'f'>, p: Party): string[] {
  const country = p.address.countryCode;
  const domestic =
    country !== null && country === view.seller.address.countryCode && country === view.buyer.address.countryCode;
  return [
    p.address.line1,
    p.address.line2,
    [p.address.postalCode, p.address.city].filter(Boolean).join(' '),
    country && !domestic ? f.country(country) : null,
  ].filter((l): l is string => !!l && l.trim() !== '');
}

export function header(context: Context): number {
  const { doc, view, t, f } = context;
  const seller = view.seller;
  let y = PAGE.margin;
  y += write(doc, seller.tradingName ?? seller.name, LEFT, y, {
    size: 16,
    bold: true,
    color: COLORS.accent,
    width: 270,
  });
  const sellerLines = [seller.tradingName ? seller.name : null, addressLines(context, seller).join(' · ')].filter(
    (l): l is string => !!l,
  );
  for (const line of sellerLines) y += write(doc, line, LEFT, y, { size: 8, color: COLORS.muted, width: 270 });

  let right = PAGE.margin;
  right +=
    write(doc, titleOf(view, t, context.quote), 330, right, {
      size: 18,
      bold: true,
      width: RIGHT - 330,
      align: 'right',
    }) + 4;
  const facts: [string, string | null][] = [
    [t.number, view.number],
    [t.issueDate, f.date(view.issueDate)],
    [t.dueDate, view.dueDate && view.typeCode === '380' && !context.quote ? f.date(view.dueDate) : null],
    [t.validUntil, context.quote ? f.date(context.quote.validUntil) : null],
    [t.deliveryDate, view.deliveryDate ? f.date(view.deliveryDate) : null],
    [
      t.period,
      view.invoicePeriod ? `${f.date(view.invoicePeriod.startDate)} – ${f.date(view.invoicePeriod.endDate)}` : null,
    ],
    [t.buyerReference, view.buyerReference],
    [t.orderReference, view.purchaseOrderReference],
    [t.quoteReference, view.tenderReference],
    [
      t.precedingInvoice,
      view.precedingInvoice
        ? [
            view.precedingInvoice.number,
            view.precedingInvoice.issueDate ? f.date(view.precedingInvoice.issueDate) : null,
          ]
            .filter(Boolean)
            .join(', ')
        : null,
    ],
  ];
  for (const [label, value] of facts) {
    if (!value) continue;
    const used = write(doc, label, 330, right, { size: 8, color: COLORS.muted, width: 100 });
    right += Math.max(
      write(doc, value, 432, right, { size: 8, bold: label === t.number, width: RIGHT - 432, align: 'right' }),
      used,
      11,
    );
  }
  return Math.max(y, right) + 18;
}

function partyBlock(context: Context, heading: string, p: Party, x: number, y: number, width: number): number {
  const { doc, t } = context;
  const start = y;
  y += write(doc, heading.toUpperCase(), x, y, { size: 7, bold: true, color: COLORS.muted, width }) + 2;
  y += write(doc, p.name, x, y, { bold: true, width });
  if (p.tradingName && p.tradingName !== p.name) y += write(doc, p.tradingName, x, y, { width });
  for (const line of addressLines(context, p)) y += write(doc, line, x, y, { width });
  const ids: [string, string | null][] = [
    [t.vatId, p.vatId],
    [t.taxNumber, p.taxRegistrationId],
    [t.registration, p.legalRegistrationId?.id ?? null],
  ];
  for (const [label, value] of ids)
    if (value) y += write(doc, t.labelled(label, value), x, y, { size: 8, color: COLORS.muted, width });
  const contact = p.contact;
  const contactText = contact ? [contact.name, contact.phone, contact.email].filter(Boolean).join(' · ') : '';
  if (contactText) y += write(doc, t.labelled(t.contact, contactText), x, y, { size: 8, color: COLORS.muted, width });
  return y - start;
}

export function parties(context: Context, y: number): number {
  const { view, t } = context;
  const half = WIDTH / 2 - 10;
  const left = partyBlock(context, t.billTo, view.buyer, LEFT, y, half);
  const sellerDetails = {
    ...view.seller,
    address: { ...view.seller.address, line1: null, line2: null, city: null, postalCode: null, countryCode: null },
  };
  let right = 0;
  if (view.deliverTo && view.deliverTo.address !== view.buyer.address) {
    const deliverTo = {
      ...view.buyer,
      name: view.deliverTo.name ?? view.buyer.name,
      tradingName: null,
      address: view.deliverTo.address,
      vatId: null,
      taxRegistrationId: null,
      legalRegistrationId: null,
      contact: null,
    };
    right = partyBlock(context, t.deliverTo, deliverTo, LEFT + half + 20, y, half);
  } else {
    right = partyBlock(context, t.from, sellerDetails, LEFT + half + 20, y, half);
  }
  return y + Math.max(left, right) + 18;
}

/** Column widths add up to the page's width; right-aligned cells keep their gap on the left, so they end where the totals end. */
const COLUMNS = [
  { key: 'position', width: 24, align: 'left' },
  { key: 'description', width: 181, align: 'left' },
  { key: 'quantity', width: 70, align: 'right' },
  { key: 'unitPrice', width: 70, align: 'right' },
  { key: 'discount', width: 40, align: 'right' },
  { key: 'vat', width: 40, align: 'right' },
  { key: 'amount', width: WIDTH - 425, align: 'right' },
] as const;
type Column = (typeof COLUMNS)[number]['key'];
const GAP = 4;

function cell(
  doc: Pdf,
  text: string,
  column: (typeof COLUMNS)[number],
  x: number,
  y: number,
  options: { bold?: boolean; size?: number; color?: string } = {},
): number {
  const width = column.width - GAP;
  return write(doc, text, column.align === 'right' ? x + GAP : x, y, { ...options, width, align: column.align });
}

/** The height of the table's header row, on the first page and on every page the table continues on. */
const TABLE_HEADER = 17;

function tableHeader(doc: Pdf, t: Labels, y: number): number {
  let x = LEFT;
  for (const column of COLUMNS) {
    cell(doc, t[column.key], column, x, y, { size: 7.5, bold: true, color: COLORS.muted });
    x += column.width;
  }
  rule(doc, y + 12, COLORS.text);
  return y + TABLE_HEADER;
}

interface Row {
  cells: Record<Column, string>;
  detail: string | null;
}

function rowHeight(doc: Pdf, row: Row): number {
  const descriptionWidth = COLUMNS[1].width - GAP - 2;
  // The tallest cell sets the row's height: a long description, or a long quantity with its unit.
  const heights = COLUMNS.map((column) =>
    column.key === 'description'
      ? heightOf(doc, row.cells.description, descriptionWidth, { bold: true }) +
        (row.detail ? heightOf(doc, row.detail, descriptionWidth, { size: 8 }) : 0)
      : heightOf(doc, row.cells[column.key], column.width - GAP),
  );
  return Math.max(...heights, 11) + 5;
}

function drawRow(doc: Pdf, row: Row, y: number, height: number): number {
  const descriptionWidth = COLUMNS[1].width - GAP - 2;
  let x = LEFT;
  for (const column of COLUMNS) {
    if (column.key === 'description') {
      const used = write(doc, row.cells.description, x, y, { bold: true, width: descriptionWidth });
      if (row.detail) write(doc, row.detail, x, y + used, { size: 8, color: COLORS.muted, width: descriptionWidth });
    } else {
      cell(doc, row.cells[column.key], column, x, y);
    }
    x += column.width;
  }
  rule(doc, y + height - 3);
  return y + height;
}

export function lines(context: Context, y: number, totalsHeight: number): number {
  const { doc, view, t, f } = context;
  y = tableHeader(doc, t, room(doc, y, 40));
  const gross = view.pricesIncludeTax;
  view.lines.forEach((line, index) => {
    const row: Row = {
      cells: {
        position: line.id,
        description: line.name,
        quantity: `${f.number(line.quantity)} ${f.unit(line.unitCode)}`,
        unitPrice: f.money(line.unitPriceAsGiven),
        discount: line.discountPercent ? f.percent(line.discountPercent) : '',
        vat: line.vatCategory === 'O' ? '–' : f.percent(line.vatRate),
        amount: f.money(gross ? line.amountAsGiven : line.netAmount),
      },
      detail: line.description,
    };
    const height = rowHeight(doc, row);
    // A row that does not fit opens a new page, which repeats the table header; the last row
    // keeps room for exactly what follows it on its page (the gross-price note, the gap, the
    // totals), so that the totals never stand alone on a page. Totals taller than a page
    // cannot share one with anything: then the last row asks for no more than a page holds.
    const needed = index === view.lines.length - 1 ? height + belowTable(context) + totalsHeight : height;
    y = drawRow(
      doc,
      row,
      room(doc, y, Math.min(needed, BOTTOM - CONTINUATION_TOP - TABLE_HEADER), (top) => tableHeader(doc, t, top)),
      height,
    );
  });
  if (gross) y += write(doc, t.pricesGross, LEFT, y + 2, GROSS_NOTE) + GROSS_NOTE_GAP;
  return y + AFTER_TABLE;
}

const GROSS_NOTE = { size: 8, color: COLORS.muted } as const;
const GROSS_NOTE_GAP = 4;
const AFTER_TABLE = 8;

/** What lines() writes below the last row: the gross-price note (when prices include VAT) and the gap before the totals. */
function belowTable({ doc, view, t }: Context): number {
  return (view.pricesIncludeTax ? heightOf(doc, t.pricesGross, WIDTH, GROSS_NOTE) + GROSS_NOTE_GAP : 0) + AFTER_TABLE;
}

interface TotalRow {
  label: string;
  value: string;
  bold?: boolean;
  muted?: boolean;
}

function totalRows({ view, t, f }: Context): TotalRow[] {
  const rows: TotalRow[] = [];
  const gross = view.pricesIncludeTax;
  const hasAdjustments = view.allowances.length + view.charges.length > 0;
  // With gross prices the lines show what the customer saw, VAT included, so no net line total
  // stands between them and the allowances and charges, also shown as given.
  if (hasAdjustments && !gross) rows.push({ label: t.lineTotal, value: f.money(view.totals.lineNetTotal) });
  for (const a of view.allowances) {
    const reason = a.reason ?? (a.reasonCode ? f.reason('allowance', a.reasonCode) : '');
    rows.push({
      label: `${t.labelled(t.allowance, reason)} (${f.percent(a.vatRate)})`,
      value: `−${f.money(gross ? a.amountAsGiven : a.amount)}`,
      muted: true,
    });
  }
  for (const c of view.charges) {
    const reason = c.reason ?? (c.reasonCode ? f.reason('charge', c.reasonCode) : '');
    rows.push({
      label: `${t.labelled(t.charge, reason)} (${f.percent(c.vatRate)})`,
      value: f.money(gross ? c.amountAsGiven : c.amount),
      muted: true,
    });
  }
  rows.push({ label: t.totalExclVat, value: f.money(view.totals.taxExclusive), bold: true });
  for (const g of view.vatBreakdown) {
    const rate = g.vatCategory === 'O' ? '–' : f.percent(g.vatRate);
    rows.push({ label: t.vatOn(rate, f.money(g.taxableAmount)), value: f.money(g.taxAmount) });
  }
  rows.push({ label: t.totalInclVat, value: f.money(view.totals.taxInclusive), bold: true });
  if (!/^-?0*(\.0*)?$/.test(view.totals.roundingAmount))
    rows.push({ label: t.rounding, value: f.money(view.totals.roundingAmount) });
  return rows;
}

const TOTALS_X = 300;
const VALUE_WIDTH = 100;

const LABEL_WIDTH = RIGHT - TOTALS_X - VALUE_WIDTH - 6;
const TOTAL_SIZE = 8.5;
/** The height of a row of the totals: its label wrapped to its width, at least one line. */
const totalRowHeight = (doc: Pdf, r: TotalRow) =>
  Math.max(heightOf(doc, r.label, LABEL_WIDTH, { bold: r.bold ?? false, size: TOTAL_SIZE }), 11) + 2;
/** The box with the payable under the rows. */
const PAYABLE_BOX = 36;

/** The height the totals take, measured as totals() writes them (wrapped labels too): what the last line row must keep room for. */
export function totalsHeight(context: Context): number {
  return totalRows(context).reduce((sum, r) => sum + totalRowHeight(context.doc, r), 0) + PAYABLE_BOX;
}

/** Totals on the right: lines, allowances and charges, net, VAT per group, gross, rounding, and the payable. */
export function totals(context: Context, y: number): number {
  const { doc, view, t, f } = context;
  const rows = totalRows(context);
  y = room(doc, y, totalsHeight(context));
  for (const r of rows) {
    write(doc, r.label, TOTALS_X, y, {
      width: LABEL_WIDTH,
      bold: r.bold,
      color: r.muted ? COLORS.muted : COLORS.text,
      size: TOTAL_SIZE,
    });
    write(doc, r.value, RIGHT - VALUE_WIDTH, y, { width: VALUE_WIDTH, align: 'right', bold: r.bold, size: TOTAL_SIZE });
    y += totalRowHeight(doc, r);
  }
  // The payable of an invoice as issued, or what a credit note credits: what a status copy
  // says is open now comes after it (settlement.ts).
  doc.rect(TOTALS_X - 6, y + 2, RIGHT - TOTALS_X + 12, 22).fill('#eef3f8');
  write(doc, view.typeCode === '381' ? t.creditTotal : t.amountDue, TOTALS_X, y + 8, {
    bold: true,
    size: 10,
    width: RIGHT - TOTALS_X - VALUE_WIDTH - 10,
    color: COLORS.accent,
  });
  write(doc, f.money(view.totals.payable), RIGHT - VALUE_WIDTH - 20, y + 8, {
    bold: true,
    size: 10,
    width: VALUE_WIDTH + 20,
    align: 'right',
    color: COLORS.accent,
  });
  return y + PAYABLE_BOX;
}
