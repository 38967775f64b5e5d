import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './nullable.js';

// Sending an invoice or credit note by email: what a send asks for, and the record of a message.

export const EMAIL_LANGUAGES = ['de', 'en', 'fr'] as const;
export type EmailLanguage = (typeof EMAIL_LANGUAGES)[number];

/** The e-invoice attached beside the PDF (which carries the CII inside). */
export const XML_FORMATS = ['cii', 'xrechnung-cii', 'xrechnung-ubl', 'peppol'] as const;
export type XmlFormat = (typeof XML_FORMATS)[number];

const Address = Type.String({
  minLength: 3,
  maxLength: 254,
  description: 'One email address, no display name.',
  examples: ['billing@buyer.example'],
});

export const SendDocumentBody = Type.Object(
  {
    to: Type.Optional(
      Type.Array(Address, {
        minItems: 1,
        maxItems: 10,
        uniqueItems: true,
        description: "Recipients; without them, the buyer's email (its organization's email).",
      }),
    ),
    cc: Type.Optional(Type.Array(Address, { maxItems: 10, uniqueItems: true, description: 'Copies.' })),
    language: Type.Optional(
      Type.Union(
        EMAIL_LANGUAGES.map((language) => Type.Literal(language)),
        {
          description:
            'The language of the message and of the attached PDF: de, en or fr. Without it: de for a buyer in DE, AT, CH or LI, fr for FR or MC, else en.',
        },
      ),
    ),
    xmlFormat: Type.Optional(
      Type.Union(
        XML_FORMATS.map((format) => Type.Literal(format)),
        {
          description:
            'The e-invoice attached beside the PDF: cii (default, the same CII the PDF carries, as GET …/cii), xrechnung-cii (GET …/cii?profile=xrechnung), xrechnung-ubl (GET …/ubl?profile=xrechnung) or peppol (GET …/ubl).',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'SendDocumentInput' },
);
export type SendDocumentInput = Static<typeof SendDocumentBody>;

export const EmailAttachmentSchema = Type.Object(
  {
    filename: Type.String({ examples: ['invoice-INV-2026-00001.pdf'] }),
    contentType: Type.String({ examples: ['application/pdf'] }),
    size: Type.Integer({ description: 'Bytes.' }),
    sha256: Type.String({
      description: 'The SHA-256 (hex) of the bytes sent: the same as the download of the document.',
    }),
  },
  { title: 'EmailAttachment' },
);

export const EmailDeliverySchema = Type.Object(
  {
    id: Type.String({ examples: ['eml_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }),
    documentKind: Type.Union([Type.Literal('invoice'), Type.Literal('credit-note')]),
    documentId: Type.String(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed')], {
      description:
        'queued: waiting for (another) attempt; sent: the relay took the message; failed: it will not be tried again (failureReason says why).',
    }),
    to: Type.Array(Type.String()),
    cc: Type.Array(Type.String()),
    from: Type.String({ description: "The From header: the company name and the operator's sending address." }),
    replyTo: Nullable(Type.String(), "The Reply-To header: the company's contact email."),
    language: Type.Union(EMAIL_LANGUAGES.map((language) => Type.Literal(language))),
    xmlFormat: Type.Union(XML_FORMATS.map((format) => Type.Literal(format))),
    subject: Type.String(),
    messageId: Type.String({ description: 'The Message-ID header, the same on every attempt.' }),
    attachments: Type.Array(EmailAttachmentSchema, { description: 'Empty until the message was built.' }),
    attempts: Type.Integer(),
    smtpResponse: Nullable(Type.String(), "The relay's answer to the message (sent), or to the last attempt."),
    failureReason: Nullable(Type.String(), 'Why the last attempt failed.'),
    nextAttemptAt: Nullable(Type.String({ format: 'date-time' }), 'When a queued message is tried next.'),
    createdAt: Type.String({ format: 'date-time' }),
    sentAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'EmailDelivery' },
);
export type EmailDelivery = Static<typeof EmailDeliverySchema>;

export const DOCUMENT_KINDS = ['invoice', 'credit-note'] as const;
/** The templates of reminder levels, by position in the company's reminder policy (docs/reminders.md). */
export const REMINDER_KINDS = [
  'reminder-1',
  'reminder-2',
  'reminder-3',
  'reminder-4',
  'reminder-5',
  'reminder-6',
] as const;
export const TEMPLATE_KINDS = [...DOCUMENT_KINDS, ...REMINDER_KINDS] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export const EmailTemplateBody = Type.Object(
  {
    subject: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'One line; {{number}}, {{seller}}, {{buyer}}, {{amount}}, {{currency}}, {{issueDate}} and {{dueDate}} are filled in.',
    }),
    body: Type.String({ minLength: 1, maxLength: 10_000, description: 'Plain text, with the same {{names}}.' }),
  },
  { additionalProperties: false, title: 'EmailTemplateInput' },
);
export type EmailTemplateInput = Static<typeof EmailTemplateBody>;

export const EmailTemplateSchema = Type.Object(
  {
    documentKind: Type.Union(TEMPLATE_KINDS.map((kind) => Type.Literal(kind))),
    language: Type.Union(EMAIL_LANGUAGES.map((language) => Type.Literal(language))),
    subject: Type.String(),
    body: Type.String(),
    custom: Type.Boolean({
      description: "true: the company's own; false: the default, used until the company sets its own.",
    }),
    updatedAt: Nullable(Type.String({ format: 'date-time' }), 'When the company last set it; null for the default.'),
  },
  { title: 'EmailTemplate' },
);
export type EmailTemplateView = Static<typeof EmailTemplateSchema>;

export const EmailTemplateParams = Type.Object({
  kind: Type.Union(
    TEMPLATE_KINDS.map((kind) => Type.Literal(kind)),
    {
      description:
        "invoice or credit-note, or reminder-<n>: the reminders of the n-th level of the company's reminder policy (which also fill in {{level}}, {{daysOverdue}}, {{charges}} and {{total}}).",
    },
  ),
  language: Type.Union(
    EMAIL_LANGUAGES.map((language) => Type.Literal(language)),
    { description: 'de, en or fr.' },
  ),
});
