import type { Einvoice } from '../einvoice-model.js';
import type { Profile } from '../model.js';
import { EN16931_ARITHMETIC } from './en16931-arithmetic.js';
import { codeLists } from './en16931-codes.js';
import { EN16931_CORE, type RuleContext } from './en16931-core.js';
import { EN16931_VAT } from './en16931-vat.js';
import type { Add, Finding, Severity, Syntax } from './finding.js';
import { SPECIFICATION_RULES } from './specification-rules.js';

// The rule engine: an EN 16931 document (received, or one of ours before it is issued) judged by
// the EN 16931 business rules, and by Peppol BIS 3 or XRechnung when it claims them. Each
// failed rule is a finding with its official id, severity, business term and location; the
// verdict is `invalid` when any is fatal (or the structure failed), `valid with warnings` when
// only warnings remain, else `valid`. Pure and synchronous: a model in, a verdict out.

export type Verdict = 'valid' | 'valid with warnings' | 'invalid';

/** The XSD-level result of reading a document: datatypes and syntax-binding rules. */
export interface StructureResult {
  valid: boolean;
  findings: Finding[];
}

export interface JudgeOptions {
  /** The syntax the document came in: where UBL and CII rules differ, that binding's reading. */
  syntax?: Syntax | null;
  /** Invoice or credit note (a UBL root decides which type codes are allowed). */
  kind?: 'invoice' | 'credit-note' | null;
  /** The reader's structural result, folded into the verdict. */
  structure?: StructureResult;
  /** Source location of a model field; without it the field is the location. */
  locate?: (field: string) => string;
}

export interface Judgement {
  verdict: Verdict;
  findings: Finding[];
  structure: StructureResult;
}

/** Runs the rule sets of `specs` on the document and collects every finding once. */
export function runRules(doc: Einvoice, specs: readonly Profile[], options: JudgeOptions = {}): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const add: Add = (rule, term, field, message, severity: Severity = 'fatal') => {
    const key = `${rule}|${field}|${severity}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push({ rule, severity, term, field, location: options.locate ? options.locate(field) : field, message });
  };
  const ctx: RuleContext & { kind: 'invoice' | 'credit-note' | null } = {
    doc,
    syntax: options.syntax ?? null,
    add,
    kind: options.kind ?? null,
  };
  if (specs.includes('en16931')) {
    for (const rule of [...EN16931_CORE, ...EN16931_ARITHMETIC, ...EN16931_VAT]) rule(ctx);
    codeLists(ctx);
  }
  for (const spec of specs) SPECIFICATION_RULES[spec]?.(ctx);
  return findings;
}

export function verdictOf(findings: Finding[], structure: StructureResult): Verdict {
  const all = [...structure.findings, ...findings];
  if (!structure.valid || all.some((f) => f.severity === 'fatal')) return 'invalid';
  return all.length > 0 ? 'valid with warnings' : 'valid';
}

/** The verdict on a document by the rule sets it claims (see claimedSpecs), with every finding. */
export function judge(doc: Einvoice, specs: readonly Profile[], options: JudgeOptions = {}): Judgement {
  const structure = options.structure ?? { valid: true, findings: [] };
  const findings = runRules(doc, specs, options);
  return { verdict: verdictOf(findings, structure), findings, structure };
}
