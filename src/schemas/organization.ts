import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './nullable.js';
import { AddressSchema, ElectronicAddressSchema } from './parties.js';
import { Livemode } from './values.js';

const OptionalText = (maxLength: number, extra: Record<string, unknown> = {}) =>
  Type.Optional(Nullable(Type.String({ maxLength, ...extra })));

export const AddressInput = Type.Object(
  {
    line1: OptionalText(200),
    line2: OptionalText(200),
    city: OptionalText(100),
    postalCode: OptionalText(20),
    countryCode: Type.Optional(
      Nullable(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, e.g. DE' })),
    ),
  },
  { title: 'AddressInput', additionalProperties: false },
);

export const ElectronicAddressInput = Type.Object(
  {
    scheme: Type.String({
      pattern: '^(?:\\d{4}|EM)$',
      description: 'The EAS code, e.g. 0088 (GLN), 0208 (Belgian enterprise number), 9930 (German VAT id), EM (email).',
    }),
    identifier: Type.String({ minLength: 1, maxLength: 100 }),
  },
  {
    title: 'ElectronicAddressInput',
    additionalProperties: false,
    description: 'Where e-invoices for this organization are delivered (EN 16931 BT-49), e.g. its Peppol id.',
  },
);

/** F: a natural person; P: a legal entity. */
export const OrganizationTypeCode = Type.Union([Type.Literal('F'), Type.Literal('P')]);

export const CreateOrganizationBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Unique within the company (trimmed, case-insensitive).',
    }),
    typeCode: Type.Optional(
      Type.Union([Type.Literal('F'), Type.Literal('P')], {
        description: 'F: natural person (firstName and lastName required); P: legal entity (default).',
      }),
    ),
    firstName: OptionalText(100),
    lastName: OptionalText(100),
    isCustomer: Type.Optional(Type.Boolean({ description: 'Organization type flag; at least one flag must be true.' })),
    isSupplier: Type.Optional(Type.Boolean({ description: 'Organization type flag; at least one flag must be true.' })),
    email: OptionalText(254, { format: 'email' }),
    phone: OptionalText(50),
    vatId: OptionalText(32),
    taxNumber: OptionalText(32),
    address: Type.Optional(Nullable(AddressInput)),
    electronicAddress: Type.Optional(Nullable(ElectronicAddressInput)),
    legalRegistrationId: OptionalText(100, {
      description:
        'The company register number or other legal registration id (EN 16931 BT-47). "<ICD scheme>:<id>" names its ISO 6523 scheme (0106:12345678, 0208:0123456749); a Dutch party\'s eight-digit KVK or twenty-digit OIN number gets its scheme by itself.',
    }),
  },
  { title: 'CreateOrganizationInput', additionalProperties: false },
);

export type CreateOrganizationInput = Static<typeof CreateOrganizationBody>;

/**
 * PATCH /organization/{id}: any field of the create body, merged with the stored organization
 * (a field sent as null clears it), and `archived`. The spec's rules then apply to the merged
 * result, in their order.
 */
export const UpdateOrganizationBody = Type.Object(
  {
    ...Type.Partial(CreateOrganizationBody).properties,
    name: Type.Optional(
      Nullable(Type.String({ maxLength: 200, description: 'Unique within the company (trimmed, case-insensitive).' })),
    ),
    archived: Type.Optional(
      Type.Boolean({
        description:
          'true archives the organization (it leaves the default list and can no longer be the buyer of a new invoice); false restores it.',
      }),
    ),
  },
  { title: 'UpdateOrganizationInput', additionalProperties: false },
);

export type UpdateOrganizationInput = Static<typeof UpdateOrganizationBody>;

const NullableString = Nullable(Type.String());

export const OrganizationSchema = Type.Object(
  {
    id: Type.String({ examples: ['org_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }),
    livemode: Livemode,
    name: Type.String(),
    typeCode: OrganizationTypeCode,
    firstName: NullableString,
    lastName: NullableString,
    isCustomer: Type.Boolean(),
    isSupplier: Type.Boolean(),
    email: NullableString,
    phone: NullableString,
    vatId: NullableString,
    taxNumber: NullableString,
    address: Nullable(AddressSchema),
    electronicAddress: Nullable(ElectronicAddressSchema),
    legalRegistrationId: NullableString,
    archived: Type.Boolean({
      description:
        'Archived organizations are listed only with archived=true and cannot be the buyer of a new invoice.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Organization' },
);

export type Organization = Static<typeof OrganizationSchema>;
