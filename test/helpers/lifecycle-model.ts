import { Decimal as DecimalJs } from 'decimal.js';

// The invoice lifecycle contract as a pure model, for test/api/lifecycle-properties.test.ts: what
// each operation should answer in a given state (a refusal with its code, or a success with the
// number it takes), and the state after it. It computes payables itself (net prices only) rather
// than calling the service's arithmetic, so the property checks the service against the rules.

export const Dec = DecimalJs.clone({ precision: 80, rounding: DecimalJs.ROUND_HALF_UP });
export type Dec = InstanceType<typeof Dec>;

export type Status = 'draft' | 'issued' | 'paid' | 'void';

export interface LineInput {
  name: string;
  quantity: string;
  unitPrice: string;
  discountPercent?: string;
  vatRate: string;
}

/** A date field of a body: absent (undefined), cleared (null) or a YYYY-MM-DD. */
export type DateField = string | null | undefined;

export interface ModelInvoice {
  id: string;
  deleted: boolean;
  status: Status;
  number: string | null;
  issueDate: string | null;
  dueDate: string | null;
  lines: LineInput[];
  payable: Dec;
  payments: Dec[];
  /** Money paid back to the buyer (POST /invoice/{id}/refund). */
  refunds: Dec[];
  creditNotes: { number: string; payable: Dec }[];
}

export interface Refusal {
  status: number;
  code: string;
  /** For a 400: the field a detail must name. */
  field?: string;
}

/** What an operation should do: be refused, or succeed and then `apply` its change to the model. */
export type Prediction<R> = { refusal: Refusal } | { accept: R };

const PAYMENT_DAYS = 30;
const sum = (values: Dec[]) => values.reduce((total, value) => total.plus(value), new Dec(0));
const refuse = (status: number, code: string, field?: string) => ({
  refusal: { status, code, ...(field ? { field } : {}) },
});

export const todayUtc = () => new Date().toISOString().slice(0, 10);

function plusDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Net prices: each line net rounded half away from zero, VAT per rate on the sum of its nets. */
export function payableOf(lines: LineInput[], digits: number): Dec {
  const taxable = new Map<string, Dec>();
  for (const line of lines) {
    const keep = new Dec(100).minus(line.discountPercent ?? 0).dividedBy(100);
    const net = new Dec(line.quantity).times(line.unitPrice).times(keep).toDecimalPlaces(digits);
    const rate = new Dec(line.vatRate).toFixed();
    taxable.set(rate, (taxable.get(rate) ?? new Dec(0)).plus(net));
  }
  const nets = sum([...taxable.values()]);
  const taxes = sum([...taxable].map(([rate, net]) => net.times(rate).dividedBy(100).toDecimalPlaces(digits)));
  return nets.plus(taxes);
}

export const paidOf = (invoice: ModelInvoice) => sum(invoice.payments);
export const creditedOf = (invoice: ModelInvoice) => sum(invoice.creditNotes.map((note) => note.payable));
export const refundedOf = (invoice: ModelInvoice) => sum(invoice.refunds);
export const dueOf = (invoice: ModelInvoice) =>
  invoice.payable.minus(creditedOf(invoice)).minus(paidOf(invoice)).plus(refundedOf(invoice));
/** What may be refunded: −amountDue when credit notes took it below zero, but never more than was paid and not yet refunded. */
export const owedOf = (invoice: ModelInvoice) =>
  Dec.max(Dec.min(dueOf(invoice).negated(), paidOf(invoice).minus(refundedOf(invoice))), 0);

export class LifecycleModel {
  readonly invoices: ModelInvoice[] = [];
  /** Numbers taken so far, per sequence and year. */
  private readonly taken = new Map<string, number>();

  constructor(
    readonly currency: string,
    readonly digits: number,
  ) {}

  /** An amount as the API shows it in this currency. */
  money(value: Dec): string {
    return (value.isZero() ? new Dec(0) : value).toFixed(this.digits);
  }

  private peek(sequence: 'invoice' | 'credit-note', date: string): string {
    const year = date.slice(0, 4);
    const next = String((this.taken.get(`${sequence} ${year}`) ?? 0) + 1).padStart(5, '0');
    return sequence === 'invoice' ? `${year}-${next}` : `CN-${year}-${next}`;
  }

