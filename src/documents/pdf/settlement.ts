import { Decimal } from '../../money/decimal.js';
import { epcPayload, qrModules } from './girocode.js';
import { COLORS, heightOf, LEFT, RIGHT, room, WIDTH, write } from './page.js';
import type { Context } from './sections.js';

// What the PDF says about money after the totals: how a credit note settles, the status on a
// status copy, the notes and payment terms, and how to pay. The rule of the house: no document
// asks for money that is not owed. So a credit note, a draft and a test document carry no
// payment instruction and no code (a test document says TEST where the account would be); an
// issued invoice asks for its payable; a status copy asks for exactly its open balance, and for
// nothing when none is open.

const positive = (amount: string) => new Decimal(amount).greaterThan(0);

/** A credit note: whether it cancels the invoice, and what it sets off and what is refunded. */
export function creditSettlement({ doc, view, t, f, credit }: Context, y: number): number {
  if (view.typeCode !== '381' || !credit) return y;
  const invoice = view.precedingInvoice?.number ?? '';
  const sentences = credit.voids ? [t.voids(invoice)] : [];
  if (positive(credit.offset)) sentences.push(t.offset(f.money(credit.offset), invoice));
  if (positive(credit.refund)) sentences.push(t.refund(f.money(credit.refund)));
  if (sentences.length === 0) return y;
  const text = sentences.join(' ');
  y = room(doc, y, heightOf(doc, text, WIDTH) + 6);
  return y + write(doc, text, LEFT, y, { size: 9 }) + 8;
}

/** A status copy: payments, credit notes, void, and the balance as it stands. */
export function statusSection({ doc, view, t, f, status }: Context, y: number): number {
  if (!status) return y;
  const lines: string[] = [];
  if (status.invoiceNumber) {
    lines.push(t.labelled(t.invoiceBalance(status.invoiceNumber), f.money(status.balance)));
  } else {
    for (const payment of status.payments) lines.push(t.paidOn(f.money(payment.amount), f.date(payment.date)));
    for (const credit of status.credits)
      lines.push(t.creditedBy(f.money(credit.amount), credit.number, f.date(credit.date)));
    for (const refund of status.refunds) lines.push(t.refundedOn(f.money(refund.amount), f.date(refund.date)));
    if (status.status === 'void') lines.push(t.voided);
    if (status.status === 'paid' && status.paidOn) lines.push(t.paidInFull(f.date(status.paidOn)));
  }
  const body = lines.join('\n');
  y = room(doc, y, heightOf(doc, body, WIDTH) + 60);
  write(doc, t.status(f.date(status.asOf)).toUpperCase(), LEFT, y, { size: 7, bold: true, color: COLORS.muted });
  y += 12;
  if (body) y += write(doc, body, LEFT, y) + 4;
  if (view.typeCode === '381') return y + 8;
  const balance = new Decimal(status.balance);
  const label = balance.greaterThan(0) ? t.balanceDue : balance.lessThan(0) ? t.owedToBuyer : t.nothingDue;
  const x = 300;
  doc.rect(x - 6, y + 2, RIGHT - x + 12, 22).fill('#fbeee6');
  write(doc, label, x, y + 8, { bold: true, size: 10, width: RIGHT - x - 130, color: COLORS.mark });
  if (!balance.isZero())
    write(doc, f.money(balance.abs().toFixed(view.currency.minorDigits)), RIGHT - 120, y + 8, {
      bold: true,
      size: 10,
      width: 120,
      align: 'right',
      color: COLORS.mark,
    });
  return y + 36;
}

