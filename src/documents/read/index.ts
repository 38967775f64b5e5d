// Receiving e-invoices, the library: read what arrives (UBL, CII, or a PDF with either inside)
// into the EN 16931 model, and judge it by the rules it claims. No I/O: bytes in, results out.

import type { Profile } from '../model.js';
import { judge, type Judgement } from '../rules/engine.js';
import type { DocumentRead } from './read-document.js';

export { readDocument } from './read-document.js';
export { DEFAULT_READ_LIMITS, type ReadLimits } from './read-limits.js';
export type { DocumentRead, DocumentRefusal, KeptFile, ReadResult, RefusalCode } from './read-document.js';
export type { ReceivedProfile, Syntax, DocumentKind } from './detect.js';
export type { Unmapped } from './xml-source.js';
export { judge } from '../rules/engine.js';
export type { Finding, Severity } from '../rules/finding.js';
export type { Judgement, Verdict, StructureResult } from '../rules/engine.js';

/** A read document judged by the rule sets it claims (or by `specs`), with locations in its source. */
export function judgeDocument(read: DocumentRead, specs: readonly Profile[] = read.claims): Judgement {
  return judge(read.model, specs, {
    syntax: read.syntax,
    kind: read.kind,
    structure: read.structure,
    locate: (field) => read.locations.locate(field),
  });
}
