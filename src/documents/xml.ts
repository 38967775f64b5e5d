import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';

// The two small habits both mappers share: an optional element is written only when it has a
// value (empty elements fail PEPPOL-EN16931-R008), and children are added in schema order.

export type XmlNode = XMLBuilder;

/**
 * XML 1.0 cannot hold every character text may hold (control characters, U+FFFE, lone
 * surrogates): they are dropped, so that no name or note makes a document unreadable.
 */
export const XML_DECLARATION = { version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' } as const;

/** Adds <name>text</name> unless text is null or blank; returns the parent. */
export function leaf(parent: XmlNode, name: string, text: string | null | undefined, attributes?: Record<string, string>): XmlNode {
  if (text === null || text === undefined || text.trim() === '') return parent;
  parent.ele(name, attributes).txt(text);
  return parent;
}

/** Adds <name> and lets `fill` write its children; returns the parent. */
export function group(parent: XmlNode, name: string, fill: (node: XmlNode) => void, attributes?: Record<string, string>): XmlNode {
  fill(parent.ele(name, attributes));
  return parent;
}

/** Serialises without pretty-printing: smaller, and whitespace never changes a value. */
export function serialize(root: XmlNode): string {
  return root.end({ prettyPrint: false, headless: false });
}

/** "0", "0.00", "-0.000": an amount text that is zero. */
export function isZeroAmount(text: string): boolean {
  return /^-?0*(\.0*)?$/.test(text);
}