  private take(sequence: 'invoice' | 'credit-note', date: string): string {
    const number = this.peek(sequence, date);
    const key = `${sequence} ${date.slice(0, 4)}`;
    this.taken.set(key, (this.taken.get(key) ?? 0) + 1);
    return number;
  }

  /** The dates an invoice is issued with, or the refusal of its due date. */
  private datesAtIssue(
    issueDate: string | null,
    dueDate: string | null,
  ): { issueDate: string; dueDate: string } | null {
    const issue = issueDate ?? todayUtc();
    if (dueDate !== null && dueDate < issue) return null;
    return { issueDate: issue, dueDate: dueDate ?? plusDays(issue, PAYMENT_DAYS) };
  }

  /** Re-derives an issued or paid invoice's status after its amounts changed. */
  private settle(invoice: ModelInvoice): void {
    const paid = paidOf(invoice);
    const due = dueOf(invoice);
    if (paid.greaterThan(0) && due.lessThanOrEqualTo(0)) invoice.status = 'paid';
    else if (paid.isZero() && due.isZero()) invoice.status = 'void';
  }

  create(
    draft: boolean,
    lines: LineInput[],
    issueDate: DateField,
    dueDate: DateField,
  ): Prediction<{ number: string | null; apply: (id: string) => ModelInvoice }> {
    const [issue, due] = [issueDate ?? null, dueDate ?? null];
    if (issue !== null && due !== null && due < issue) return refuse(400, 'VALIDATION_ERROR', 'dueDate');
    const dates = draft ? { issueDate: issue, dueDate: due } : this.datesAtIssue(issue, due);
    if (!dates) return refuse(400, 'VALIDATION_ERROR', 'dueDate');
    const number = draft ? null : this.peek('invoice', dates.issueDate!);
    const apply = (id: string) => {
      const invoice: ModelInvoice = {
        id,
        deleted: false,
        status: draft ? 'draft' : 'issued',
        number: draft ? null : this.take('invoice', dates.issueDate!),
        ...dates,
        lines,
        payable: payableOf(lines, this.digits),
        payments: [],
        refunds: [],
        creditNotes: [],
      };
      this.invoices.push(invoice);
      return invoice;
    };
    return { accept: { number, apply } };
  }

  private draftOnly(invoice: ModelInvoice): Prediction<never> | null {
    if (invoice.deleted) return refuse(404, 'NOT_FOUND');
    if (invoice.status !== 'draft') return refuse(409, 'INVOICE_NOT_DRAFT');
    return null;
  }

  patch(
    invoice: ModelInvoice,
    patch: { lines?: LineInput[]; issueDate?: DateField; dueDate?: DateField },
  ): Prediction<{ apply: () => void }> {
    const refused = this.draftOnly(invoice);
    if (refused) return refused;
    const issueDate = patch.issueDate === undefined ? invoice.issueDate : patch.issueDate;
    const dueDate = patch.dueDate === undefined ? invoice.dueDate : patch.dueDate;
    if (issueDate !== null && dueDate !== null && dueDate < issueDate)
      return refuse(400, 'VALIDATION_ERROR', 'dueDate');
    const lines = patch.lines ?? invoice.lines;
    return {
      accept: {
        apply: () => Object.assign(invoice, { issueDate, dueDate, lines, payable: payableOf(lines, this.digits) }),
      },
    };
  }

  delete(invoice: ModelInvoice): Prediction<{ apply: () => void }> {
    return this.draftOnly(invoice) ?? { accept: { apply: () => void (invoice.deleted = true) } };
  }

  finalize(invoice: ModelInvoice): Prediction<{ number: string; apply: () => void }> {
    const refused = this.draftOnly(invoice);
    if (refused) return refused;
    const dates = this.datesAtIssue(invoice.issueDate, invoice.dueDate);
    if (!dates) return refuse(400, 'VALIDATION_ERROR', 'dueDate');
    const apply = () =>
      Object.assign(invoice, { status: 'issued', number: this.take('invoice', dates.issueDate), ...dates });
    return { accept: { number: this.peek('invoice', dates.issueDate), apply } };
  }

