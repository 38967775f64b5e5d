import type { Profile } from '../model.js';
import type { XmlElement } from './xml-tree.js';

// What a document says it is: the syntax from its root element and namespace, the profile from
// its specification identifier (BT-24: UBL CustomizationID, CII GuidelineSpecifiedDocument-
// ContextParameter), and so which rule sets it claims to meet.

export type Syntax = 'ubl' | 'cii';
export type DocumentKind = 'invoice' | 'credit-note';

/** The profile a specification identifier names; 'unknown' for one we do not know. */
export type ReceivedProfile =
  | 'en16931'
  | 'peppol'
  | 'xrechnung'
  | 'factur-x-minimum'
  | 'factur-x-basic-wl'
  | 'factur-x-basic'
  | 'factur-x-extended'
  | 'unknown';

export type Detected =
  | { ok: true; syntax: Syntax; kind: DocumentKind }
  | { ok: false; code: 'NOT_AN_INVOICE' | 'UNSUPPORTED_SYNTAX' | 'NOT_AN_EINVOICE'; message: string };

const UBL_PREFIX = 'urn:oasis:names:specification:ubl:schema:xsd:';
const CII_NS = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';

export function detectSyntax(root: XmlElement): Detected {
  const { local, ns } = root;
  if (ns === `${UBL_PREFIX}Invoice-2` && local === 'Invoice') return { ok: true, syntax: 'ubl', kind: 'invoice' };
  if (ns === `${UBL_PREFIX}CreditNote-2` && local === 'CreditNote')
    return { ok: true, syntax: 'ubl', kind: 'credit-note' };
  if (ns === CII_NS && local === 'CrossIndustryInvoice') return { ok: true, syntax: 'cii', kind: 'invoice' };
  if (ns.startsWith(UBL_PREFIX))
    return { ok: false, code: 'NOT_AN_INVOICE', message: `This is a UBL ${local}, not an invoice or credit note.` };
  if (local === 'CrossIndustryDocument' || ns.startsWith('urn:ferd:')) {
    return {
      ok: false,
      code: 'UNSUPPORTED_SYNTAX',
      message: 'This is a ZUGFeRD 1.0 invoice (CrossIndustryDocument); only ZUGFeRD 2 / Factur-X (CII D16B) is read.',
    };
  }
  if (local === 'CrossIndustryInvoice')
    return {
      ok: false,
      code: 'UNSUPPORTED_SYNTAX',
      message: `This is a Cross Industry Invoice in the namespace ${ns || '(none)'}; only CII D16B (${CII_NS}) is read.`,
    };
  if (/^urn:un:unece:uncefact:data:standard:CrossIndustry/.test(ns))
    return { ok: false, code: 'NOT_AN_INVOICE', message: `This is a UN/CEFACT ${local}, not an invoice.` };
  return {
    ok: false,
    code: 'NOT_AN_EINVOICE',
    message: `The XML's root element is <${local}>${ns ? ` in ${ns}` : ''}, neither a UBL 2.1 Invoice or CreditNote nor a CII CrossIndustryInvoice.`,
  };
}

/** The profile named by BT-24. */
export function profileOf(specificationId: string | null | undefined): ReceivedProfile {
  const id = (specificationId ?? '').trim();
  if (/urn:xeinkauf\.de:kosit:xrechnung/.test(id)) return 'xrechnung';
  if (/urn:fdc:peppol\.eu:2017:poacc:billing:3\.0/.test(id)) return 'peppol';
  if (/^urn:factur-x\.eu:1p0:minimum$|^urn:zugferd\.de:2p0:minimum$/.test(id)) return 'factur-x-minimum';
  if (/^urn:factur-x\.eu:1p0:basicwl$|^urn:zugferd\.de:2p0:basicwl$/.test(id)) return 'factur-x-basic-wl';
  if (/#compliant#urn:(factur-x\.eu:1p0|zugferd\.de:2p0):basic$/.test(id)) return 'factur-x-basic';
  if (/#conformant#urn:(factur-x\.eu:1p0|zugferd\.de:2p0):extended$/.test(id)) return 'factur-x-extended';
  if (id.startsWith('urn:cen.eu:en16931:2017')) return 'en16931';
  return 'unknown';
}

/**
 * The rule sets a document is judged by, from BT-24: EN 16931 always (it is the floor of every
 * e-invoice, and the one an unknown identifier gets), plus Peppol or XRechnung when named. Factur-X
 * MINIMUM and BASIC WL do not claim EN 16931 (they have no lines) and are judged by it all the same:
 * they are not e-invoices in its sense, and the verdict says so.
 */
export function claimedSpecs(profile: ReceivedProfile): Profile[] {
  if (profile === 'peppol') return ['en16931', 'peppol'];
  if (profile === 'xrechnung') return ['en16931', 'xrechnung'];
  return ['en16931'];
}
