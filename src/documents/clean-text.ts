// The one place that decides which characters may reach a document. XML 1.0 cannot hold every
// character the API stores (control characters other than tab, LF and CR; U+FFFE and U+FFFF;
// lone surrogates), and neither may the PDF's text, its XMP packet (XML) or its information
// dictionary: such characters are dropped, so that no name or note makes a document unreadable
// or not well-formed. The UBL and CII writers (xml.ts), the XMP writer (pdf/xmp.ts) and every
// text the PDF draws (pdf/text-layout.ts) go through it.

const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text without the characters XML 1.0 forbids. */
export function cleanText(text: string): string {
  return text.replace(NOT_XML, '');
}
