// What reading a received document may cost, and the defaults: apart from the readers, so the
// main thread can hand limits to the reading workers without loading the parsers (saxes, pdf-lib)
// it never runs itself.

export interface XmlLimits {
  /** Most bytes of XML. */
  maxBytes: number;
  /** Most nested elements. */
  maxDepth: number;
  /** Most elements in the document. */
  maxElements: number;
  /** Most characters of text in one element. */
  maxTextLength: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = {
  maxBytes: 20 * 1024 * 1024,
  maxDepth: 64,
  maxElements: 500_000,
  maxTextLength: 15 * 1024 * 1024,
};

export interface PdfLimits {
  /** Most bytes outside any object or cross-reference table (pdf-lib crawls through those slowly). */
  maxLooseBytes: number;
  /** Most bytes one decoded stream may have. */
  maxStreamBytes: number;
  /** Most bytes all object streams may decode to together. */
  maxObjectStreamBytes: number;
  /** Most embedded files listed. */
  maxFiles: number;
}

export const DEFAULT_PDF_LIMITS: PdfLimits = {
  maxLooseBytes: 64 * 1024,
  maxStreamBytes: 10 * 1024 * 1024,
  maxObjectStreamBytes: 64 * 1024 * 1024,
  maxFiles: 100,
};

export interface ReadLimits {
  /** Most bytes of the whole document (XML or PDF). */
  maxBytes: number;
  xml: XmlLimits;
  pdf: PdfLimits;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxBytes: 20 * 1024 * 1024,
  xml: DEFAULT_XML_LIMITS,
  pdf: DEFAULT_PDF_LIMITS,
};
