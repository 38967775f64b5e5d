import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import {
  Dec,
  LifecycleModel,
  dueOf,
  owedOf,
  refundedOf,
  todayUtc,
  type ModelInvoice,
  type Prediction,
  type Status,
} from '../helpers/lifecycle-model.js';
import {
  settlementStepSpec,
  stepSpec,
  amountOf,
  creditLinesOf,
  targetOf,
  type Spec,
} from '../helpers/lifecycle-steps.js';

// The invoice lifecycle as a model-based property: random sequences of creates, draft edits,
// deletes, finalizes, payments, credit notes, refunds and voids go through the real API of one company,
// and after each step the invoice read back must be what the model (helpers/lifecycle-model.ts)
// says: amounts exact, status by the rules and never going back, every refusal the predicted
// code and without effect, and every number the next of its gapless sequence.

const DIGITS = { JPY: 0, EUR: 2, KWD: 3 } as const;
type Currency = keyof typeof DIGITS;

interface DocumentAnswer {
  id: string;
  number: string | null;
  currency: string;
  issueDate: string | null;
  totals: Record<'lineNetTotal' | 'taxExclusive' | 'taxTotal' | 'taxInclusive' | 'roundingAmount' | 'payable', string>;
  lines: { netAmount: string }[];
  vatBreakdown: { taxableAmount: string; taxAmount: string }[];
}

interface InvoiceAnswer extends DocumentAnswer {
  status: Status;
  dueDate: string | null;
  amountPaid: string;
  amountCredited: string;
  amountRefunded: string;
  amountDue: string;
  isOverdue: boolean;
  payments: { amount: string }[];
  refunds: { amount: string }[];
  creditNoteIds: string[];
  deliveries?: unknown[];
  hostedUrl?: string | null;
  viewedAt?: string | null;
  reminders?: unknown[];
}

