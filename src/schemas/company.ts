import { Type, type Static } from '@sinclair/typebox';
import { DocumentedAs } from './documented-as.js';
import { Nullable } from './nullable.js';
import { AddressSchema, ContactSchema, ElectronicAddressSchema } from './parties.js';

// The company (the seller) as GET /company shows it. Set with PATCH /company, `invoicing company
// update` or on the panel's Company page; issued documents keep the snapshot taken when they were issued.

const NullableString = Nullable(Type.String());

export const BankAccountSchema = Type.Object(
  { iban: Type.String(), bic: NullableString, accountName: NullableString },
  { title: 'BankAccount' },
);

export const CompanySchema = Type.Object(
  {
    id: Type.String({ examples: ['cmp_01956a30-1b2c-7d3e-8f40-5a6b7c8d9e0f'] }),
    name: Type.String(),
    legalName: NullableString,
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    address: AddressSchema,
    vatId: NullableString,
    taxNumber: NullableString,
    legalRegistrationId: Nullable(
      Type.String({
        description:
          'The company register number (EN 16931 BT-30). "<ICD scheme>:<id>" names its ISO 6523 scheme (0106:12345678); a Dutch company\'s eight-digit KVK or twenty-digit OIN number gets its scheme by itself (Peppol NL-R-003).',
      }),
    ),
    electronicAddress: Nullable(ElectronicAddressSchema),
    contact: ContactSchema,
    bankAccount: Nullable(BankAccountSchema),
    paymentTerms: NullableString,
    creditorId: Nullable(
      Type.String({ description: 'The SEPA creditor identifier, for direct debits (EN 16931 BT-90).' }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'Company', description: 'Your company: the seller of its invoices (EN 16931 BG-4).' },
);

export type Company = Static<typeof CompanySchema>;

// The seller profile as the CLI, the panel and PATCH /company change it: flat fields, checked by
// the one validation in src/services/company-profile.ts.

/** The profile's fields, each optional in a change; null (or '') clears one. */
export interface ProfileChanges {
  legalName?: string | null;
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  postalCode?: string | null;
  countryCode?: string | null;
  vatId?: string | null;
  taxNumber?: string | null;
  legalRegistrationId?: string | null;
  /** "<EAS scheme>:<identifier>", e.g. 0088:4000001123452 */
  electronicAddress?: string | null;
  contactName?: string | null;
  contactPhone?: string | null;
  contactEmail?: string | null;
  iban?: string | null;
  bic?: string | null;
  accountName?: string | null;
  paymentTerms?: string | null;
  creditorId?: string | null;
}

export type ProfileField = keyof ProfileChanges;

/** The most characters of each text field. */
export const PROFILE_LIMITS: Partial<Record<ProfileField, number>> = {
  legalName: 200,
  line1: 200,
  line2: 200,
  city: 100,
  postalCode: 20,
  vatId: 32,
  taxNumber: 32,
  legalRegistrationId: 100,
  contactName: 200,
  contactPhone: 50,
  contactEmail: 254,
  accountName: 200,
  paymentTerms: 1000,
  creditorId: 35,
};

// PATCH /company. The validator checks shapes only (with generous bounds); the seller profile's
// one validation (src/services/company-profile.ts, shared with the panel and the CLI) checks the
// values, so the limits below are in the document only.
const ProfileText = (field: ProfileField, description?: string) =>
  Type.Optional(
    Nullable(
      DocumentedAs(
        Type.String({ maxLength: 5000 }),
        Type.String({
          ...(PROFILE_LIMITS[field] ? { maxLength: PROFILE_LIMITS[field] } : {}),
          ...(description ? { description } : {}),
        }),
      ),
    ),
  );

export const UpdateCompanyBody = Type.Object(
  {
    legalName: ProfileText('legalName', 'The registered name (EN 16931 BT-27), when it differs from the trading name.'),
    address: Type.Optional(
      Type.Object(
        {
          line1: ProfileText('line1'),
          line2: ProfileText('line2'),
          city: ProfileText('city'),
          postalCode: ProfileText('postalCode'),
          countryCode: ProfileText('countryCode', 'ISO 3166-1 alpha-2, e.g. DE.'),
        },
        {
          title: 'SellerAddressInput',
          additionalProperties: false,
          description: 'Merged field by field into the stored address.',
        },
      ),
    ),
    vatId: ProfileText(
      'vatId',
      "An EU VAT id must have its state's format (DE + 9 digits, FR + 2 characters + 9 digits, EL for Greece, …; stored upper-cased without spaces); other ids are stored as given.",
    ),
    taxNumber: ProfileText('taxNumber'),
    legalRegistrationId: ProfileText(
      'legalRegistrationId',
      'The company register number (BT-30); "<ICD scheme>:<id>" names its scheme.',
    ),
    electronicAddress: Type.Optional(
      Nullable(
        Type.Object(
          {
            scheme: Type.String({
              maxLength: 10,
              description: 'A code of the EAS list, e.g. 0088 (GLN) or 9930 (German VAT id).',
            }),
            identifier: Type.String({ maxLength: 5000 }),
          },
          {
            title: 'SellerElectronicAddressInput',
            additionalProperties: false,
            description:
              'Where e-invoices to you are delivered (EN 16931 BT-34), e.g. your Peppol id; null removes it.',
          },
        ),
      ),
    ),
    contact: Type.Optional(
      Type.Object(
        {
          name: ProfileText('contactName'),
          phone: ProfileText('contactPhone'),
          email: ProfileText('contactEmail', 'An email address.'),
        },
        {
          title: 'SellerContactInput',
          additionalProperties: false,
          description: 'Merged field by field into the stored contact.',
        },
      ),
    ),
    bankAccount: Type.Optional(
      Nullable(
        Type.Object(
          {
            iban: Type.String({ maxLength: 100, description: 'An IBAN with a valid checksum; stored without spaces.' }),
            bic: ProfileText('bic', 'A BIC of 8 or 11 characters.'),
            accountName: ProfileText('accountName'),
          },
          {
            title: 'SellerBankAccountInput',
            additionalProperties: false,
            description: 'Replaces the whole bank account (a BIC or name not sent is cleared); null removes it.',
          },
        ),
      ),
    ),
    paymentTerms: ProfileText('paymentTerms', 'The default payment terms of new invoices (BT-20).'),
    creditorId: ProfileText('creditorId', 'The SEPA creditor identifier (BT-90).'),
  },
  {
    title: 'UpdateCompanyInput',
    additionalProperties: false,
    description: 'The fields to change; the others stay as they are. null (or an empty string) clears a field.',
  },
);
export type UpdateCompanyInput = Static<typeof UpdateCompanyBody>;
