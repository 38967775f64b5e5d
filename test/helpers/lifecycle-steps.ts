import fc from 'fast-check';
import {
  Dec,
  creditedOf,
  dueOf,
  owedOf,
  type DateField,
  type LifecycleModel,
  type LineInput,
  type ModelInvoice,
} from './lifecycle-model.js';

// The random steps of test/api/lifecycle-properties.test.ts. A step names its invoice and amounts
// relative to the model's state (the n-th invoice, "the amount due plus one minor unit"), so
// that it stays meaningful when fast-check shrinks the sequence around it.

export type AmountKind = 'due' | 'half' | 'minor' | 'over' | 'tooPrecise' | 'zero' | 'fixed';
export interface AmountSpec {
  kind: AmountKind;
  fixed: string;
  /** Sent as a JSON number when that is the same decimal. */
  asNumber: boolean;
  /** Trailing zeros, which do not count as decimals. */
  padded: boolean;
}

export type Spec =
  | { op: 'create'; draft: boolean; lines: LineInput[]; issueDate?: DateField; dueDate?: DateField }
  | { op: 'patch'; pick: Pick; lines?: LineInput[]; issueDate?: DateField; dueDate?: DateField }
  | { op: 'delete' | 'finalize' | 'void'; pick: Pick }
  | { op: 'pay' | 'refund'; pick: Pick; amount: AmountSpec }
  | { op: 'credit'; pick: Pick; credit: CreditSpec; dated: boolean };

/**
 * What a credit note credits: every line (no lines sent), one of the invoice's own lines, one
 * zero-rated line of exactly the amount not yet credited (or one minor unit more, or half), or
 * random lines.
 */
export type CreditSpec =
  | { kind: 'all' }
  | { kind: 'own'; index: number }
  | { kind: 'exactly'; of: 'rest' | 'over' | 'half' }
  | { kind: 'random'; lines: LineInput[] };

/** The invoice a step acts on: any of the run's invoices, or (`fitting`) one in a state where the step can succeed. */
export interface Pick {
  index: number;
  fitting: boolean;
}

const decimal = (maxUnits: number) =>
  fc
    .tuple(fc.integer({ min: 1, max: maxUnits }), fc.integer({ min: 0, max: 3 }))
    .map(([units, scale]) => new Dec(units).dividedBy(10 ** scale).toFixed());

const line: fc.Arbitrary<LineInput> = fc
  .record(
    {
      quantity: fc.constantFrom('1', '2', '3', '0.5', '1.25', '12', '-1'),
      unitPrice: fc.oneof({ weight: 1, arbitrary: fc.constant('0') }, { weight: 7, arbitrary: decimal(300_000) }),
      discountPercent: fc.constantFrom('10', '33.33', '50'),
      vatRate: fc.constantFrom('0', '7', '19', '8.1', '5.5'),
    },
    { requiredKeys: ['quantity', 'unitPrice', 'vatRate'] },
  )
  .map((fields) => ({ name: 'Item', ...fields }));

const lines = fc.array(line, { minLength: 1, maxLength: 3 });
const pick: fc.Arbitrary<Pick> = fc.record({
  index: fc.nat({ max: 40 }),
  fitting: fc.oneof({ weight: 2, arbitrary: fc.constant(true) }, fc.constant(false)),
});
// Past, future and absent dates: numbers run per year, and a due date can fall before the issue date.
const issueDate = fc.constantFrom<DateField>(undefined, null, '2024-02-29', '2031-07-01');
const dueDate = fc.constantFrom<DateField>(undefined, null, '2001-01-01', '2024-03-31', '2031-12-31');
const amount: fc.Arbitrary<AmountSpec> = fc.record({
  kind: fc.constantFrom<AmountKind>(
    'due',
    'due',
    'half',
    'half',
    'minor',
    'over',
    'tooPrecise',
    'zero',
    'fixed',
    'fixed',
  ),
  fixed: decimal(500_000),
  asNumber: fc.boolean(),
  padded: fc.boolean(),
});

/** Amounts that mostly take all that may be paid or refunded, to reach paid invoices and refunds within a run. */
const mostlyAll: fc.Arbitrary<AmountSpec> = fc.record({
  kind: fc.constantFrom<AmountKind>('due', 'due', 'due', 'half', 'minor', 'over', 'fixed'),
  fixed: decimal(500_000),
  asNumber: fc.boolean(),
  padded: fc.boolean(),
});

const creditSpec: fc.Arbitrary<CreditSpec> = fc.oneof(
  fc.constant({ kind: 'all' as const }),
  fc.record({ kind: fc.constant('own' as const), index: fc.nat({ max: 2 }) }),
  fc.record({
    kind: fc.constant('exactly' as const),
    of: fc.constantFrom('rest' as const, 'over' as const, 'half' as const),
  }),
  fc.record({ kind: fc.constant('random' as const), lines: fc.array(line, { minLength: 1, maxLength: 2 }) }),
);

