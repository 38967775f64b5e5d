import type { VatCategory } from '../money/invoice-calculation.js';
import type { PaymentMeansCode } from './model.js';

// The code lists EN 16931 documents draw from, as data: UNCL5305, UNCL4461, UNCL5189 and
// UNCL7161 here, identifier schemes in schemes.ts, units in unit-codes.ts. Hand-written from the
// public code lists; each table holds the codes this service writes or accepts, with English
// names for people and the PDF.

/** What a VAT category (UNCL5305) asks of a document, from the EN 16931 rules BR-S/Z/E/AE/IC/G/O. */
export interface VatCategoryRules {
  name: string;
  /** 'positive': S (BR-S-05); 'zero': Z, E, AE, K, G; 'none': O writes no rate (BR-O-05). */
  rate: 'positive' | 'zero' | 'none';
  /** An exemption reason (BT-120) or code (BT-121) in the breakdown: required, or forbidden (BR-S-10, BR-Z-10). */
  exemption: 'required' | 'forbidden';
  /** The VATEX code and text written when the category needs a reason and none was given. */
  defaultExemption: { code: string; text: string } | null;
  /** Which seller identifier the category needs (rule id of the line rule; -03/-04 cover allowances and charges). */
  seller: { needs: 'vatId' | 'vatIdOrTaxRegistration' | 'noVatId'; rule: string };
  /** Which buyer identifier the category needs. */
  buyer: { needs: 'vatId' | 'vatIdOrLegalRegistration' | 'noVatId' | null; rule: string | null };
}

export const UNCL5305: Record<VatCategory, VatCategoryRules> = {
  S: {
    name: 'Standard rate',
    rate: 'positive',
    exemption: 'forbidden',
    defaultExemption: null,
    seller: { needs: 'vatIdOrTaxRegistration', rule: 'BR-S-02' },
    buyer: { needs: null, rule: null },
  },
  Z: {
    name: 'Zero rated goods',
    rate: 'zero',
    exemption: 'forbidden',
    defaultExemption: null,
    seller: { needs: 'vatIdOrTaxRegistration', rule: 'BR-Z-02' },
    buyer: { needs: null, rule: null },
  },
  E: {
    name: 'Exempt from tax',
    rate: 'zero',
    exemption: 'required',
    defaultExemption: null,
    seller: { needs: 'vatIdOrTaxRegistration', rule: 'BR-E-02' },
    buyer: { needs: null, rule: null },
  },
  AE: {
    name: 'VAT reverse charge',
    rate: 'zero',
    exemption: 'required',
    defaultExemption: { code: 'VATEX-EU-AE', text: 'Reverse charge' },
    seller: { needs: 'vatIdOrTaxRegistration', rule: 'BR-AE-02' },
    buyer: { needs: 'vatIdOrLegalRegistration', rule: 'BR-AE-02' },
  },
  K: {
    name: 'VAT exempt for EEA intra-community supply of goods and services',
    rate: 'zero',
    exemption: 'required',
    defaultExemption: { code: 'VATEX-EU-IC', text: 'Intra-Community supply' },
    seller: { needs: 'vatId', rule: 'BR-IC-02' },
    buyer: { needs: 'vatId', rule: 'BR-IC-02' },
  },
  G: {
    name: 'Free export item, VAT not charged',
    rate: 'zero',
    exemption: 'required',
    defaultExemption: { code: 'VATEX-EU-G', text: 'Export outside the EU' },
    seller: { needs: 'vatId', rule: 'BR-G-02' },
    buyer: { needs: null, rule: null },
  },
  O: {
    name: 'Services outside scope of tax',
    rate: 'none',
    exemption: 'required',
    defaultExemption: { code: 'VATEX-EU-O', text: 'Not subject to VAT' },
    seller: { needs: 'noVatId', rule: 'BR-O-02' },
    buyer: { needs: 'noVatId', rule: 'BR-O-02' },
  },
};

