import { TextDecoder } from 'node:util';
import { DEFAULT_XML_LIMITS, type XmlLimits } from './read-limits.js';
import { SaxesParser, type SaxesTagNS } from 'saxes';

// Untrusted XML bytes into a small element tree, safely: saxes never reads a DTD, never fetches
// anything and knows only the five predefined entities, so an external entity or an entity bomb
// cannot expand. A DOCTYPE is refused outright (an e-invoice has none), and size, depth, element
// count and text length are bounded, so the time and memory a document costs are bounded too.

export interface XmlElement {
  /** The qualified name as written ("cbc:ID"). */
  name: string;
  local: string;
  /** The namespace URI ('' for none). */
  ns: string;
  /** Attributes without a namespace, by local name. */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its text children joined), untrimmed. */
  text: string;
  parent: XmlElement | null;
  /** 1-based position among the parent's children of the same name: the [n] of its path. */
  position: number;
}

export type XmlRefusalCode = 'XML_DOCTYPE' | 'XML_MALFORMED' | 'XML_TOO_LARGE' | 'XML_TOO_DEEP' | 'XML_ENCODING';
export type XmlParse = { ok: true; root: XmlElement } | { ok: false; code: XmlRefusalCode; message: string };

class Refusal extends Error {
  constructor(
    readonly code: XmlRefusalCode,
    message: string,
  ) {
    super(message);
  }
}

/** The encoding the bytes declare: a byte-order mark, else the XML declaration, else UTF-8. */
function decode(bytes: Uint8Array): string {
  let label = 'utf-8';
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [label, start] = ['utf-16le', 2];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [label, start] = ['utf-16be', 2];
  else {
    const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
    const declared = /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
    if (declared) label = declared.toLowerCase();
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw new Refusal('XML_ENCODING', `The XML declares the encoding ${label}, which is not supported.`);
  }
  try {
    return decoder.decode(bytes.subarray(start));
  } catch {
    throw new Refusal('XML_ENCODING', `The XML is not valid ${label} text.`);
  }
}

/** Parses XML bytes (or text) into an element tree, or says why not. Never throws. */
export function parseXml(input: Uint8Array | string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlParse {
  try {
    const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
    if (size > limits.maxBytes)
      throw new Refusal('XML_TOO_LARGE', `The XML has ${size} bytes; at most ${limits.maxBytes} are read.`);
    const text = typeof input === 'string' ? input : decode(input);
    return { ok: true, root: buildTree(text, limits) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: 'XML_MALFORMED', message: `The XML is not well-formed: ${(error as Error).message}` };
  }
}

function buildTree(text: string, limits: XmlLimits): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  const siblingCounts: Map<string, number>[] = [new Map()];
  let root: XmlElement | null = null;
  let elements = 0;

  parser.on('error', (error) => {
    throw new Refusal('XML_MALFORMED', `The XML is not well-formed: ${error.message}`);
  });
  parser.on('doctype', () => {
    throw new Refusal(
      'XML_DOCTYPE',
      'The XML has a document type declaration (DOCTYPE); e-invoices have none, and it is not read.',
    );
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    elements += 1;
    if (elements > limits.maxElements)
      throw new Refusal('XML_TOO_LARGE', `The XML has more than ${limits.maxElements} elements.`);
    if (stack.length >= limits.maxDepth)
      throw new Refusal('XML_TOO_DEEP', `The XML nests elements more than ${limits.maxDepth} deep.`);
    const parent = stack.at(-1) ?? null;
    const counts = siblingCounts.at(-1)!;
    const key = `${tag.uri ?? ''}|${tag.local ?? tag.name}`;
    const position = (counts.get(key) ?? 0) + 1;
    counts.set(key, position);
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.uri === '' && attribute.prefix === '' && attribute.name !== 'xmlns')
        attributes[attribute.local] = attribute.value;
    }
    const element: XmlElement = {
      name: tag.name,
      local: tag.local ?? tag.name,
      ns: tag.uri ?? '',
      attributes,
      children: [],
      text: '',
      parent,
      position,
    };
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
    siblingCounts.push(new Map());
  });
  const onText = (chunk: string) => {
    const element = stack.at(-1);
    if (!element) return;
    if (element.text.length + chunk.length > limits.maxTextLength)
      throw new Refusal('XML_TOO_LARGE', `An element holds more than ${limits.maxTextLength} characters of text.`);
    element.text += chunk;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    stack.pop();
    siblingCounts.pop();
  });
  parser.write(text).close();
  if (!root) throw new Refusal('XML_MALFORMED', 'The XML has no root element.');
  return root;
}

/** The element's location as an XPath with prefixes as written: /Invoice[1]/cac:AccountingSupplierParty[1]/… */
export function pathOf(element: XmlElement): string {
  const steps: string[] = [];
  for (let e: XmlElement | null = element; e; e = e.parent) steps.push(`${e.name}[${e.position}]`);
  return `/${steps.reverse().join('/')}`;
}
