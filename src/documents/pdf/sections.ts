import type { DocumentView, Party } from '../model.js';
import type { Formatters } from './format.js';
import { epcPayload, qrModules } from './girocode.js';
import type { Labels } from './labels.js';
import { COLORS, heightOf, LEFT, PAGE, RIGHT, room, rule, WIDTH, write, type Pdf } from './page.js';

// The sections of the PDF a person reads, top to bottom: header, parties, lines, allowances
// and charges, totals with the VAT breakdown, and the payment instructions with the GiroCode.

export interface Context {
  doc: Pdf;
  view: DocumentView;
  t: Labels;
  f: Formatters;
}

const addressLines = (p: Party) => [p.address.line1, p.address.line2, [p.address.postalCode, p.address.city].filter(Boolean).join(' '), p.address.countryCode].filter((l): l is string => !!l && l.trim() !== '');

export function header({ doc, view, t, f }: Context): number {
  const seller = view.seller;
  let y = PAGE.margin;
  y += write(doc, seller.tradingName ?? seller.name, LEFT, y, { size: 16, bold: true, color: COLORS.accent, width: 300 });
  const sellerLines = [seller.tradingName ? seller.name : null, addressLines(seller).join(' · ')].filter((l): l is string => !!l);
  for (const line of sellerLines) y += write(doc, line, LEFT, y, { size: 8, color: COLORS.muted, width: 300 });

  const title = view.typeCode === '381' ? t.creditNote : t.invoice;
  let right = PAGE.margin;
  right += write(doc, title, 330, right, { size: 18, bold: true, width: RIGHT - 330, align: 'right' }) + 4;
  const facts: [string, string | null][] = [
    [t.number, view.number],
    [t.issueDate, f.date(view.issueDate)],
    [t.dueDate, view.dueDate ? f.date(view.dueDate) : null],
    [t.deliveryDate, view.deliveryDate ? f.date(view.deliveryDate) : null],
    [t.period, view.invoicePeriod ? `${f.date(view.invoicePeriod.startDate)} – ${f.date(view.invoicePeriod.endDate)}` : null],
    [t.buyerReference, view.buyerReference],
    [t.orderReference, view.purchaseOrderReference],
    [t.precedingInvoice, view.precedingInvoice ? [view.precedingInvoice.number, view.precedingInvoice.issueDate ? f.date(view.precedingInvoice.issueDate) : null].filter(Boolean).join(', ') : null],
  ];
  for (const [label, value] of facts) {
    if (!value) continue;
    write(doc, label, 330, right, { size: 8, color: COLORS.muted, width: 95 });
    right += Math.max(write(doc, value, 425, right, { size: 8, bold: label === t.number, width: RIGHT - 425, align: 'right' }), 11);
  }
  return Math.max(y, right) + 18;
}

function partyBlock(doc: Pdf, t: Labels, heading: string, p: Party, x: number, y: number, width: number): number {
  const start = y;
  y += write(doc, heading.toUpperCase(), x, y, { size: 7, bold: true, color: COLORS.muted, width }) + 2;
  y += write(doc, p.name, x, y, { bold: true, width });
  if (p.tradingName && p.tradingName !== p.name) y += write(doc, p.tradingName, x, y, { width });
  for (const line of addressLines(p)) y += write(doc, line, x, y, { width });
  const ids: [string, string | null][] = [
    [t.vatId, p.vatId],
    [t.taxNumber, p.taxRegistrationId],
    [t.registration, p.legalRegistrationId?.id ?? null],
  ];
  for (const [label, value] of ids) if (value) y += write(doc, `${label}: ${value}`, x, y, { size: 8, color: COLORS.muted, width });
  const contact = p.contact;
  const contactText = contact ? [contact.name, contact.phone, contact.email].filter(Boolean).join(' · ') : '';
  if (contactText) y += write(doc, `${t.contact}: ${contactText}`, x, y, { size: 8, color: COLORS.muted, width });
  return y - start;
}

export function parties({ doc, view, t }: Context, y: number): number {
  const half = WIDTH / 2 - 10;
  const left = partyBlock(doc, t, t.billTo, view.buyer, LEFT, y, half);
  const sellerDetails = { ...view.seller, address: { ...view.seller.address, line1: null, line2: null, city: null, postalCode: null, countryCode: null } };
  let right = 0;
  if (view.deliverTo && view.deliverTo.address !== view.buyer.address) {
    right = partyBlock(doc, t, t.deliverTo, { ...view.buyer, name: view.deliverTo.name ?? view.buyer.name, tradingName: null, address: view.deliverTo.address, vatId: null, taxRegistrationId: null, legalRegistrationId: null, contact: null }, LEFT + half + 20, y, half);
  } else {
    right = partyBlock(doc, t, t.from, sellerDetails, LEFT + half + 20, y, half);
  }
  return y + Math.max(left, right) + 18;
}

