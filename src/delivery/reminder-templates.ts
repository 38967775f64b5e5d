import type { EmailLanguage } from '../schemas/email-delivery.js';
import { fillTemplate, type EmailTemplate, type TemplateValues } from './templates.js';
import type { ReminderFigures } from './reminder-policy.js';

// The default subject and body of a reminder, by when its level falls (before the due date, on
// it, after it) and language; a company's own template of a level (email template kind
// reminder-<n>) replaces it. Besides the names of a document's message ({{number}}, {{amount}},
// …, where {{amount}} is the open balance), a reminder fills in {{level}}, {{daysOverdue}},
// {{total}} and {{charges}}: the fee and interest, each on its own labelled line, or nothing.

export type ReminderStage = 'before' | 'due' | 'after';

export function stageOf(days: number): ReminderStage {
  return days < 0 ? 'before' : days === 0 ? 'due' : 'after';
}

export const DEFAULT_REMINDER_TEMPLATES: Record<ReminderStage, Record<EmailLanguage, EmailTemplate>> = {
  before: {
    en: {
      subject: 'Invoice {{number}} from {{seller}} is due on {{dueDate}}',
      body: 'Hello,\n\na friendly note that invoice {{number}} of {{issueDate}} is due on {{dueDate}}.\nOpen balance: {{amount}} {{currency}}\n\nIf you have paid it already, thank you, and please disregard this message. The invoice is attached again.\n\nKind regards\n{{seller}}\n',
    },
    de: {
      subject: 'Rechnung {{number}} von {{seller}} ist am {{dueDate}} fällig',
      body: 'Guten Tag,\n\nwir möchten Sie freundlich daran erinnern, dass die Rechnung {{number}} vom {{issueDate}} am {{dueDate}} fällig ist.\nOffener Betrag: {{amount}} {{currency}}\n\nFalls Sie bereits bezahlt haben, danken wir Ihnen und bitten Sie, diese Nachricht zu ignorieren. Die Rechnung liegt noch einmal bei.\n\nMit freundlichen Grüßen\n{{seller}}\n',
    },
    fr: {
      subject: 'La facture {{number}} de {{seller}} arrive à échéance le {{dueDate}}',
      body: "Bonjour,\n\nnous vous rappelons que la facture {{number}} du {{issueDate}} arrive à échéance le {{dueDate}}.\nSolde restant dû : {{amount}} {{currency}}\n\nSi vous l'avez déjà réglée, merci, et veuillez ignorer ce message. La facture est jointe à nouveau.\n\nCordialement,\n{{seller}}\n",
    },
  },
  due: {
    en: {
      subject: 'Invoice {{number}} from {{seller}} is due today',
      body: 'Hello,\n\ninvoice {{number}} of {{issueDate}} is due today, {{dueDate}}.\nOpen balance: {{amount}} {{currency}}\n\nIf you have paid it already, thank you, and please disregard this message. The invoice is attached again.\n\nKind regards\n{{seller}}\n',
    },
    de: {
      subject: 'Rechnung {{number}} von {{seller}} ist heute fällig',
      body: 'Guten Tag,\n\ndie Rechnung {{number}} vom {{issueDate}} ist heute, am {{dueDate}}, fällig.\nOffener Betrag: {{amount}} {{currency}}\n\nFalls Sie bereits bezahlt haben, danken wir Ihnen und bitten Sie, diese Nachricht zu ignorieren. Die Rechnung liegt noch einmal bei.\n\nMit freundlichen Grüßen\n{{seller}}\n',
    },
    fr: {
      subject: "La facture {{number}} de {{seller}} arrive à échéance aujourd'hui",
      body: "Bonjour,\n\nla facture {{number}} du {{issueDate}} arrive à échéance aujourd'hui, le {{dueDate}}.\nSolde restant dû : {{amount}} {{currency}}\n\nSi vous l'avez déjà réglée, merci, et veuillez ignorer ce message. La facture est jointe à nouveau.\n\nCordialement,\n{{seller}}\n",
    },
  },
  after: {
    en: {
      subject: 'Reminder {{level}}: invoice {{number}} from {{seller}} is overdue',
      body: 'Hello,\n\ninvoice {{number}} of {{issueDate}} was due on {{dueDate}} and is {{daysOverdue}} days overdue.\nOpen balance: {{amount}} {{currency}}\n{{charges}}\nPlease pay the amount due. If you have paid it in the meantime, thank you, and please disregard this message. The invoice is attached again.\n\nKind regards\n{{seller}}\n',
    },
    de: {
      subject: 'Zahlungserinnerung {{level}}: Rechnung {{number}} von {{seller}} ist überfällig',
      body: 'Guten Tag,\n\ndie Rechnung {{number}} vom {{issueDate}} war am {{dueDate}} fällig und ist seit {{daysOverdue}} Tagen überfällig.\nOffener Betrag: {{amount}} {{currency}}\n{{charges}}\nBitte begleichen Sie den fälligen Betrag. Falls Sie inzwischen bezahlt haben, danken wir Ihnen und bitten Sie, diese Nachricht zu ignorieren. Die Rechnung liegt noch einmal bei.\n\nMit freundlichen Grüßen\n{{seller}}\n',
    },
    fr: {
      subject: 'Relance {{level}} : la facture {{number}} de {{seller}} est échue',
      body: "Bonjour,\n\nla facture {{number}} du {{issueDate}} était payable le {{dueDate}} et est en retard de {{daysOverdue}} jours.\nSolde restant dû : {{amount}} {{currency}}\n{{charges}}\nMerci de régler le montant dû. Si vous l'avez réglée entre-temps, merci, et veuillez ignorer ce message. La facture est jointe à nouveau.\n\nCordialement,\n{{seller}}\n",
    },
  },
};

