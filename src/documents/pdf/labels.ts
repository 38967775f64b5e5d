// The words of the PDF in each language it speaks. Numbers, amounts and dates are formatted by
// Intl for the same language (format.ts); unit names fall back to the English name of the code.

export const PDF_LANGUAGES = ['en', 'de', 'fr'] as const;
export type PdfLanguage = (typeof PDF_LANGUAGES)[number];

export interface Labels {
  invoice: string;
  creditNote: string;
  draft: string;
  test: string;
  draftNotice: string;
  testNotice: string;
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
  amountToRefund: string;
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
}

export const LABELS: Record<PdfLanguage, Labels> = {
  en: {
    invoice: 'Invoice',
    creditNote: 'Credit note',
    draft: 'DRAFT',
    test: 'TEST',
    draftNotice: 'Draft — not an issued document',
    testNotice: 'Test document — not valid for tax purposes',
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
    amountToRefund: 'Amount credited',
    exemption: 'VAT exemption',
    paymentTerms: 'Payment terms',
    payment: 'Payment',
    transfer: (amount, account, reference, due) => `Please transfer ${amount} to ${account}, quoting ${reference}${due ? `, by ${due}` : ''}.`,
    bic: 'BIC',
    accountHolder: 'Account holder',
    directDebit: (amount, account, mandate) => `${amount} will be debited${account ? ` from ${account}` : ''}${mandate ? ` under mandate ${mandate}` : ''}.`,
    card: (digits) => `Paid by card ending ${digits}.`,
    cash: 'Payable in cash.',
    scanToPay: 'Scan to pay',
    page: (n, of) => `Page ${n} of ${of}`,
    contact: 'Contact',
  },
  de: {
    invoice: 'Rechnung',
    creditNote: 'Gutschrift',
    draft: 'ENTWURF',
    test: 'TEST',
    draftNotice: 'Entwurf — kein ausgestelltes Dokument',
    testNotice: 'Testdokument — steuerlich ohne Gültigkeit',
    number: 'Nummer',
    issueDate: 'Datum',
    dueDate: 'Fällig am',
    deliveryDate: 'Lieferdatum',
    period: 'Leistungszeitraum',
    buyerReference: 'Ihre Referenz',
    orderReference: 'Ihre Bestellung',
    precedingInvoice: 'Korrigiert Rechnung',
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
    amountToRefund: 'Gutschriftsbetrag',
    exemption: 'Steuerbefreiung',
    paymentTerms: 'Zahlungsbedingungen',
    payment: 'Zahlung',
    transfer: (amount, account, reference, due) => `Bitte überweisen Sie ${amount} auf ${account} mit dem Verwendungszweck ${reference}${due ? ` bis zum ${due}` : ''}.`,
    bic: 'BIC',
    accountHolder: 'Kontoinhaber',
    directDebit: (amount, account, mandate) => `${amount} werden${account ? ` von ${account}` : ''}${mandate ? ` gemäß Mandat ${mandate}` : ''} eingezogen.`,
    card: (digits) => `Bezahlt mit Karte, endend auf ${digits}.`,
    cash: 'Zahlbar in bar.',
    scanToPay: 'Mit GiroCode bezahlen',
    page: (n, of) => `Seite ${n} von ${of}`,
    contact: 'Kontakt',
  },
  fr: {
    invoice: 'Facture',
    creditNote: 'Avoir',
    draft: 'BROUILLON',
    test: 'TEST',
    draftNotice: 'Brouillon — document non émis',
    testNotice: 'Document de test — sans valeur fiscale',
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
    amountToRefund: 'Montant crédité',
    exemption: 'Exonération de TVA',
    paymentTerms: 'Conditions de paiement',
    payment: 'Paiement',
    transfer: (amount, account, reference, due) => `Merci de virer ${amount} sur ${account} avec la référence ${reference}${due ? ` avant le ${due}` : ''}.`,
    bic: 'BIC',
    accountHolder: 'Titulaire',
    directDebit: (amount, account, mandate) => `${amount} seront prélevés${account ? ` sur ${account}` : ''}${mandate ? ` selon le mandat ${mandate}` : ''}.`,
    card: (digits) => `Payé par carte se terminant par ${digits}.`,
    cash: 'Payable en espèces.',
    scanToPay: 'Scanner pour payer',
    page: (n, of) => `Page ${n} sur ${of}`,
    contact: 'Contact',
  },
};

/** Short unit names for the common UN/ECE Rec 20 codes; other codes show their English name. */
export const UNIT_NAMES: Record<PdfLanguage, Record<string, string>> = {
  en: { C62: 'pc', H87: 'pc', EA: 'each', HUR: 'h', DAY: 'days', MIN: 'min', WEE: 'weeks', MON: 'months', ANN: 'years', KGM: 'kg', GRM: 'g', MTR: 'm', MTK: 'm²', MTQ: 'm³', LTR: 'l', KWH: 'kWh', SET: 'sets', LS: 'lump sum' },
  de: { C62: 'Stk.', H87: 'Stk.', EA: 'Stk.', HUR: 'Std.', DAY: 'Tage', MIN: 'Min.', WEE: 'Wochen', MON: 'Monate', ANN: 'Jahre', KGM: 'kg', GRM: 'g', MTR: 'm', MTK: 'm²', MTQ: 'm³', LTR: 'l', KWH: 'kWh', SET: 'Sätze', LS: 'pauschal' },
  fr: { C62: 'pce', H87: 'pce', EA: 'pce', HUR: 'h', DAY: 'jours', MIN: 'min', WEE: 'semaines', MON: 'mois', ANN: 'ans', KGM: 'kg', GRM: 'g', MTR: 'm', MTK: 'm²', MTQ: 'm³', LTR: 'l', KWH: 'kWh', SET: 'lots', LS: 'forfait' },
};