export const stepSpec: fc.Arbitrary<Spec> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('create' as const), draft: fc.constant(true), lines, issueDate, dueDate }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('create' as const), draft: fc.constant(false), lines, issueDate, dueDate }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('patch' as const), pick, lines }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('patch' as const), pick, issueDate, dueDate }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('finalize' as const), pick }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('pay' as const), pick, amount }) },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('credit' as const), pick, credit: creditSpec, dated: fc.boolean() }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('refund' as const), pick, amount }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('void' as const), pick }) },
);

/**
 * Steps on issued invoices only, for the runs that reach refunds: a refund needs an invoice paid
 * in full and then credited, a chain the general mix rarely completes in one run.
 */
export const settlementStepSpec: fc.Arbitrary<Spec> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ op: fc.constant('create' as const), draft: fc.constant(false), lines }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('pay' as const), pick, amount: mostlyAll }) },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('credit' as const), pick, credit: creditSpec, dated: fc.boolean() }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('refund' as const), pick, amount: mostlyAll }) },
);

const DRAFT_STEPS: ReadonlySet<Spec['op']> = new Set(['patch', 'delete', 'finalize']);

type Wanted = (invoice: ModelInvoice) => boolean;
const isDraft: Wanted = (invoice) => invoice.status === 'draft';
const isPaid: Wanted = (invoice) => invoice.status === 'paid';
const isIssued: Wanted = (invoice) => invoice.status === 'issued';
const isSettled: Wanted = (invoice) => isIssued(invoice) || isPaid(invoice);
const isDue: Wanted = (invoice) => isIssued(invoice) && dueOf(invoice).greaterThan(0);
const owesBuyer: Wanted = (invoice) => isPaid(invoice) && owedOf(invoice).greaterThan(0);

/**
 * The invoices a fitting step prefers, best first. A payment wants one with something due; a refund one
 * whose buyer is owed; three credit notes in four go to a paid invoice when there is one, leaving
 * its buyer owed, so that refunds have something to do.
 */
function preferred(spec: Exclude<Spec, { op: 'create' }>): Wanted[] {
  if (DRAFT_STEPS.has(spec.op)) return [isDraft];
  if (spec.op === 'refund') return [owesBuyer, isSettled];
  if (spec.op === 'pay') return [isDue, isSettled];
  if (spec.op === 'credit' && spec.pick.index % 4 !== 0) return [isPaid, isSettled];
  return [isSettled];
}

export function targetOf(spec: Exclude<Spec, { op: 'create' }>, model: LifecycleModel): ModelInvoice | undefined {
  const live = model.invoices.filter((invoice) => !invoice.deleted);
  const fitting = spec.pick.fitting
    ? (preferred(spec)
        .map((wanted) => live.filter(wanted))
        .find((list) => list.length > 0) ?? [])
    : [];
  const candidates = fitting.length > 0 ? fitting : model.invoices;
  return candidates[spec.pick.index % candidates.length];
}

/** The lines a credit step sends (undefined: none, the invoice is credited in full). */
export function creditLinesOf(spec: CreditSpec, invoice: ModelInvoice, model: LifecycleModel): LineInput[] | undefined {
  switch (spec.kind) {
    case 'all':
      return undefined;
    case 'own':
      return [invoice.lines[spec.index % invoice.lines.length]!];
    case 'random':
      return spec.lines;
    case 'exactly': {
      const minor = new Dec(1).dividedBy(10 ** model.digits);
      const rest = Dec.max(invoice.payable.minus(creditedOf(invoice)), 0);
      const value = {
        rest,
        over: rest.plus(minor),
        half: rest.dividedBy(2).toDecimalPlaces(model.digits, Dec.ROUND_DOWN),
      }[spec.of];
      return [{ name: 'Credit', quantity: '1', unitPrice: value.toFixed(), vatRate: '0' }];
    }
  }
}

/** The amount a payment or refund step sends, relative to what the model says may be paid (the amount due) or refunded (what is owed). */
export function amountOf(spec: AmountSpec, allowed: Dec, model: LifecycleModel): string | number {
  const minor = new Dec(1).dividedBy(10 ** model.digits);
  const due = Dec.max(allowed, 0);
  const value = {
    due: Dec.max(due, minor),
    half: Dec.max(due.dividedBy(2).toDecimalPlaces(model.digits, Dec.ROUND_DOWN), minor),
    minor,
    over: due.plus(minor),
    tooPrecise: due.plus(minor.dividedBy(2)),
    zero: new Dec(0),
    fixed: new Dec(spec.fixed),
  }[spec.kind];
  const plain = value.toFixed(Math.max(value.decimalPlaces(), model.digits));
  const text = spec.padded ? `${plain}${plain.includes('.') ? '00' : '.00'}` : plain;
  const asNumber = Number(text);
  return spec.asNumber && !/e/i.test(String(asNumber)) && new Dec(String(asNumber)).equals(text) ? asNumber : text;
}
