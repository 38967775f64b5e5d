import type { Einvoice } from '../einvoice-model.js';
import type { Profile } from '../model.js';
import type { Judgement } from '../rules/engine.js';
import type { DocumentKind, ReceivedProfile, Syntax } from './detect.js';
import { judgeDocument } from './index.js';
import { readDocument, type DocumentRead, type DocumentRefusal, type KeptFile } from './read-document.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from './read-limits.js';
import type { Unmapped } from './xml-source.js';

// A received document read and judged in one step, as plain data: what the reading pool's
// workers answer (structured-cloneable, no functions), and what the service stores.

export interface ReceivedDocument {
  ok: true;
  syntax: Syntax;
  kind: DocumentKind;
  container: DocumentRead['container'];
  profile: ReceivedProfile;
  claims: Profile[];
  model: Einvoice;
  unmapped: Unmapped[];
  attachments: KeptFile[];
  /** The verdict by the rule sets the document claims (BT-24), with the structural result. */
  judgement: Judgement;
}

export type ReceivedResult = ReceivedDocument | DocumentRefusal;

/** Reads a received document and judges it by the rules it claims. Never throws for any input. */
export async function readAndJudge(
  bytes: Uint8Array,
  contentType: string | null = null,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<ReceivedResult> {
  const read = await readDocument(bytes, contentType, limits);
  if (!read.ok) return read;
  const judgement = judgeDocument(read);
  return {
    ok: true,
    syntax: read.syntax,
    kind: read.kind,
    container: read.container,
    profile: read.profile,
    claims: read.claims,
    model: read.model,
    unmapped: read.unmapped,
    attachments: read.attachments,
    judgement,
  };
}