interface CreditNoteAnswer extends DocumentAnswer {
  number: string;
  invoiceId: string;
  invoiceNumber: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface Real {
  buyerId: string;
  send(method: Method, path: string, body?: object): Promise<LightMyRequestResponse>;
  /** Each invoice as last read back: a refused step must leave it exactly so. */
  seen: Map<string, InvoiceAnswer>;
}

class Step implements fc.AsyncCommand<LifecycleModel, Real> {
  constructor(readonly spec: Spec) {}
  check(model: Readonly<LifecycleModel>): boolean {
    if (this.spec.op === 'create') return true;
    const invoice = targetOf(this.spec, model as LifecycleModel);
    return invoice !== undefined;
  }
  run(model: LifecycleModel, real: Real): Promise<void> {
    return runStep(this.spec, model, real);
  }
  toString(): string {
    return JSON.stringify(this.spec);
  }
}

const STEPS = [stepSpec.map((spec) => new Step(spec))];
const SETTLEMENT_STEPS = [settlementStepSpec.map((spec) => new Step(spec))];

// ---- Running a step: the prediction, the answer, and the invoice read back ----

async function runStep(spec: Spec, model: LifecycleModel, real: Real): Promise<void> {
  const step = JSON.stringify(spec);
  if (spec.op === 'create') {
    const { draft, lines, issueDate, dueDate } = spec;
    const predicted = model.create(draft, lines, issueDate, dueDate);
    const res = await real.send('POST', '/invoice', {
      organizationId: real.buyerId,
      lines,
      issueDate,
      dueDate,
      ...(draft ? { status: 'draft' } : {}),
    });
    if (!expectAnswer(res, predicted, 201, step)) return;
    const answer = res.json().data as InvoiceAnswer;
    expect(answer.number, step).toBe(predicted.accept.number);
    expect(await observe(model, real, predicted.accept.apply(answer.id))).toEqual(answer);
    return;
  }

  const invoice = targetOf(spec, model)!;
  const before = real.seen.get(invoice.id);
  const { predicted, res, success } = await sendStep(spec, invoice, model, real);
  if (!expectAnswer(res, predicted, success, `${step} on ${JSON.stringify(before ?? 'a deleted draft')}`)) {
    expect(await observe(model, real, invoice), `${step} was refused and must change nothing`).toEqual(before);
    return;
  }
  const { apply, number, payable } = predicted.accept;
  apply();
  const after = await observe(model, real, invoice);
  if (spec.op === 'credit') {
    const note = res.json().data as CreditNoteAnswer;
    expect({ number: note.number, payable: note.totals.payable, invoiceId: note.invoiceId }, step).toEqual({
      number,
      payable: model.money(payable!),
      invoiceId: invoice.id,
    });
  } else if (spec.op !== 'delete') {
    expect(after, step).toEqual(res.json().data);
  }
}

type Accepted = { apply: () => void; number?: string | null; payable?: Dec };

/** A step on an existing invoice: the model's prediction, the API's answer, and the status of a success. */
async function sendStep(
  spec: Exclude<Spec, { op: 'create' }>,
  invoice: ModelInvoice,
  model: LifecycleModel,
  real: Real,
): Promise<{ predicted: Prediction<Accepted>; res: LightMyRequestResponse; success: number }> {
  const path = `/invoice/${invoice.id}`;
  switch (spec.op) {
    case 'patch': {
      const patch = { lines: spec.lines, issueDate: spec.issueDate, dueDate: spec.dueDate };
      return { predicted: model.patch(invoice, patch), res: await real.send('PATCH', path, patch), success: 200 };
    }
    case 'delete':
      return { predicted: model.delete(invoice), res: await real.send('DELETE', path), success: 200 };
    case 'finalize':
      return { predicted: model.finalize(invoice), res: await real.send('POST', `${path}/finalize`), success: 200 };
    case 'pay': {
      const amount = amountOf(spec.amount, dueOf(invoice), model);
      return {
        predicted: model.pay(invoice, amount),
        res: await real.send('POST', `${path}/payment`, { amount }),
        success: 201,
      };
    }
    case 'refund': {
      const amount = amountOf(spec.amount, owedOf(invoice), model);
      return {
        predicted: model.refund(invoice, amount),
        res: await real.send('POST', `${path}/refund`, { amount }),
        success: 201,
      };
    }
    case 'credit': {
      const issueDate = spec.dated ? (invoice.issueDate ?? undefined) : undefined;
      const lines = creditLinesOf(spec.credit, invoice, model);
      const body = { invoiceId: invoice.id, reason: 'Property', lines, issueDate };
      return {
        predicted: model.credit(invoice, lines, issueDate),
        res: await real.send('POST', '/credit-note', body),
        success: 201,
      };
    }
    case 'void':
      return { predicted: model.void(invoice), res: await real.send('POST', `${path}/void`), success: 200 };
  }
}

/** Checks the answer is the predicted refusal (false) or a success with the given status (true). */
function expectAnswer<R>(
  res: LightMyRequestResponse,
  predicted: Prediction<R>,
  success: number,
  step: string,
): predicted is { accept: R } {
  if ('accept' in predicted) {
    expect(res.statusCode, `${step} should succeed: ${res.body}`).toBe(success);
    return true;
  }
  const { refusal } = predicted;
  const error = res.json().error as { code: string; details?: { field: string }[] } | undefined;
  expect({ status: res.statusCode, code: error?.code }, `${step}: ${res.body}`).toEqual({
    status: refusal.status,
    code: refusal.code,
  });
  if (refusal.field)
    expect(
      error?.details?.map((d) => d.field),
      step,
    ).toContain(refusal.field);
  return false;
}

// ---- What every invoice read back must be ----

const NEXT_STATUSES: Record<Status, Status[]> = {
  draft: ['draft', 'issued'],
  issued: ['issued', 'paid', 'void'],
  paid: ['paid'],
  void: ['void'],
};
const total = (values: string[]) => values.reduce((sum, value) => sum.plus(value), new Dec(0));

/** GET /invoice/{id} and its credit notes, checked against the model and the rules; the answer, or undefined when gone. */
async function observe(model: LifecycleModel, real: Real, invoice: ModelInvoice): Promise<InvoiceAnswer | undefined> {
  const res = await real.send('GET', `/invoice/${invoice.id}`);
  if (invoice.deleted) {
    expect(res.statusCode, res.body).toBe(404);
    real.seen.delete(invoice.id);
    return undefined;
  }
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json().data as InvoiceAnswer;
  const notes = (await real.send('GET', `/credit-note?invoiceId=${invoice.id}&limit=100`)).json().data
    .items as CreditNoteAnswer[];
  const previous = real.seen.get(invoice.id)?.status;
  if (previous)
    expect(NEXT_STATUSES[previous], `${invoice.id} went from ${previous} to ${answer.status}`).toContain(answer.status);
  real.seen.set(invoice.id, answer);

  const amount = new RegExp(model.digits === 0 ? '^-?\\d+$' : `^-?\\d+\\.\\d{${model.digits}}$`);
  const documentAmounts = (d: DocumentAnswer) => [
    ...Object.values(d.totals),
    ...d.lines.map((l) => l.netAmount),
    ...d.vatBreakdown.flatMap((g) => [g.taxableAmount, g.taxAmount]),
  ];
  const amounts = [
    answer.amountPaid,
    answer.amountCredited,
    answer.amountRefunded,
    answer.amountDue,
    ...[...answer.payments, ...answer.refunds].map((p) => p.amount),
    ...[answer, ...notes].flatMap(documentAmounts),
  ];
  for (const value of amounts) expect(value, `an amount in ${model.currency}`).toMatch(amount);

  // The identities, on the answer's own figures.
  const paid = total(answer.payments.map((p) => p.amount));
  const credited = total(notes.map((n) => n.totals.payable));
  const refunded = total(answer.refunds.map((r) => r.amount));
  const due = new Dec(answer.totals.payable).minus(credited).minus(paid).plus(refunded);
  expect({
    amountPaid: answer.amountPaid,
    amountCredited: answer.amountCredited,
    amountRefunded: answer.amountRefunded,
    amountDue: answer.amountDue,
  }).toEqual({
    amountPaid: model.money(paid),
    amountCredited: model.money(credited),
    amountRefunded: model.money(refunded),
    amountDue: model.money(due),
  });
  // A refund never pays back more than was paid, nor takes amountDue above zero.
  expect(
    refunded.lessThanOrEqualTo(paid) && (refunded.isZero() || due.lessThanOrEqualTo(0)),
    JSON.stringify(answer),
  ).toBe(true);
  expect([...answer.creditNoteIds].sort()).toEqual(notes.map((n) => n.id).sort());
  for (const note of notes)
    expect([note.invoiceId, note.invoiceNumber, note.currency]).toEqual([invoice.id, answer.number, model.currency]);
  expect(statusRuleBroken(answer.status, paid, due, notes.length), JSON.stringify(answer)).toBeNull();
  const today = todayUtc();
  expect(answer.isOverdue).toBe(
    answer.status === 'issued' && due.greaterThan(0) && answer.dueDate !== null && answer.dueDate < today,
  );

  // And they are what the model predicted.
  expect({
    status: answer.status,
    number: answer.number,
    issueDate: answer.issueDate,
    dueDate: answer.dueDate,
    currency: answer.currency,
    payable: answer.totals.payable,
    payments: answer.payments.length,
    refunds: answer.refunds.length,
    amountRefunded: answer.amountRefunded,
    amountDue: answer.amountDue,
    creditNotes: notes.map((n) => n.number).sort(),
  }).toEqual({
    status: invoice.status,
    number: invoice.number,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    currency: model.currency,
    payable: model.money(invoice.payable),
    payments: invoice.payments.length,
    refunds: invoice.refunds.length,
    amountRefunded: model.money(refundedOf(invoice)),
    amountDue: model.money(dueOf(invoice)),
    creditNotes: invoice.creditNotes.map((n) => n.number).sort(),
  });
  return answer;
}

/** Which status rule the figures break, or null. */
function statusRuleBroken(status: Status, paid: Dec, due: Dec, creditNotes: number): string | null {
  const settledByPayment = paid.greaterThan(0) && due.lessThanOrEqualTo(0);
  const creditedToZero = paid.isZero() && due.isZero() && creditNotes > 0;
  if (status === 'draft' && (!paid.isZero() || creditNotes > 0)) return 'a draft has payments or credit notes';
  if (status === 'paid' && !settledByPayment) return 'paid without amountPaid > 0 and amountDue ≤ 0';
  if (status === 'void' && !(paid.isZero() && due.isZero())) return 'void with payments or an amount due';
  if (status === 'issued' && (settledByPayment || creditedToZero))
    return 'still issued although paid or credited in full';
  return null;
}

/** After a run: the list shows exactly the model's invoices as read one by one, and numbers have no gap. */
async function expectListAndNumbers(model: LifecycleModel, real: Real): Promise<void> {
  const listed = (await real.send('GET', '/invoice?limit=100')).json().data.items as InvoiceAnswer[];
  expect(listed.map((i) => i.id).sort()).toEqual(
    model.invoices
      .filter((i) => !i.deleted)
      .map((i) => i.id)
      .sort(),
  );
  for (const invoice of model.invoices) {
    const read = await observe(model, real, invoice);
    if (!read) continue;
    // A list shows each invoice as a read does, but for the messages it was sent with, its reminders and its hosted page.
    const { deliveries: _sent, hostedUrl: _page, viewedAt: _viewed, reminders: _reminded, ...listedAs } = read;
    expect(listed.find((i) => i.id === invoice.id)).toEqual(listedAs);
  }
  expectGapless(
    listed.filter((i) => i.status !== 'draft').map((i) => i.number!),
    /^(\d{4})-(\d{5})$/,
  );
  const notes = (await real.send('GET', '/credit-note?limit=100')).json().data.items as CreditNoteAnswer[];
  expect(notes).toHaveLength(model.invoices.reduce((n, i) => n + i.creditNotes.length, 0));
  // GET /payment lists every payment and refund of the run, each with its invoice and amount.
  const moved = (await real.send('GET', '/payment?limit=100')).json().data.items as {
    kind: string;
    invoiceId: string;
    amount: string;
  }[];
  const entries = (list: { kind: string; invoiceId: string; amount: string }[]) =>
    list.map((p) => `${p.kind} ${p.invoiceId} ${p.amount}`).sort();
  expect(entries(moved)).toEqual(
    entries(
      model.invoices.flatMap((i) => [
        ...i.payments.map((a) => ({ kind: 'payment', invoiceId: i.id, amount: model.money(a) })),
        ...i.refunds.map((a) => ({ kind: 'refund', invoiceId: i.id, amount: model.money(a) })),
      ]),
    ),
  );
  expectGapless(
    notes.map((n) => n.number),
    /^CN-(\d{4})-(\d{5})$/,
  );
}

/** Per year, the numbers are exactly 00001..N. */
function expectGapless(numbers: string[], pattern: RegExp): void {
  const byYear = new Map<string, number[]>();
  for (const number of numbers) {
    const match = pattern.exec(number);
    expect(match, number).not.toBeNull();
    byYear.set(match![1]!, [...(byYear.get(match![1]!) ?? []), Number(match![2])]);
  }
  for (const [year, values] of byYear)
    expect(
      values.sort((a, b) => a - b),
      year,
    ).toEqual(values.map((_, i) => i + 1));
}

for (const dialect of DIALECTS) {
  describe(`the invoice lifecycle as a model on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect, { rateLimitMax: 1_000_000 });
    });
    afterAll(async () => t.close());

    it('keeps amounts, statuses, refusals and numbers as the rules say after any sequence of operations', async () => {
      let run = 0;
      // Half the runs stay on issued invoices, where payments, credit notes and refunds meet.
      const runs = fc.oneof(
        { weight: 1, arbitrary: fc.commands(STEPS, { maxCommands: 25, size: 'max' }) },
        { weight: 1, arbitrary: fc.commands(SETTLEMENT_STEPS, { maxCommands: 25, size: 'max' }) },
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...(Object.keys(DIGITS) as Currency[])), runs, async (currency, steps) => {
          const companyId = await t.createCompany(`Lifecycle ${++run}`, currency);
          const { key } = await t.createKey(companyId, ALL_PERMISSIONS);
          const send: Real['send'] = (method, path, body) =>
            t.request({
              method,
              url: `${BASE_PATH}${path}`,
              headers: { 'x-api-key': key },
              ...(body ? { payload: body } : {}),
            });
          const buyer = await send('POST', '/organization', { name: 'Lifecycle Buyer', isCustomer: true });
          expect(buyer.statusCode, buyer.body).toBe(201);
          const model = new LifecycleModel(currency, DIGITS[currency]);
          const real: Real = { buyerId: buyer.json().data.id, send, seen: new Map() };
          await fc.asyncModelRun(() => ({ model, real }), steps);
          await expectListAndNumbers(model, real);
        }),
        { numRuns: 40 },
      );
    }, 180_000);
  });
}
