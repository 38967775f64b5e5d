import type { DateText, DecimalText } from '../model.js';

// What a PDF says beyond the EN 16931 view: how a credit note settles, and, on a status copy,
// what happened to the document since it was issued. The service gathers them; the PDF only
// writes them.

export interface CreditFacts {
  /** The reason given for the credit note (the XML carries it in its note). */
  reason: string;
  /** It cancels the whole invoice (POST /invoice/{id}/void). */
  voids: boolean;
  /** The part set against the invoice's open balance when the credit note was issued. */
  offset: DecimalText;
  /** The part owed back to the buyer: payable − offset. */
  refund: DecimalText;
}

export interface StatusFacts {
  /** The day the copy shows the status of. */
  asOf: DateText;
  status: 'issued' | 'paid' | 'void';
  /** The day the invoice was paid in full, for a paid one. */
  paidOn: DateText | null;
  payments: { date: DateText; amount: DecimalText }[];
  /** Money paid back to the buyer (refunds). */
  refunds: { date: DateText; amount: DecimalText }[];
  credits: { number: string; date: DateText; amount: DecimalText }[];
  /** What is open now: positive is owed by the buyer, negative owed to the buyer. */
  balance: DecimalText;
  /** A credit note's copy: the invoice whose balance this is. */
  invoiceNumber: string | null;
}

/** A quote (an offer): titled as such, with its validity, asking for no payment and carrying no XML. */
export interface QuoteFacts {
  /** The last day the offer can be accepted. */
  validUntil: DateText;
}

/** A rendering of a document we received (a purchase invoice): marked as such, asking us for nothing. */
export interface ReceivedFacts {
  /** The day it arrived. */
  receivedOn: DateText;
  /** How the EN 16931 rules (and those it claims) judged it. */
  verdict: 'valid' | 'valid with warnings' | 'invalid';
}
