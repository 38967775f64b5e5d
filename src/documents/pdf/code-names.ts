import type { PdfLanguage } from './labels.js';

// The names of codes as the PDF shows them in each language: units (UN/ECE Rec 20), the
// reasons of allowances (UNCL5189) and charges (UNCL7161), and the default VAT exemption texts. A code without a name here shows its
// English name from the code lists.

/** Short unit names for the common UN/ECE Rec 20 codes; other codes show their English name. */
export const UNIT_NAMES: Record<PdfLanguage, Record<string, string>> = {
  en: {
    C62: 'pc',
    H87: 'pc',
    EA: 'each',
    HUR: 'h',
    DAY: 'days',
    MIN: 'min',
    WEE: 'weeks',
    MON: 'months',
    ANN: 'years',
    KGM: 'kg',
    GRM: 'g',
    MTR: 'm',
    MTK: 'm²',
    MTQ: 'm³',
    LTR: 'l',
    KWH: 'kWh',
    SET: 'sets',
    LS: 'lump sum',
  },
  de: {
    C62: 'Stk.',
    H87: 'Stk.',
    EA: 'Stk.',
    HUR: 'Std.',
    DAY: 'Tage',
    MIN: 'Min.',
    WEE: 'Wochen',
    MON: 'Monate',
    ANN: 'Jahre',
    KGM: 'kg',
    GRM: 'g',
    MTR: 'm',
    MTK: 'm²',
    MTQ: 'm³',
    LTR: 'l',
    KWH: 'kWh',
    SET: 'Sätze',
    LS: 'pauschal',
  },
  fr: {
    C62: 'pce',
    H87: 'pce',
    EA: 'pce',
    HUR: 'h',
    DAY: 'jours',
    MIN: 'min',
    WEE: 'semaines',
    MON: 'mois',
    ANN: 'ans',
    KGM: 'kg',
    GRM: 'g',
    MTR: 'm',
    MTK: 'm²',
    MTQ: 'm³',
    LTR: 'l',
    KWH: 'kWh',
    SET: 'lots',
    LS: 'forfait',
  },
};

/** UNCL5189 allowance reasons in German and French (English: code-lists.ts). */
export const ALLOWANCE_REASONS: Record<Exclude<PdfLanguage, 'en'>, Record<string, string>> = {
  de: {
    '41': 'Bonus für vorzeitige Fertigstellung',
    '42': 'Sonstiger Bonus',
    '60': 'Herstellerrabatt',
    '62': 'Militärrabatt',
    '63': 'Arbeitsunfallrabatt',
    '64': 'Sondervereinbarung',
    '65': 'Rabatt wegen Produktionsfehler',
    '66': 'Neueröffnungsrabatt',
    '67': 'Musterrabatt',
    '68': 'Auslaufrabatt',
    '70': 'Incoterm-Rabatt',
    '71': 'Umsatzschwellenrabatt',
    '88': 'Materialzu- und -abschlag',
    '95': 'Rabatt',
    '100': 'Sonderrabatt',
    '102': 'Langfristiger Rabatt',
    '103': 'Befristeter Rabatt',
    '104': 'Standardrabatt',
    '105': 'Jahresumsatzrabatt',
  },
  fr: {
    '41': 'Prime pour travaux en avance',
    '42': 'Autre prime',
    '60': 'Remise fabricant au consommateur',
    '62': 'Remise militaire',
    '63': 'Remise pour accident du travail',
    '64': 'Accord particulier',
    '65': 'Remise pour défaut de production',
    '66': 'Remise nouveau point de vente',
    '67': 'Remise sur échantillon',
    '68': 'Remise de fin de série',
    '70': 'Remise Incoterm',
    '71': 'Remise de seuil de vente',
    '88': 'Supplément ou déduction matière',
    '95': 'Remise',
    '100': 'Rabais spécial',
    '102': 'Remise à long terme',
    '103': 'Remise temporaire',
    '104': 'Remise standard',
    '105': 'Remise sur chiffre d’affaires annuel',
  },
};

/** The common UNCL7161 charge reasons in German and French. */
export const CHARGE_REASONS: Record<Exclude<PdfLanguage, 'en'>, Record<string, string>> = {
  de: {
    AAT: 'Eilzustellung',
    ABK: 'Sonstiges',
    ABL: 'Zusätzliche Verpackung',
    ADR: 'Sonstige Leistungen',
    FC: 'Frachtkosten',
    FI: 'Finanzierung',
    LA: 'Etikettierung',
    PC: 'Verpackung',
    SH: 'Sonderbehandlung',
  },
  fr: {
    AAT: 'Livraison express',
    ABK: 'Divers',
    ABL: 'Emballage supplémentaire',
    ADR: 'Autres services',
    FC: 'Frais de transport',
    FI: 'Financement',
    LA: 'Étiquetage',
    PC: 'Emballage',
    SH: 'Manutention spéciale',
  },
};

/**
 * The VAT exemption texts written when a line gives none (code-lists.ts, by VATEX code), in
 * German and French: the words each country's law asks an invoice to carry where it has them
 * (§ 14a UStG: "Steuerschuldnerschaft des Leistungsempfängers"; art. 242 nonies A CGI:
 * "Autoliquidation"). The XML keeps the text the document carries.
 */
export const EXEMPTION_TEXTS: Record<Exclude<PdfLanguage, 'en'>, Record<string, string>> = {
  de: {
    'VATEX-EU-AE': 'Steuerschuldnerschaft des Leistungsempfängers',
    'VATEX-EU-IC': 'Steuerfreie innergemeinschaftliche Lieferung',
    'VATEX-EU-G': 'Steuerfreie Ausfuhrlieferung in ein Land außerhalb der EU',
    'VATEX-EU-O': 'Nicht steuerbar',
  },
  fr: {
    'VATEX-EU-AE': 'Autoliquidation',
    'VATEX-EU-IC': 'Livraison intracommunautaire exonérée de TVA',
    'VATEX-EU-G': 'Exportation hors de l’Union européenne exonérée de TVA',
    'VATEX-EU-O': 'Hors du champ d’application de la TVA',
  },
};