  /** A payment's or refund's amount as sent on the wire (a decimal string or a JSON number), or its refusal. */
  private amountOf(amount: string | number): Dec | { refusal: Refusal } {
    const text = String(amount);
    const fraction = /^-?\d+(?:\.(\d+))?$/.exec(text)![1] ?? '';
    if (fraction.replace(/0+$/, '').length > this.digits) return refuse(400, 'VALIDATION_ERROR', 'amount');
    const value = new Dec(text);
    if (!value.greaterThan(0)) return refuse(400, 'VALIDATION_ERROR', 'amount');
    return value;
  }

  /** At most the amount due. */
  pay(invoice: ModelInvoice, amount: string | number): Prediction<{ apply: () => void }> {
    if (invoice.deleted) return refuse(404, 'NOT_FOUND');
    if (invoice.status === 'draft' || invoice.status === 'void') return refuse(409, 'INVOICE_NOT_PAYABLE');
    const value = this.amountOf(amount);
    if (!(value instanceof Dec)) return value;
    if (value.greaterThan(dueOf(invoice))) return refuse(409, 'PAYMENT_EXCEEDS_AMOUNT_DUE');
    return { accept: { apply: () => (invoice.payments.push(value), this.settle(invoice)) } };
  }

  /** At most what the buyer is owed and no more than was paid; a paid invoice stays paid. */
  refund(invoice: ModelInvoice, amount: string | number): Prediction<{ apply: () => void }> {
    if (invoice.deleted) return refuse(404, 'NOT_FOUND');
    if (invoice.status === 'draft' || invoice.status === 'void') return refuse(409, 'INVOICE_NOT_REFUNDABLE');
    const value = this.amountOf(amount);
    if (!(value instanceof Dec)) return value;
    if (value.greaterThan(owedOf(invoice))) return refuse(409, 'REFUND_EXCEEDS_AMOUNT_OWED');
    return { accept: { apply: () => (invoice.refunds.push(value), this.settle(invoice)) } };
  }

  /** A credit note of `lines` (all the invoice's lines when absent), dated `issueDate` (today when absent). */
  credit(
    invoice: ModelInvoice,
    lines: LineInput[] | undefined,
    issueDate: string | undefined,
  ): Prediction<{ number: string; payable: Dec; apply: () => void }> {
    if (invoice.deleted) return refuse(400, 'INVOICE_NOT_FOUND');
    if (invoice.status !== 'issued' && invoice.status !== 'paid') return refuse(409, 'INVOICE_NOT_CREDITABLE');
    const date = issueDate ?? todayUtc();
    if (date < invoice.issueDate!) return refuse(400, 'VALIDATION_ERROR', 'issueDate');
    const payable = payableOf(lines ?? invoice.lines, this.digits);
    if (!payable.greaterThan(0)) return refuse(400, 'VALIDATION_ERROR', 'lines');
    if (creditedOf(invoice).plus(payable).greaterThan(invoice.payable)) return refuse(409, 'CREDIT_EXCEEDS_INVOICE');
    const apply = () => (
      invoice.creditNotes.push({ number: this.take('credit-note', date), payable }),
      this.settle(invoice)
    );
    return { accept: { number: this.peek('credit-note', date), payable, apply } };
  }

  /** Voiding credits the whole remaining amount, dated today or the invoice's issue date if later. */
  void(invoice: ModelInvoice): Prediction<{ number: string; payable: Dec; apply: () => void }> {
    if (invoice.deleted) return refuse(404, 'NOT_FOUND');
    if (invoice.status === 'draft') return refuse(409, 'INVOICE_NOT_ISSUED');
    if (invoice.status === 'void') return refuse(409, 'INVOICE_ALREADY_VOID');
    if (!paidOf(invoice).isZero()) return refuse(409, 'INVOICE_HAS_PAYMENTS');
    const date = [todayUtc(), invoice.issueDate!].sort().at(-1)!;
    const payable = dueOf(invoice);
    const apply = () => {
      invoice.creditNotes.push({ number: this.take('credit-note', date), payable });
      invoice.status = 'void';
    };
    return { accept: { number: this.peek('credit-note', date), payable, apply } };
  }
}
