import { isKnownCurrency, minorUnitDigits } from '../../money/currency.js';
import type { Einvoice } from '../einvoice-model.js';
import type { Unmapped } from './xml-source.js';
import { pathOf, type XmlElement } from './xml-tree.js';

// What a syntax reader hands back, and the small helpers both readers share.

export interface SyntaxReading {
  model: Einvoice;
  unmapped: Unmapped[];
  locations: Locations;
}

/** The minor-unit digits of a currency as ISO 4217 has them; 2 for a code it does not know. */
export function digitsOf(code: string | null): number {
  return code && isKnownCurrency(code) ? minorUnitDigits(code) : 2;
}

/** A UBL note may start with its subject code (BT-21) between hashes: "#AAI#text". */
export function splitNote(text: string): { subjectCode: string | null; text: string } {
  const match = /^#([A-Z]{3})#([\s\S]*)$/.exec(text);
  return match ? { subjectCode: match[1]!, text: match[2]! } : { subjectCode: null, text };
}

/**
 * Where the groups of the model came from in the source (lines[2] ↔ /Invoice[1]/cac:InvoiceLine[3]),
 * so that a finding on a field names the element to look at: the field's own group, or the
 * nearest group above it, or the root.
 */
export class Locations {
  private readonly paths = new Map<string, string>();

  constructor(private readonly root: XmlElement) {}

  addAll(field: string, element: XmlElement | null): void {
    if (element) this.paths.set(field, pathOf(element));
  }

  addList(field: string, elements: XmlElement[]): void {
    elements.forEach((element, i) => this.paths.set(`${field}[${i}]`, pathOf(element)));
  }

  /** The XPath of the element a model field (seller.address.countryCode, lines[1].vatRate) sits in. */
  locate(field: string): string {
    for (let f = field; f; f = f.replace(/(\.[^.[\]]*|\[\d+\])$/, '')) {
      const found = this.paths.get(f);
      if (found) return found;
      if (!/(\.[^.[\]]*|\[\d+\])$/.test(f)) break;
    }
    return pathOf(this.root);
  }
}