const CHARGE_LABELS: Record<
  EmailLanguage,
  { fee: string; interest: (rate: string, days: number) => string; total: string }
> = {
  en: {
    fee: 'Reminder fee (not part of the invoice)',
    interest: (rate, days) => `Default interest, ${rate} % a year for ${days} days (not part of the invoice)`,
    total: 'Total now due',
  },
  de: {
    fee: 'Mahngebühr (nicht Teil der Rechnung)',
    interest: (rate, days) => `Verzugszinsen, ${rate} % p. a. für ${days} Tage (nicht Teil der Rechnung)`,
    total: 'Insgesamt jetzt fällig',
  },
  fr: {
    fee: 'Frais de relance (hors facture)',
    interest: (rate, days) => `Intérêts de retard, ${rate} % par an sur ${days} jours (hors facture)`,
    total: 'Total désormais dû',
  },
};

/** The {{charges}} block: the fee and interest as labelled lines and the total, or nothing without either. */
export function chargesText(
  figures: ReminderFigures,
  currency: string,
  language: EmailLanguage,
  daysOverdue: number,
): string {
  if (figures.fee === null && figures.interest === null) return '';
  const labels = CHARGE_LABELS[language];
  const lines: string[] = [];
  if (figures.fee !== null) lines.push(`${labels.fee}: ${figures.fee} ${currency}`);
  if (figures.interest !== null)
    lines.push(`${labels.interest(figures.interestRatePercent ?? '0', daysOverdue)}: ${figures.interest} ${currency}`);
  lines.push(`${labels.total}: ${figures.total} ${currency}`);
  return `${lines.join('\n')}\n`;
}

export interface ReminderValues extends TemplateValues {
  level: string;
  daysOverdue: string;
  charges: string;
  total: string;
}

/** A reminder's subject and body: the company's own template of the level, else the default of its stage, filled in. */
export function reminderMessage(
  days: number,
  language: EmailLanguage,
  own: EmailTemplate | undefined,
  values: ReminderValues,
): EmailTemplate {
  return fillTemplate(own ?? DEFAULT_REMINDER_TEMPLATES[stageOf(days)][language], values);
}
