import type { Profile } from '../model.js';
import type { RuleContext } from './en16931-core.js';
import { peppol, xrechnung, type ProfileCheck } from './profile-checks.js';

// The rule sets of the specifications a document may claim in BT-24 beyond EN 16931 itself:
// Peppol BIS Billing 3.0 and XRechnung 3.0, the same checks that refuse our own documents before
// they are issued. Each finding carries the business term its field belongs to.

const TERMS: [RegExp, string][] = [
  [/^buyerReference/, 'BT-10'],
  [/^seller\.electronicAddress/, 'BT-34'],
  [/^buyer\.electronicAddress/, 'BT-49'],
  [/^seller\.contact\.name/, 'BT-41'],
  [/^seller\.contact\.phone/, 'BT-42'],
  [/^seller\.contact\.email/, 'BT-43'],
  [/^seller\.contact/, 'BG-6'],
  [/^seller\.address\.city/, 'BT-37'],
  [/^seller\.address\.postalCode/, 'BT-38'],
  [/^buyer\.address\.city/, 'BT-52'],
  [/^buyer\.address\.postalCode/, 'BT-53'],
  [/^seller\.vatId/, 'BT-31'],
  [/^seller\.legalRegistrationId/, 'BT-30'],
  [/^buyer\.legalRegistrationId/, 'BT-47'],
  [/^seller\.taxRegistrationId/, 'BT-32'],
  [/^deliverTo\.address\.city|buyer\.address\.city/, 'BT-77'],
  [/^deliverTo\.address\.postalCode/, 'BT-78'],
  [/^paymentTerms/, 'BT-20'],
  [/^paymentMeans\.creditTransfer/, 'BG-17'],
  [/^paymentMeans\.card/, 'BG-18'],
  [/^paymentMeans\.directDebit\.mandateReference/, 'BT-89'],
  [/^paymentMeans\.directDebit\.creditorId/, 'BT-90'],
  [/^paymentMeans\.directDebit\.debitedAccountId/, 'BT-91'],
  [/^paymentMeans\.directDebit/, 'BG-19'],
  [/^paymentMeans/, 'BG-16'],
  [/^precedingInvoice/, 'BG-3'],
  [/^lines/, 'BG-25'],
];

const termOf = (field: string) => TERMS.find(([pattern]) => pattern.test(field))?.[1] ?? '';

const run = (check: ProfileCheck) => (ctx: RuleContext) =>
  check(ctx.doc, (field, rule, message) => ctx.add(rule, termOf(field), field, message));

export const SPECIFICATION_RULES: Partial<Record<Profile, (ctx: RuleContext) => void>> = {
  peppol: run(peppol),
  xrechnung: run(xrechnung),
};
