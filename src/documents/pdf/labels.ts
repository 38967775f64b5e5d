// The words of the PDF in each language it speaks. Numbers, amounts and dates are formatted by
// Intl for the same language (format.ts), and so are country names; code names are in
// code-names.ts. French puts a no-break space before a colon (and before ; ! ?), as its
// typography wants: `labelled` writes "label: value" the way each language does.

export { UNIT_NAMES } from './code-names.js';

export const PDF_LANGUAGES = ['en', 'de', 'fr'] as const;
export type PdfLanguage = (typeof PDF_LANGUAGES)[number];

/**
 * The language a document speaks to its buyer when none is asked for: German in DE, AT, CH and
 * LI, French in FR and MC, English elsewhere. The messages that send it, its reminders and its
 * hosted page all follow this one rule.
 */
export function languageForCountry(buyerCountry: string | null): PdfLanguage {
  if (buyerCountry && ['DE', 'AT', 'CH', 'LI'].includes(buyerCountry)) return 'de';
  if (buyerCountry && ['FR', 'MC'].includes(buyerCountry)) return 'fr';
  return 'en';
}

export interface Labels {
  invoice: string;
  /** The title of an offer. */
  quote: string;
  /** The last day an offer can be accepted. */
  validUntil: string;
  /** The title of a corrective document, as each language calls it (not "Gutschrift": in German VAT law that is a self-billed invoice). */
  creditNote: string;
  draft: string;
  test: string;
  copy: string;
  draftNotice: string;
  testNotice: string;
  copyNotice: (date: string) => string;
  received: string;
  receivedNotice: (date: string) => string;
  /** A received document's payment section: what the supplier states, not a request of ours. */
  statedPayment: string;
  transferTo: (account: string) => string;
  remittance: string;
  rulesVerdict: (verdict: 'valid' | 'valid with warnings' | 'invalid') => string;
  labelled: (label: string, value: string) => string;
  number: string;
  issueDate: string;
  dueDate: string;
  deliveryDate: string;
  period: string;
  buyerReference: string;
  orderReference: string;
  precedingInvoice: string;
  billTo: string;
  from: string;
  deliverTo: string;
  vatId: string;
  taxNumber: string;
  registration: string;
  position: string;
  description: string;
  quantity: string;
  unitPrice: string;
  discount: string;
  vat: string;
  amount: string;
  pricesGross: string;
  lineTotal: string;
  allowance: string;
  charge: string;
  totalExclVat: string;
  vatOn: (rate: string, base: string) => string;
  totalInclVat: string;
  rounding: string;
  amountDue: string;
  creditTotal: string;
  exemption: string;
  paymentTerms: string;
  payment: string;
  transfer: (amount: string, account: string, reference: string, due: string | null) => string;
  bic: string;
  accountHolder: string;
  directDebit: (amount: string, account: string | null, mandate: string | null) => string;
  card: (digits: string) => string;
  cash: string;
  scanToPay: string;
  page: (n: number, of: number) => string;
  contact: string;
  reason: string;
  voids: (invoice: string) => string;
  offset: (amount: string, invoice: string) => string;
  refund: (amount: string) => string;
  status: (date: string) => string;
  paidOn: (amount: string, date: string) => string;
  creditedBy: (amount: string, creditNote: string, date: string) => string;
  refundedOn: (amount: string, date: string) => string;
  voided: string;
  paidInFull: (date: string) => string;
  balanceDue: string;
  owedToBuyer: string;
  nothingDue: string;
  invoiceBalance: (invoice: string) => string;
  /** BT-17 on an invoice made from a quote: the quote's number. */
  quoteReference: string;
}

/** What a quote's page calls otherwise than an invoice's: its facts, its parties and its total. */
export type QuoteLabels = Pick<Labels, 'number' | 'issueDate' | 'orderReference' | 'billTo' | 'from' | 'amountDue'>;

const colon = (label: string, value: string) => (label ? `${label}: ${value}` : value);

