import { Type, type Static } from '@sinclair/typebox';

// What an issued invoice or credit note can be exported to (see src/services/einvoice-readiness.ts).

export const EINVOICE_PROFILES = ['en16931', 'peppol', 'xrechnung'] as const;
export type EinvoiceProfile = (typeof EINVOICE_PROFILES)[number];

export const EinvoiceProfileSchema = Type.Union(
  EINVOICE_PROFILES.map((p) => Type.Literal(p)),
  {
    title: 'EinvoiceProfile',
    description:
      'en16931: CII as Factur-X / ZUGFeRD use it (also the XML in the PDF); peppol: UBL Peppol BIS Billing 3.0; xrechnung: UBL or CII XRechnung 3.0.',
  },
);

export const EinvoiceGapSchema = Type.Object(
  {
    field: Type.String({
      description: 'The field to set, as the API names it, e.g. seller.contact or buyerReference.',
      examples: ['buyerReference'],
    }),
    code: Type.String({
      description: 'The official rule the document breaks without it (BR-…, PEPPOL-…, BR-DE-…).',
      examples: ['BR-DE-15'],
    }),
    message: Type.String(),
  },
  {
    title: 'EinvoiceGap',
    description:
      'What an e-invoice export would refuse the document for: the same field, rule and message as 422 EINVOICE_INCOMPLETE and validateFor.',
  },
);

const gaps = (profile: EinvoiceProfile) =>
  Type.Array(EinvoiceGapSchema, { description: `What the ${profile} export lacks; empty when the document exports.` });

export const EinvoiceReadinessSchema = Type.Object(
  {
    exportableTo: Type.Array(EinvoiceProfileSchema, {
      maxItems: EINVOICE_PROFILES.length,
      uniqueItems: true,
      description: 'The profiles whose export answers 200.',
    }),
    missing: Type.Object(
      { en16931: gaps('en16931'), peppol: gaps('peppol'), xrechnung: gaps('xrechnung') },
      { title: 'EinvoiceGaps' },
    ),
  },
  {
    title: 'EinvoiceReadiness',
    description:
      'Which e-invoices this issued document can be exported to, and for each profile what it lacks. An issued document never changes: what it lacks now, it lacks for good (issue a credit note and a new invoice, or check before issuing with validateFor).',
  },
);
export type EinvoiceReadiness = Static<typeof EinvoiceReadinessSchema>;