const COLUMNS = [
  { key: 'position', width: 24, align: 'left' },
  { key: 'description', width: 181, align: 'left' },
  { key: 'quantity', width: 70, align: 'right' },
  { key: 'unitPrice', width: 70, align: 'right' },
  { key: 'discount', width: 40, align: 'right' },
  { key: 'vat', width: 40, align: 'right' },
  { key: 'amount', width: 70, align: 'right' },
] as const;
type Column = (typeof COLUMNS)[number]['key'];

function tableHeader(doc: Pdf, t: Labels, y: number): number {
  let x = LEFT;
  for (const column of COLUMNS) {
    write(doc, t[column.key], x, y, { size: 7.5, bold: true, color: COLORS.muted, width: column.width - 4, align: column.align });
    x += column.width;
  }
  rule(doc, y + 12, COLORS.text);
  return y + 17;
}

function row(doc: Pdf, t: Labels, cells: Record<Column, string>, y: number, detail: string | null): number {
  const descriptionWidth = COLUMNS[1].width - 6;
  // The tallest cell sets the row's height: a long description, or a long quantity with its unit.
  const cellHeights = COLUMNS.map((column) =>
    column.key === 'description'
      ? heightOf(doc, cells.description, descriptionWidth, { bold: true }) + (detail ? heightOf(doc, detail, descriptionWidth, { size: 8 }) : 0)
      : heightOf(doc, cells[column.key], column.width - 4),
  );
  const height = Math.max(...cellHeights, 11) + 5;
  // A row that does not fit opens a new page, which repeats the table header.
  y = room(doc, y, height, (top) => tableHeader(doc, t, top));
  let x = LEFT;
  for (const column of COLUMNS) {
    if (column.key === 'description') {
      const used = write(doc, cells.description, x, y, { bold: true, width: descriptionWidth });
      if (detail) write(doc, detail, x, y + used, { size: 8, color: COLORS.muted, width: descriptionWidth });
    } else {
      write(doc, cells[column.key], x, y, { width: column.width - 4, align: column.align });
    }
    x += column.width;
  }
  rule(doc, y + height - 3);
  return y + height;
}

export function lines({ doc, view, t, f }: Context, y: number): number {
  y = tableHeader(doc, t, room(doc, y, 40));
  const gross = view.pricesIncludeTax;
  for (const line of view.lines) {
    y = row(
      doc,
      t,
      {
        position: line.id,
        description: line.name,
        quantity: `${f.number(line.quantity)} ${f.unit(line.unitCode)}`,
        unitPrice: f.money(line.unitPriceAsGiven),
        discount: line.discountPercent ? f.percent(line.discountPercent) : '',
        vat: line.vatCategory === 'O' ? '–' : f.percent(line.vatRate),
        amount: f.money(gross ? line.amountAsGiven : line.netAmount),
      },
      y,
      line.description,
    );
  }
  if (gross) y += write(doc, t.pricesGross, LEFT, y + 2, { size: 8, color: COLORS.muted }) + 4;
  return y + 8;
}

/** Totals on the right: lines, allowances and charges, net, VAT per group, gross, rounding, due. */
export function totals({ doc, view, t, f }: Context, y: number): number {
  const x = 300;
  const width = RIGHT - x;
  const rows: { label: string; value: string; bold?: boolean; muted?: boolean }[] = [];
  const gross = view.pricesIncludeTax;
  const hasAdjustments = view.allowances.length + view.charges.length > 0;
  // With gross prices the lines show what the customer saw, VAT included, so no net line total
  // stands between them and the allowances and charges, also shown as given.
  if (hasAdjustments && !gross) rows.push({ label: t.lineTotal, value: f.money(view.totals.lineNetTotal) });
  for (const a of view.allowances) rows.push({ label: `${t.allowance}: ${a.reason ?? a.reasonCode ?? ''} (${f.percent(a.vatRate)})`, value: `−${f.money(gross ? a.amountAsGiven : a.amount)}`, muted: true });
  for (const c of view.charges) rows.push({ label: `${t.charge}: ${c.reason ?? c.reasonCode ?? ''} (${f.percent(c.vatRate)})`, value: f.money(gross ? c.amountAsGiven : c.amount), muted: true });
  rows.push({ label: t.totalExclVat, value: f.money(view.totals.taxExclusive), bold: true });
  for (const g of view.vatBreakdown) {
    const rate = g.vatCategory === 'O' ? '–' : f.percent(g.vatRate);
    rows.push({ label: t.vatOn(rate, f.money(g.taxableAmount)), value: f.money(g.taxAmount) });
  }
  rows.push({ label: t.totalInclVat, value: f.money(view.totals.taxInclusive), bold: true });
  if (!/^-?0*(\.0*)?$/.test(view.totals.roundingAmount)) rows.push({ label: t.rounding, value: f.money(view.totals.roundingAmount) });
  y = room(doc, y, rows.length * 13 + 30);
  for (const r of rows) {
    const options = { width: width - 90, bold: r.bold, color: r.muted ? COLORS.muted : COLORS.text, size: 8.5 };
    const used = write(doc, r.label, x, y, options);
    write(doc, r.value, RIGHT - 90, y, { width: 90, align: 'right', bold: r.bold, size: 8.5 });
    y += Math.max(used, 11) + 2;
  }
  doc.rect(x - 6, y + 2, width + 6, 22).fill('#eef3f8');
  write(doc, view.typeCode === '381' ? t.amountToRefund : t.amountDue, x, y + 8, { bold: true, size: 10, width: width - 110, color: COLORS.accent });
  write(doc, f.money(view.totals.payable), RIGHT - 110, y + 8, { bold: true, size: 10, width: 106, align: 'right', color: COLORS.accent });
  return y + 36;
}