export const LABELS: Record<PdfLanguage, Labels> = {
  en: {
    invoice: 'Invoice',
    quote: 'Quote',
    validUntil: 'Valid until',
    creditNote: 'Credit note',
    draft: 'DRAFT',
    test: 'TEST',
    copy: 'COPY',
    draftNotice: 'Draft — not an issued document',
    testNotice: 'Test document — not valid for tax purposes',
    copyNotice: (date) => `Copy with the status on ${date} — not the issued document`,
    received: 'RECEIVED',
    receivedNotice: (date) => `Rendering of an e-invoice received on ${date} — the e-invoice is the original`,
    statedPayment: 'Payment details stated by the supplier',
    transferTo: (account) => `Credit transfer to ${account}`,
    remittance: 'Reference',
    rulesVerdict: (verdict) => `Checked by the EN 16931 rules: ${verdict}.`,
    labelled: colon,
    number: 'Number',
    issueDate: 'Date',
    dueDate: 'Due date',
    deliveryDate: 'Delivery date',
    period: 'Period',
    buyerReference: 'Your reference',
    orderReference: 'Your order',
    precedingInvoice: 'Corrects invoice',
    billTo: 'Bill to',
    from: 'From',
    deliverTo: 'Deliver to',
    vatId: 'VAT ID',
    taxNumber: 'Tax number',
    registration: 'Registration',
    position: '#',
    description: 'Description',
    quantity: 'Quantity',
    unitPrice: 'Unit price',
    discount: 'Discount',
    vat: 'VAT',
    amount: 'Amount',
    pricesGross: 'Prices include VAT.',
    lineTotal: 'Total of lines',
    allowance: 'Allowance',
    charge: 'Charge',
    totalExclVat: 'Total excluding VAT',
    vatOn: (rate, base) => `VAT ${rate} on ${base}`,
    totalInclVat: 'Total including VAT',
    rounding: 'Rounding',
    amountDue: 'Amount due',
    creditTotal: 'Total credited',
    exemption: 'VAT exemption',
    paymentTerms: 'Payment terms',
    payment: 'Payment',
    transfer: (amount, account, reference, due) =>
      `Please transfer ${amount} to ${account}, quoting ${reference}${due ? `, by ${due}` : ''}.`,
    bic: 'BIC',
    accountHolder: 'Account holder',
    directDebit: (amount, account, mandate) =>
      `${amount} will be debited${account ? ` from ${account}` : ''}${mandate ? ` under mandate ${mandate}` : ''}.`,
    card: (digits) => `Paid by card ending ${digits}.`,
    cash: 'Payable in cash.',
    scanToPay: 'Scan to pay',
    page: (n, of) => `Page ${n} of ${of}`,
    contact: 'Contact',
    reason: 'Reason',
    voids: (invoice) => `Invoice ${invoice} is cancelled in full.`,
    offset: (amount, invoice) => `${amount} is set off against the open balance of invoice ${invoice}.`,
    refund: (amount) => `${amount} will be refunded to you.`,
    status: (date) => `Status on ${date}`,
    paidOn: (amount, date) => `${amount} paid on ${date}`,
    creditedBy: (amount, creditNote, date) => `${amount} credited by credit note ${creditNote} of ${date}`,
    refundedOn: (amount, date) => `${amount} refunded to you on ${date}`,
    voided: 'This invoice is void: it was cancelled.',
    paidInFull: (date) => `Paid in full on ${date}.`,
    balanceDue: 'Balance due',
    owedToBuyer: 'Owed to you',
    nothingDue: 'Nothing is due.',
    invoiceBalance: (invoice) => `Balance of invoice ${invoice}`,
    quoteReference: 'Our quote',
  },
  de: {
    invoice: 'Rechnung',
    quote: 'Angebot',
    validUntil: 'Gültig bis',
    creditNote: 'Rechnungskorrektur',
    draft: 'ENTWURF',
    test: 'TEST',
    copy: 'KOPIE',
    draftNotice: 'Entwurf — kein ausgestelltes Dokument',
    testNotice: 'Testdokument — steuerlich ohne Gültigkeit',
    copyNotice: (date) => `Kopie mit dem Stand vom ${date} — nicht das ausgestellte Dokument`,
    received: 'EMPFANGEN',
    receivedNotice: (date) => `Darstellung einer am ${date} empfangenen E-Rechnung — das Original ist die E-Rechnung`,
    statedPayment: 'Zahlungsangaben des Lieferanten',
    transferTo: (account) => `Überweisung auf ${account}`,
    remittance: 'Verwendungszweck',
    rulesVerdict: (verdict) =>
      `Geprüft nach den Regeln der EN 16931: ${{ valid: 'gültig', 'valid with warnings': 'gültig mit Hinweisen', invalid: 'ungültig' }[verdict]}.`,
    labelled: colon,
    number: 'Nummer',
    issueDate: 'Datum',
    dueDate: 'Fällig am',
    deliveryDate: 'Lieferdatum',
    period: 'Leistungszeitraum',
    buyerReference: 'Ihre Referenz',
    orderReference: 'Ihre Bestellung',
    precedingInvoice: 'Korrektur der Rechnung',
    billTo: 'Rechnungsempfänger',
    from: 'Rechnungssteller',
    deliverTo: 'Lieferanschrift',
    vatId: 'USt-IdNr.',
    taxNumber: 'Steuernummer',
    registration: 'Register',
    position: 'Pos.',
    description: 'Beschreibung',
    quantity: 'Menge',
    unitPrice: 'Einzelpreis',
    discount: 'Rabatt',
    vat: 'USt.',
    amount: 'Betrag',
    pricesGross: 'Preise inklusive Umsatzsteuer.',
    lineTotal: 'Summe der Positionen',
    allowance: 'Nachlass',
    charge: 'Zuschlag',
    totalExclVat: 'Gesamt netto',
    vatOn: (rate, base) => `USt. ${rate} auf ${base}`,
    totalInclVat: 'Gesamt brutto',
    rounding: 'Rundung',
    amountDue: 'Zahlbetrag',
    creditTotal: 'Korrekturbetrag',
    exemption: 'Steuerbefreiung',
    paymentTerms: 'Zahlungsbedingungen',
    payment: 'Zahlung',
    transfer: (amount, account, reference, due) =>
      `Bitte überweisen Sie ${amount} auf ${account} mit dem Verwendungszweck ${reference}${due ? ` bis zum ${due}` : ''}.`,
    bic: 'BIC',
    accountHolder: 'Kontoinhaber',
    directDebit: (amount, account, mandate) =>
      `${amount} werden${account ? ` von ${account}` : ''}${mandate ? ` gemäß Mandat ${mandate}` : ''} eingezogen.`,
    card: (digits) => `Bezahlt mit Karte, endend auf ${digits}.`,
    cash: 'Zahlbar in bar.',
    scanToPay: 'Mit GiroCode bezahlen',
    page: (n, of) => `Seite ${n} von ${of}`,
    contact: 'Kontakt',
    reason: 'Grund der Korrektur',
    voids: (invoice) => `Die Rechnung ${invoice} wird vollständig storniert.`,
    offset: (amount, invoice) => `${amount} werden mit dem offenen Betrag der Rechnung ${invoice} verrechnet.`,
    refund: (amount) => `${amount} werden Ihnen erstattet.`,
    status: (date) => `Stand am ${date}`,
    paidOn: (amount, date) => `${amount} bezahlt am ${date}`,
    creditedBy: (amount, creditNote, date) =>
      `${amount} gutgeschrieben mit Rechnungskorrektur ${creditNote} vom ${date}`,
    refundedOn: (amount, date) => `${amount} an Sie erstattet am ${date}`,
    voided: 'Diese Rechnung ist storniert.',
    paidInFull: (date) => `Vollständig bezahlt am ${date}.`,
    balanceDue: 'Offener Betrag',
    owedToBuyer: 'Guthaben zu Ihren Gunsten',
    nothingDue: 'Es ist nichts mehr offen.',
    invoiceBalance: (invoice) => `Saldo der Rechnung ${invoice}`,
    quoteReference: 'Unser Angebot',
  },
  fr: {
    invoice: 'Facture',
    quote: 'Devis',
    validUntil: "Valable jusqu'au",
    creditNote: 'Avoir',
    draft: 'BROUILLON',
    test: 'TEST',
    copy: 'COPIE',
    draftNotice: 'Brouillon — document non émis',
    testNotice: 'Document de test — sans valeur fiscale',
    copyNotice: (date) => `Copie avec la situation au ${date} — pas le document émis`,
    received: 'REÇU',
    receivedNotice: (date) =>
      `Rendu d’une facture électronique reçue le ${date} — l’original est la facture électronique`,
    statedPayment: 'Coordonnées de paiement indiquées par le fournisseur',
    transferTo: (account) => `Virement sur ${account}`,
    remittance: 'Référence',
    rulesVerdict: (verdict) =>
      `Contrôlée selon les règles EN 16931\u00a0: ${{ valid: 'valide', 'valid with warnings': 'valide avec avertissements', invalid: 'non valide' }[verdict]}.`,
    labelled: (label, value) => (label ? `${label}\u00a0: ${value}` : value),
    number: 'Numéro',
    issueDate: 'Date',
    dueDate: 'Échéance',
    deliveryDate: 'Date de livraison',
    period: 'Période',
    buyerReference: 'Votre référence',
    orderReference: 'Votre commande',
    precedingInvoice: 'Rectifie la facture',
    billTo: 'Facturé à',
    from: 'Émetteur',
    deliverTo: 'Livré à',
    vatId: 'N° TVA',
    taxNumber: 'N° fiscal',
    registration: 'Immatriculation',
    position: 'N°',
    description: 'Désignation',
    quantity: 'Quantité',
    unitPrice: 'Prix unitaire',
    discount: 'Remise',
    vat: 'TVA',
    amount: 'Montant',
    pricesGross: 'Prix TTC.',
    lineTotal: 'Total des lignes',
    allowance: 'Remise',
    charge: 'Frais',
    totalExclVat: 'Total HT',
    vatOn: (rate, base) => `TVA ${rate} sur ${base}`,
    totalInclVat: 'Total TTC',
    rounding: 'Arrondi',
    amountDue: 'Net à payer',
    creditTotal: 'Montant de l’avoir',
    exemption: 'Exonération de TVA',
    paymentTerms: 'Conditions de paiement',
    payment: 'Paiement',
    transfer: (amount, account, reference, due) =>
      `Merci de virer ${amount} sur ${account} avec la référence ${reference}${due ? ` avant le ${due}` : ''}.`,
    bic: 'BIC',
    accountHolder: 'Titulaire',
    directDebit: (amount, account, mandate) =>
      `${amount} seront prélevés${account ? ` sur ${account}` : ''}${mandate ? ` selon le mandat ${mandate}` : ''}.`,
    card: (digits) => `Payé par carte se terminant par ${digits}.`,
    cash: 'Payable en espèces.',
    scanToPay: 'Scanner pour payer',
    page: (n, of) => `Page ${n} sur ${of}`,
    contact: 'Contact',
    reason: 'Motif',
    voids: (invoice) => `La facture ${invoice} est annulée en totalité.`,
    offset: (amount, invoice) => `${amount} sont imputés sur le solde restant dû de la facture ${invoice}.`,
    refund: (amount) => `${amount} vous seront remboursés.`,
    status: (date) => `Situation au ${date}`,
    paidOn: (amount, date) => `${amount} payés le ${date}`,
    creditedBy: (amount, creditNote, date) => `${amount} crédités par l’avoir ${creditNote} du ${date}`,
    refundedOn: (amount, date) => `${amount} vous ont été remboursés le ${date}`,
    voided: 'Cette facture est annulée.',
    paidInFull: (date) => `Payée intégralement le ${date}.`,
    balanceDue: 'Solde dû',
    owedToBuyer: 'Solde en votre faveur',
    nothingDue: 'Plus rien n’est dû.',
    invoiceBalance: (invoice) => `Solde de la facture ${invoice}`,
    quoteReference: 'Notre devis',
  },
};

/**
 * A quote is an offer, not a bill: it names its number and date as a quote's, its parties as the
 * one it is made to and the one who offers, its buyer's reference as a request (an order comes
 * after acceptance), and its total as the sum offered, not an amount due.
 */
export const QUOTE_LABELS: Record<PdfLanguage, QuoteLabels> = {
  en: {
    number: 'Quote number',
    issueDate: 'Quote date',
    orderReference: 'Your request',
    billTo: 'Quote for',
    from: 'Offered by',
    amountDue: 'Total',
  },
  de: {
    number: 'Angebotsnummer',
    issueDate: 'Angebotsdatum',
    orderReference: 'Ihre Anfrage',
    billTo: 'Angebotsempfänger',
    from: 'Anbieter',
    amountDue: 'Angebotssumme',
  },
  fr: {
    number: 'N° de devis',
    issueDate: 'Date du devis',
    orderReference: 'Votre demande',
    billTo: 'Client',
    from: 'Émetteur',
    amountDue: 'Total TTC',
  },
};
