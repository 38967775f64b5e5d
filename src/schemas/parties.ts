import { Type } from '@sinclair/typebox';
import { Nullable } from './nullable.js';

// The parts of a party (a buyer, a seller) as the API answers them: shared by organizations,
// the company and the snapshots in issued documents.

const NullableString = Nullable(Type.String());

/** An address as the API answers it: in an organization and in an invoice's buyer. */
export const AddressSchema = Type.Object(
  {
    line1: NullableString,
    line2: NullableString,
    city: NullableString,
    postalCode: NullableString,
    countryCode: NullableString,
  },
  { title: 'Address' },
);

export const ElectronicAddressSchema = Type.Object(
  {
    scheme: Type.String({
      description: 'The EAS code of the scheme, e.g. 0088 (GLN), 9930 (German VAT id), EM (email).',
      examples: ['0088'],
    }),
    identifier: Type.String({ examples: ['4000001123452'] }),
  },
  {
    title: 'ElectronicAddress',
    description: 'Where e-invoices are delivered (EN 16931 BT-34 / BT-49), e.g. a Peppol participant id.',
  },
);

export const ContactSchema = Type.Object(
  { name: NullableString, phone: NullableString, email: NullableString },
  { title: 'Contact' },
);