/** Exemption reasons, the note and the payment terms. */
export function notes({ doc, view, t }: Context, y: number): number {
  const texts: [string, string][] = [];
  for (const g of view.vatBreakdown) if (g.exemptionReason) texts.push([`${t.exemption} (${g.vatCategory})`, g.exemptionReason]);
  if (view.paymentTerms) texts.push([t.paymentTerms, view.paymentTerms.trim()]);
  if (view.note) texts.push(['', view.note]);
  for (const [label, text] of texts) {
    const body = label ? `${label}: ${text}` : text;
    y = room(doc, y, heightOf(doc, body, WIDTH) + 4);
    y += write(doc, body, LEFT, y, { size: 8.5 }) + 4;
  }
  return y + 6;
}

/** An IBAN in groups of four, as people read and type it; other account ids as they are. */
const grouped = (account: string) => (/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(account) ? account.replace(/(.{4})(?=.)/g, '$1 ') : account);

/** How to pay, with the EPC GiroCode for a euro credit transfer. */
export function payment({ doc, view, t, f }: Context, y: number): number {
  const means = view.paymentMeans;
  if (!means) return y;
  const amount = f.money(view.totals.payable);
  const due = view.dueDate ? f.date(view.dueDate) : null;
  const text: string[] = [];
  if (means.creditTransfer) {
    const account = means.creditTransfer;
    text.push(t.transfer(amount, grouped(account.accountId), means.remittanceInformation ?? view.number, view.typeCode === '380' ? due : null));
    if (account.accountName) text.push(`${t.accountHolder}: ${account.accountName}`);
    if (account.serviceProviderId) text.push(`${t.bic}: ${account.serviceProviderId}`);
  } else if (means.directDebit) {
    const debited = means.directDebit.debitedAccountId;
    text.push(t.directDebit(amount, debited && grouped(debited), means.directDebit.mandateReference));
  } else if (means.card) {
    text.push(t.card(means.card.accountNumber));
  } else if (means.code === '10') {
    text.push(t.cash);
  }
  const payload = epcPayload(view);
  const qrSize = 86;
  const textWidth = payload ? WIDTH - qrSize - 20 : WIDTH;
  const body = text.join('\n');
  const height = Math.max(heightOf(doc, body, textWidth) + 16, payload ? qrSize + 14 : 0);
  y = room(doc, y, height + 10);
  write(doc, t.payment.toUpperCase(), LEFT, y, { size: 7, bold: true, color: COLORS.muted });
  write(doc, body, LEFT, y + 12, { width: textWidth });
  if (payload) {
    const qr = qrModules(payload);
    const cell = qrSize / qr.size;
    const x0 = RIGHT - qrSize;
    doc.fillColor('#000000');
    // One rectangle per run of dark modules in a row: a third of the drawing operations.
    for (let row = 0; row < qr.size; row++) {
      for (let col = 0; col < qr.size; ) {
        if (!qr.dark(col, row)) {
          col++;
          continue;
        }
        const start = col;
        while (col < qr.size && qr.dark(col, row)) col++;
        doc.rect(x0 + start * cell, y + row * cell, (col - start) * cell, cell);
      }
    }
    doc.fill();
    write(doc, t.scanToPay, x0, y + qrSize + 2, { size: 7, color: COLORS.muted, width: qrSize, align: 'center' });
  }
  return y + height + 10;
}
