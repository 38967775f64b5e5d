import type { Owner } from '../db/scope.js';
import { languageForCountry } from '../documents/index.js';
import type { EmailLanguage } from '../schemas/email-delivery.js';

// The subject and body of a document's message, per language. {{name}} is replaced by the
// document's value; an unknown name is left as it is written, so a typo shows in the message.
// {{hostedUrl}} alone is filled in when the message is sent, not when it is queued: the link
// carries the page's token, which is never stored in clear (the row keeps the placeholder).

export interface TemplateValues {
  number: string;
  seller: string;
  buyer: string;
  amount: string;
  currency: string;
  issueDate: string;
  dueDate: string;
}

export interface EmailTemplate {
  subject: string;
  body: string;
}

type Kind = 'invoice' | 'credit-note';

export const DEFAULT_TEMPLATES: Record<Kind, Record<EmailLanguage, EmailTemplate>> = {
  invoice: {
    en: {
      subject: 'Invoice {{number}} from {{seller}}',
      body: 'Hello,\n\nplease find attached invoice {{number}} of {{issueDate}} over {{amount}} {{currency}}, due on {{dueDate}}.\nThe PDF carries the e-invoice (Factur-X); the XML is attached on its own as well.\nView it online, with its current balance and downloads: {{hostedUrl}}\n\nKind regards\n{{seller}}\n',
    },
    de: {
      subject: 'Rechnung {{number}} von {{seller}}',
      body: 'Guten Tag,\n\nanbei erhalten Sie die Rechnung {{number}} vom {{issueDate}} über {{amount}} {{currency}}, fällig am {{dueDate}}.\nDas PDF enthält die E-Rechnung (ZUGFeRD/Factur-X); die XML-Datei liegt zusätzlich bei.\nOnline ansehen, mit aktuellem Stand und Downloads: {{hostedUrl}}\n\nMit freundlichen Grüßen\n{{seller}}\n',
    },
    fr: {
      subject: 'Facture {{number}} de {{seller}}',
      body: "Bonjour,\n\nveuillez trouver ci-joint la facture {{number}} du {{issueDate}} d'un montant de {{amount}} {{currency}}, payable le {{dueDate}}.\nLe PDF contient la facture électronique (Factur-X) ; le fichier XML est également joint.\nConsultez-la en ligne, avec son solde et les téléchargements : {{hostedUrl}}\n\nCordialement,\n{{seller}}\n",
    },
  },
  'credit-note': {
    en: {
      subject: 'Credit note {{number}} from {{seller}}',
      body: 'Hello,\n\nplease find attached credit note {{number}} of {{issueDate}} over {{amount}} {{currency}}.\nThe PDF carries the e-invoice (Factur-X); the XML is attached on its own as well.\nView it online, with its current balance and downloads: {{hostedUrl}}\n\nKind regards\n{{seller}}\n',
    },
    de: {
      subject: 'Gutschrift {{number}} von {{seller}}',
      body: 'Guten Tag,\n\nanbei erhalten Sie die Gutschrift {{number}} vom {{issueDate}} über {{amount}} {{currency}}.\nDas PDF enthält die E-Rechnung (ZUGFeRD/Factur-X); die XML-Datei liegt zusätzlich bei.\nOnline ansehen, mit aktuellem Stand und Downloads: {{hostedUrl}}\n\nMit freundlichen Grüßen\n{{seller}}\n',
    },
    fr: {
      subject: 'Avoir {{number}} de {{seller}}',
      body: "Bonjour,\n\nveuillez trouver ci-joint l'avoir {{number}} du {{issueDate}} d'un montant de {{amount}} {{currency}}.\nLe PDF contient la facture électronique (Factur-X) ; le fichier XML est également joint.\nConsultez-la en ligne, avec son solde et les téléchargements : {{hostedUrl}}\n\nCordialement,\n{{seller}}\n",
    },
  },
};

/** Fills a template's {{name}}s; a subject stays one line whatever a value holds. */
export function fillTemplate<V extends TemplateValues>(template: EmailTemplate, values: V): EmailTemplate {
  const named = values as unknown as Record<string, string>;
  const fill = (text: string) =>
    text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (Object.hasOwn(named, name) ? named[name]! : whole));
  return {
    subject: fill(template.subject)
      .replace(/[\r\n]+/g, ' ')
      .trim(),
    body: fill(template.body),
  };
}

/** Where a document's hosted page is: its URL, or null where there is none (no PUBLIC_BASE_URL). */
export type HostedUrlOf = (owner: Owner, kind: 'invoice' | 'credit-note', documentId: string) => Promise<string | null>;

/**
 * A queued body as it is sent: {{hostedUrl}} becomes the page's URL; without one, each line that
 * names it is left out (a sentence around a missing link would point at nothing).
 */
export function withHostedUrl(body: string, hostedUrl: string | null): string {
  if (!body.includes('{{hostedUrl}}')) return body;
  if (hostedUrl !== null) return body.replaceAll('{{hostedUrl}}', hostedUrl);
  return body
    .split('\n')
    .filter((line) => !line.includes('{{hostedUrl}}'))
    .join('\n');
}

/** The language a document is sent in without one asked for: the buyer's country's (one rule with its page). */
export const languageFor: (buyerCountry: string | null) => EmailLanguage = languageForCountry;
