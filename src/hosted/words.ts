import { languageForCountry, type PdfLanguage } from '../documents/index.js';

// The hosted page's words in the languages documents are written in. A page is shown in the
// document's language: the buyer's country's (as messages are sent in), English elsewhere.

export type PageStatus = 'open' | 'partly-paid' | 'paid' | 'credited' | 'void';

/** A sent quote's state as its page shows it (the API's, a draft has no page). */
export type QuotePageStatus = 'open' | 'accepted' | 'declined' | 'expired';

export interface PageWords {
  invoice: string;
  creditNote: string;
  creditNoteFor: (invoice: string) => string;
  from: string;
  to: string;
  issueDate: string;
  dueDate: string;
  status: string;
  statuses: Record<PageStatus, string>;
  lines: string;
  item: string;
  quantity: string;
  unitPrice: string;
  vat: string;
  net: string;
  totals: string;
  totalNet: string;
  totalVat: string;
  total: string;
  paid: string;
  credited: string;
  refunded: string;
  balanceDue: string;
  nothingDue: string;
  owedToBuyer: string;
  invoiceBalance: (invoice: string) => string;
  howToPay: string;
  transfer: (amount: string) => string;
  iban: string;
  accountHolder: string;
  bic: string;
  reference: string;
  directDebit: (amount: string) => string;
  scanToPay: string;
  testDocument: string;
  downloads: string;
  pdf: string;
  xml: string;
  vatId: string;
  notFoundTitle: string;
  notFound: string;
  limitedTitle: string;
  limited: string;
  errorTitle: string;
  error: string;
  quote: string;
  /** Under the title: what the page is, and that it asks for no payment. */
  quoteNote: string;
  quoteDate: string;
  validUntil: string;
  quoteStatuses: Record<QuotePageStatus, string>;
  yourAnswer: string;
  answerPrompt: (validUntil: string) => string;
  accept: string;
  decline: string;
  acceptedOn: (date: string) => string;
  declinedOn: (date: string) => string;
  expiredOn: (validUntil: string) => string;
  quotePdf: string;
  /** The title of the page a late or second answer gets. */
  notAnsweredTitle: string;
  backToQuote: string;
}

