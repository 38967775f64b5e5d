import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './nullable.js';
import { AddressSchema, ContactSchema, ElectronicAddressSchema } from './parties.js';

// The company (the seller) as GET /company shows it. Set with `invoicing company update` or on the
// panel's Company page; issued documents keep the snapshot taken when they were issued.

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
    creditorId: Nullable(Type.String({ description: 'The SEPA creditor identifier, for direct debits (EN 16931 BT-90).' })),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'Company', description: "Your company: the seller of its invoices (EN 16931 BG-4)." },
);

export type Company = Static<typeof CompanySchema>;
