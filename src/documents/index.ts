// The e-invoice engine's public face: build the EN 16931 view of an issued document, ask what
// it lacks for a profile, and render it as UBL, CII or a PDF/A-3 with the CII embedded.

import { renderCiiDocument, type CiiProfile } from './cii.js';
import type { DocumentView } from './model.js';
import type { PdfOptions } from './pdf/render.js';
import { renderUblDocument, type UblProfile } from './ubl.js';

export type { DocumentView, Profile } from './model.js';
export type { Problem } from './completeness.js';
export type { DocumentInput, DocumentLineInput } from './build-view.js';
export type { UblProfile } from './ubl.js';
export type { CiiProfile } from './cii.js';
export type { PdfOptions } from './pdf/render.js';
export type { CreditFacts, QuoteFacts, StatusFacts } from './pdf/facts.js';
export { PdfRenderPool, PdfRenderError, type PdfPoolSettings, type PdfRenderFailure } from './pdf/pool.js';
export { cleanText } from './clean-text.js';
export { languageForCountry, PDF_LANGUAGES, type PdfLanguage } from './pdf/labels.js';
export { problemsFor, problemsForEach } from './completeness.js';
export { documentViewFrom } from './build-view.js';
export { epcPayload, girocodeSvg } from './pdf/girocode.js';
export { formattersFor } from './pdf/format.js';

/** UBL 2.1 Invoice (BT-3 380) or CreditNote (381), Peppol BIS Billing 3.0 or XRechnung 3.0. */
export function renderUbl(view: DocumentView, options: { profile: UblProfile } = { profile: 'peppol' }): string {
  return renderUblDocument(view, options.profile);
}

/** UN/CEFACT CII D16B, Factur-X 1.07 / ZUGFeRD 2.3 profile EN 16931, or XRechnung 3.0. */
export function renderCii(view: DocumentView, options: { profile: CiiProfile } = { profile: 'en16931' }): string {
  return renderCiiDocument(view, options.profile);
}

/**
 * The PDF/A-3b a person reads, in English, German or French. An issued document without
 * EN 16931 problems embeds its CII as factur-x.xml (Factur-X 1.07 / ZUGFeRD 2.3, EN 16931).
 */
export async function renderPdf(view: DocumentView, options: PdfOptions = { lang: 'en' }): Promise<Buffer> {
  // pdfkit, fontkit and the fonts take about 30 MB of memory: loaded with the first PDF, not at start.
  pdfRenderer ??= import('./pdf/render.js');
  return (await pdfRenderer).renderPdfDocument(view, options);
}

let pdfRenderer: Promise<typeof import('./pdf/render.js')> | undefined;