export const WORDS: Record<PdfLanguage, PageWords> = {
  en: {
    invoice: 'Invoice',
    creditNote: 'Credit note',
    creditNoteFor: (invoice) => `Credit note for invoice ${invoice}`,
    from: 'From',
    to: 'To',
    issueDate: 'Issue date',
    dueDate: 'Due date',
    status: 'Status',
    statuses: { open: 'Open', 'partly-paid': 'Partly paid', paid: 'Paid', credited: 'Credited', void: 'Void' },
    lines: 'Items',
    item: 'Item',
    quantity: 'Quantity',
    unitPrice: 'Unit price',
    vat: 'VAT',
    net: 'Net amount',
    totals: 'Totals',
    totalNet: 'Total net',
    totalVat: 'VAT',
    total: 'Total',
    paid: 'Paid',
    credited: 'Credited',
    refunded: 'Refunded',
    balanceDue: 'Balance due',
    nothingDue: 'Nothing is due.',
    owedToBuyer: 'Owed to you',
    invoiceBalance: (invoice) => `Balance of invoice ${invoice}`,
    howToPay: 'How to pay',
    transfer: (amount) => `Please transfer ${amount} to:`,
    iban: 'IBAN',
    accountHolder: 'Account holder',
    bic: 'BIC',
    reference: 'Reference',
    directDebit: (amount) => `${amount} will be collected by direct debit.`,
    scanToPay: 'GiroCode: scan with your banking app to pay the balance due',
    testDocument: 'This is a test document: it asks for no payment.',
    downloads: 'Downloads',
    pdf: 'PDF (with the e-invoice inside)',
    xml: 'E-invoice (XML, CII)',
    vatId: 'VAT ID',
    notFoundTitle: 'Page not found',
    notFound: 'There is no document at this address.',
    limitedTitle: 'Too many requests',
    limited: 'This page was opened too often in a short time. Please try again in a minute.',
    errorTitle: 'Something went wrong',
    error: 'The page cannot be shown right now. Please try again later.',
    quote: 'Quote',
    quoteNote: 'This is a quote, not an invoice: it asks for no payment.',
    quoteDate: 'Quote date',
    validUntil: 'Valid until',
    quoteStatuses: { open: 'Open', accepted: 'Accepted', declined: 'Declined', expired: 'Expired' },
    yourAnswer: 'Your answer',
    answerPrompt: (validUntil) => `You can accept or decline this quote until ${validUntil}.`,
    accept: 'Accept the quote',
    decline: 'Decline the quote',
    acceptedOn: (date) => `This quote was accepted on ${date}.`,
    declinedOn: (date) => `This quote was declined on ${date}.`,
    expiredOn: (validUntil) => `This quote was valid until ${validUntil} and can no longer be accepted.`,
    quotePdf: 'Quote (PDF)',
    notAnsweredTitle: 'Your answer was not recorded',
    backToQuote: 'Back to the quote',
  },
  de: {
    invoice: 'Rechnung',
    creditNote: 'Gutschrift',
    creditNoteFor: (invoice) => `Gutschrift zur Rechnung ${invoice}`,
    from: 'Von',
    to: 'An',
    issueDate: 'Rechnungsdatum',
    dueDate: 'Fällig am',
    status: 'Status',
    statuses: {
      open: 'Offen',
      'partly-paid': 'Teilweise bezahlt',
      paid: 'Bezahlt',
      credited: 'Gutgeschrieben',
      void: 'Storniert',
    },
    lines: 'Positionen',
    item: 'Position',
    quantity: 'Menge',
    unitPrice: 'Einzelpreis',
    vat: 'USt.',
    net: 'Nettobetrag',
    totals: 'Summen',
    totalNet: 'Summe netto',
    totalVat: 'Umsatzsteuer',
    total: 'Gesamtbetrag',
    paid: 'Bezahlt',
    credited: 'Gutgeschrieben',
    refunded: 'Erstattet',
    balanceDue: 'Offener Betrag',
    nothingDue: 'Es ist nichts zu zahlen.',
    owedToBuyer: 'Guthaben zu Ihren Gunsten',
    invoiceBalance: (invoice) => `Offener Betrag der Rechnung ${invoice}`,
    howToPay: 'Zahlung',
    transfer: (amount) => `Bitte überweisen Sie ${amount} an:`,
    iban: 'IBAN',
    accountHolder: 'Kontoinhaber',
    bic: 'BIC',
    reference: 'Verwendungszweck',
    directDebit: (amount) => `${amount} werden per Lastschrift eingezogen.`,
    scanToPay: 'GiroCode: mit der Banking-App scannen, um den offenen Betrag zu zahlen',
    testDocument: 'Dies ist ein Testbeleg: Er fordert keine Zahlung.',
    downloads: 'Downloads',
    pdf: 'PDF (mit der E-Rechnung)',
    xml: 'E-Rechnung (XML, CII)',
    vatId: 'USt-IdNr.',
    notFoundTitle: 'Seite nicht gefunden',
    notFound: 'Unter dieser Adresse gibt es kein Dokument.',
    limitedTitle: 'Zu viele Anfragen',
    limited: 'Diese Seite wurde in kurzer Zeit zu oft aufgerufen. Bitte versuchen Sie es in einer Minute erneut.',
    errorTitle: 'Ein Fehler ist aufgetreten',
    error: 'Die Seite kann gerade nicht angezeigt werden. Bitte versuchen Sie es später erneut.',
    quote: 'Angebot',
    quoteNote: 'Dies ist ein Angebot, keine Rechnung: Es fordert keine Zahlung.',
    quoteDate: 'Angebotsdatum',
    validUntil: 'Gültig bis',
    quoteStatuses: { open: 'Offen', accepted: 'Angenommen', declined: 'Abgelehnt', expired: 'Abgelaufen' },
    yourAnswer: 'Ihre Antwort',
    answerPrompt: (validUntil) => `Sie können dieses Angebot bis zum ${validUntil} annehmen oder ablehnen.`,
    accept: 'Angebot annehmen',
    decline: 'Angebot ablehnen',
    acceptedOn: (date) => `Dieses Angebot wurde am ${date} angenommen.`,
    declinedOn: (date) => `Dieses Angebot wurde am ${date} abgelehnt.`,
    expiredOn: (validUntil) => `Dieses Angebot war bis zum ${validUntil} gültig und kann nicht mehr angenommen werden.`,
    quotePdf: 'Angebot (PDF)',
    notAnsweredTitle: 'Ihre Antwort wurde nicht gespeichert',
    backToQuote: 'Zurück zum Angebot',
  },
  fr: {
    invoice: 'Facture',
    creditNote: 'Avoir',
    creditNoteFor: (invoice) => `Avoir sur la facture ${invoice}`,
    from: 'De',
    to: 'À',
    issueDate: "Date d'émission",
    dueDate: "Date d'échéance",
    status: 'Statut',
    statuses: {
      open: 'Ouverte',
      'partly-paid': 'Partiellement payée',
      paid: 'Payée',
      credited: 'Créditée',
      void: 'Annulée',
    },
    lines: 'Lignes',
    item: 'Article',
    quantity: 'Quantité',
    unitPrice: 'Prix unitaire',
    vat: 'TVA',
    net: 'Montant HT',
    totals: 'Totaux',
    totalNet: 'Total HT',
    totalVat: 'TVA',
    total: 'Total TTC',
    paid: 'Payé',
    credited: 'Crédité',
    refunded: 'Remboursé',
    balanceDue: 'Reste à payer',
    nothingDue: "Rien n'est dû.",
    owedToBuyer: 'En votre faveur',
    invoiceBalance: (invoice) => `Solde de la facture ${invoice}`,
    howToPay: 'Paiement',
    transfer: (amount) => `Veuillez virer ${amount} sur :`,
    iban: 'IBAN',
    accountHolder: 'Titulaire du compte',
    bic: 'BIC',
    reference: 'Référence',
    directDebit: (amount) => `${amount} seront prélevés.`,
    scanToPay: 'GiroCode : scannez avec votre application bancaire pour payer le reste dû',
    testDocument: 'Ceci est un document de test : il ne demande aucun paiement.',
    downloads: 'Téléchargements',
    pdf: 'PDF (avec la facture électronique)',
    xml: 'Facture électronique (XML, CII)',
    vatId: 'N° TVA',
    notFoundTitle: 'Page introuvable',
    notFound: "Il n'y a aucun document à cette adresse.",
    limitedTitle: 'Trop de requêtes',
    limited: 'Cette page a été ouverte trop souvent en peu de temps. Veuillez réessayer dans une minute.',
    errorTitle: 'Une erreur est survenue',
    error: 'La page ne peut pas être affichée pour le moment. Veuillez réessayer plus tard.',
    quote: 'Devis',
    quoteNote: 'Ceci est un devis, pas une facture : il ne demande aucun paiement.',
    quoteDate: 'Date du devis',
    validUntil: "Valable jusqu'au",
    quoteStatuses: { open: 'Ouvert', accepted: 'Accepté', declined: 'Refusé', expired: 'Expiré' },
    yourAnswer: 'Votre réponse',
    answerPrompt: (validUntil) => `Vous pouvez accepter ou refuser ce devis jusqu'au ${validUntil}.`,
    accept: 'Accepter le devis',
    decline: 'Refuser le devis',
    acceptedOn: (date) => `Ce devis a été accepté le ${date}.`,
    declinedOn: (date) => `Ce devis a été refusé le ${date}.`,
    expiredOn: (validUntil) => `Ce devis était valable jusqu'au ${validUntil} et ne peut plus être accepté.`,
    quotePdf: 'Devis (PDF)',
    notAnsweredTitle: "Votre réponse n'a pas été enregistrée",
    backToQuote: 'Retour au devis',
  },
};

/** The language of a document's page: the buyer's country's, as its messages (one rule). */
export const pageLanguageFor: (buyerCountry: string | null) => PdfLanguage = languageForCountry;
