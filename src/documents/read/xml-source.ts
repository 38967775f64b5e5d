import { pathOf, type XmlElement } from './xml-tree.js';

// A parsed document as a reader walks it: children by prefixed name (the prefix stands for the
// namespace the syntax defines, whatever prefix the sender wrote), text trimmed, and a record of
// every element and attribute read, so that whatever no reader took is listed, not lost.

export interface Unmapped {
  /** Where it is: /Invoice[1]/cac:Delivery[1]/cbc:LatestDeliveryDate[1], or …/@listID */
  path: string;
  value: string;
}

export class XmlSource {
  private readonly read = new Set<XmlElement>();
  private readonly readAttributes = new Map<XmlElement, Set<string>>();

  constructor(
    readonly root: XmlElement,
    private readonly namespaces: Record<string, string>,
  ) {}

  private matches(element: XmlElement, name: string): boolean {
    const colon = name.indexOf(':');
    const local = colon < 0 ? name : name.slice(colon + 1);
    const ns = colon < 0 ? '' : this.namespaces[name.slice(0, colon)];
    return element.local === local && element.ns === ns;
  }

  /** The children of `element` with this name ("cac:Party"). */
  all(element: XmlElement | null | undefined, name: string): XmlElement[] {
    return element ? element.children.filter((c) => this.matches(c, name)) : [];
  }

  /** The first child at the end of a path of names ("cac:Party/cac:PartyName/cbc:Name"). */
  at(element: XmlElement | null | undefined, path: string): XmlElement | null {
    let node: XmlElement | null | undefined = element;
    for (const step of path.split('/')) {
      node = node ? node.children.find((c) => this.matches(c, step)) : null;
      if (!node) return null;
    }
    return node ?? null;
  }

  /** Every element at the end of a path of names. */
  allAt(element: XmlElement | null | undefined, path: string): XmlElement[] {
    let nodes: XmlElement[] = element ? [element] : [];
    for (const step of path.split('/')) nodes = nodes.flatMap((n) => this.all(n, step));
    return nodes;
  }

  /** Marks an element (and the groups it sits in) as read. */
  take(element: XmlElement | null | undefined): XmlElement | null {
    if (!element) return null;
    this.read.add(element);
    return element;
  }

  /** The trimmed text at the path: '' for an empty element, null for none. Marks it read. */
  text(element: XmlElement | null | undefined, path?: string): string | null {
    const node = path ? this.at(element, path) : element;
    if (!node) return null;
    this.read.add(node);
    // An amount's currency is read with it (the rules check it against the document's).
    if (node.attributes.currencyID !== undefined) this.attribute(node, 'currencyID');
    return node.text.trim();
  }

  /** An attribute's trimmed value, or null. Marks it read. */
  attribute(element: XmlElement | null | undefined, name: string): string | null {
    if (!element) return null;
    const value = element.attributes[name];
    if (value === undefined) return null;
    let names = this.readAttributes.get(element);
    if (!names) this.readAttributes.set(element, (names = new Set()));
    names.add(name);
    return value.trim();
  }

  /** Every leaf element and attribute no reader took, with its path and value. */
  unmapped(): Unmapped[] {
    const out: Unmapped[] = [];
    const walk = (element: XmlElement) => {
      const taken = this.readAttributes.get(element);
      for (const [name, value] of Object.entries(element.attributes)) {
        if (!taken?.has(name)) out.push({ path: `${pathOf(element)}/@${name}`, value });
      }
      if (element.children.length === 0) {
        // An empty element without attributes holds nothing to keep.
        const empty = element.text.trim() === '' && Object.keys(element.attributes).length === 0;
        if (!this.read.has(element) && !empty) out.push({ path: pathOf(element), value: element.text.trim() });
        return;
      }
      for (const child of element.children) walk(child);
    };
    walk(this.root);
    return out;
  }
}
