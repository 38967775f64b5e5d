import { create } from 'xmlbuilder2';

// Every leaf of an XML document as path → values ("/Invoice/cac:…" by local names, attributes as
// "/…/EndpointID/@schemeID"), to compare our documents with the official examples field by field.

interface Node {
  nodeType: number;
  localName: string;
  textContent: string | null;
  childNodes: ArrayLike<Node>;
  attributes: ArrayLike<{ localName: string; value: string; namespaceURI: string | null }>;
}

export function leafValues(xml: string): Map<string, string[]> {
  const values = new Map<string, string[]>();
  const add = (path: string, value: string) => values.set(path, [...(values.get(path) ?? []), value.trim()]);
  const walk = (node: Node, path: string) => {
    const here = `${path}/${node.localName}`;
    for (const attribute of Array.from(node.attributes)) {
      if (attribute.namespaceURI === null) add(`${here}/@${attribute.localName}`, attribute.value);
    }
    const elements = Array.from(node.childNodes).filter((n) => n.nodeType === 1);
    if (elements.length === 0) add(here, node.textContent ?? '');
    for (const child of elements) walk(child, here);
  };
  walk(create(xml).root().node as unknown as Node, '');
  return values;
}

/** Paths without the root and line element names that differ between invoices and credit notes. */
export function neutralPath(path: string): string {
  return path
    .replace(/^\/(Invoice|CreditNote)\//, '/Document/')
    .replace(/\/(InvoiceLine|CreditNoteLine)\//, '/Line/')
    .replace(/\/(InvoicedQuantity|CreditedQuantity)/, '/Quantity');
}