/** Exemption reasons, a credit note's reason, the payment terms of an invoice, and the note; a received document's verdict first. */
export function notes({ doc, view, t, f, note, credit, received }: Context, y: number): number {
  const texts: string[] = [];
  if (received) texts.push(t.rulesVerdict(received.verdict));
  for (const g of view.vatBreakdown)
    if (g.exemptionReason)
      texts.push(
        t.labelled(`${t.exemption} (${g.vatCategory})`, f.exemption(g.exemptionReason, g.exemptionReasonCode)),
      );
  if (credit && !credit.voids) texts.push(t.labelled(t.reason, credit.reason));
  // A credit note asks for nothing, so it states no payment terms.
  if (view.paymentTerms && view.typeCode === '380') texts.push(t.labelled(t.paymentTerms, view.paymentTerms.trim()));
  if (note) texts.push(note);
  for (const body of texts) {
    y = room(doc, y, heightOf(doc, body, WIDTH) + 4);
    y += write(doc, body, LEFT, y, { size: 8.5 }) + 4;
  }
  return y + 6;
}

/** An IBAN in groups of four, as people read and type it; other account ids as they are. */
const grouped = (account: string) =>
  /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(account) ? account.replace(/(.{4})(?=.)/g, '$1 ') : account;

/** The amount this page asks the buyer to pay, or null when it asks for nothing. */
export function amountAsked({ view, status }: Pick<Context, 'view' | 'status'>): string | null {
  if (view.typeCode !== '380' || view.draft) return null;
  const amount = status ? status.balance : view.totals.payable;
  return positive(amount) ? amount : null;
}

/**
 * A received document asks us for money, which our rendering of it does not repeat: it states
 * the supplier's payment details as facts, with no request and no code to scan.
 */
function statedPayment(context: Context, y: number): number {
  const { doc, view, t, f } = context;
  const means = view.paymentMeans;
  if (!means) return y;
  const text: string[] = [];
  const account = means.creditTransfer;
  if (account) {
    text.push(t.transferTo(view.test ? t.test : grouped(account.accountId)));
    if (account.accountName && !view.test) text.push(t.labelled(t.accountHolder, account.accountName));
    if (account.serviceProviderId && !view.test) text.push(t.labelled(t.bic, account.serviceProviderId));
  }
  if (means.remittanceInformation) text.push(t.labelled(t.remittance, means.remittanceInformation));
  if (view.dueDate && view.typeCode === '380') text.push(t.labelled(t.dueDate, f.date(view.dueDate)));
  if (text.length === 0) return y;
  const body = text.join('\n');
  y = room(doc, y, heightOf(doc, body, WIDTH) + 26);
  write(doc, t.statedPayment.toUpperCase(), LEFT, y, { size: 7, bold: true, color: COLORS.muted });
  return y + 12 + write(doc, body, LEFT, y + 12, { width: WIDTH }) + 10;
}

/** How to pay what the page asks for, with the EPC GiroCode for a euro credit transfer. */
export function payment(context: Context, y: number): number {
  if (context.received) return statedPayment(context, y);
  // A quote offers; it asks for no payment and shows no code to scan.
  if (context.quote) return y;
  const { doc, view, t, f } = context;
  const means = view.paymentMeans;
  const asked = amountAsked(context);
  if (!means || asked === null) return y;
  const amount = f.money(asked);
  const due = view.dueDate && !context.status ? f.date(view.dueDate) : null;
  const text: string[] = [];
  if (means.creditTransfer) {
    const account = means.creditTransfer;
    // A test document names no real account: TEST stands where the IBAN would be.
    text.push(
      t.transfer(
        amount,
        view.test ? t.test : grouped(account.accountId),
        means.remittanceInformation ?? view.number,
        due,
      ),
    );
    if (account.accountName && !view.test) text.push(t.labelled(t.accountHolder, account.accountName));
    if (account.serviceProviderId && !view.test) text.push(t.labelled(t.bic, account.serviceProviderId));
  } else if (means.directDebit) {
    const debited = means.directDebit.debitedAccountId;
    text.push(
      t.directDebit(amount, debited && (view.test ? t.test : grouped(debited)), means.directDebit.mandateReference),
    );
  } else if (means.card) {
    text.push(t.card(means.card.accountNumber));
  } else if (means.code === '10') {
    text.push(t.cash);
  }
  const payload = epcPayload(view, asked);
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
      for (let col = 0; col < qr.size;) {
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