/** The rule family of each category, for the allowance (-03) and charge (-04) variants. */
export const VAT_RULE_PREFIX: Record<VatCategory, string> = {
  S: 'BR-S',
  Z: 'BR-Z',
  E: 'BR-E',
  AE: 'BR-AE',
  K: 'BR-IC',
  G: 'BR-G',
  O: 'BR-O',
};

export interface PaymentMeansEntry {
  name: string;
  /** The group of BG-16 it needs: BG-17 credit transfer, BG-18 card, BG-19 direct debit, or none. */
  needs: 'creditTransfer' | 'card' | 'directDebit' | null;
}

/** UNCL4461 payment means this service writes (BT-81). */
export const UNCL4461: Record<PaymentMeansCode, PaymentMeansEntry> = {
  '10': { name: 'In cash', needs: null },
  '30': { name: 'Credit transfer', needs: 'creditTransfer' },
  '48': { name: 'Bank card', needs: 'card' },
  '49': { name: 'Direct debit', needs: 'directDebit' },
  '58': { name: 'SEPA credit transfer', needs: 'creditTransfer' },
  '59': { name: 'SEPA direct debit', needs: 'directDebit' },
};

/** UNCL5189: allowance reason codes (BT-98, BT-140), the whole subset EN 16931 allows. */
export const UNCL5189: Record<string, string> = {
  '41': 'Bonus for works ahead of schedule',
  '42': 'Other bonus',
  '60': "Manufacturer's consumer discount",
  '62': 'Due to military status',
  '63': 'Due to work accident',
  '64': 'Special agreement',
  '65': 'Production error discount',
  '66': 'New outlet discount',
  '67': 'Sample discount',
  '68': 'End-of-range discount',
  '70': 'Incoterm discount',
  '71': 'Point of sales threshold allowance',
  '88': 'Material surcharge/deduction',
  '95': 'Discount',
  '100': 'Special rebate',
  '102': 'Fixed long term',
  '103': 'Temporary',
  '104': 'Standard',
  '105': 'Yearly turnover',
};

/** UNCL7161: charge reason codes (BT-105), the common ones. */
export const UNCL7161: Record<string, string> = {
  AA: 'Advertising',
  AAA: 'Telecommunication',
  AAC: 'Technical modification',
  AAD: 'Job-order production',
  AAE: 'Outlays',
  AAF: 'Off-premises',
  AAH: 'Additional processing',
  AAI: 'Attesting',
  AAS: 'Acceptance',
  AAT: 'Rush delivery',
  AAV: 'Special construction',
  AAY: 'Airport facilities',
  AAZ: 'Concession',
  ABA: 'Compulsory storage',
  ABB: 'Fuel removal',
  ABC: 'Into plane',
  ABD: 'Overtime',
  ABF: 'Tooling',
  ABK: 'Miscellaneous',
  ABL: 'Additional packaging',
  ABN: 'Dunnage',
  ABR: 'Containerisation',
  ABS: 'Carton packing',
  ABT: 'Hessian wrapped',
  ABU: 'Polyethylene wrap packing',
  ACF: 'Miscellaneous treatment',
  ACG: 'Enamelling treatment',
  ACH: 'Heat treatment',
  ACI: 'Plating treatment',
  ACJ: 'Painting',
  ACK: 'Polishing',
  ACL: 'Priming',
  ACM: 'Preservation treatment',
  ACS: 'Fitting',
  ADC: 'Consolidation',
  ADE: 'Bill of lading',
  ADJ: 'Airbag',
  ADK: 'Transfer',
  ADL: 'Slipsheet',
  ADM: 'Binding',
  ADN: 'Repair or replacement of broken returnable package',
  ADO: 'Efficient logistics',
  ADP: 'Merchandising',
  ADQ: 'Product mix',
  ADR: 'Other services',
  ADT: 'Pick-up',
  ADW: 'Chronic illness',
  ADY: 'New product introduction',
  ADZ: 'Direct delivery',
  FC: 'Freight service',
  FI: 'Financing',
  LA: 'Labelling',
  PC: 'Packing',
  SH: 'Special handling',
};
