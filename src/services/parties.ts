import type { CompanyRow } from '../repositories/company-repository.js';
import type { OrganizationRow } from '../repositories/organization-repository.js';
import type { Invoice } from '../schemas/invoice.js';
import { organizationFromRow } from './organization-service.js';

// The buyer and seller as an invoice shows them: snapshots taken when it is issued (so later
// edits of the organization or the company never alter an issued document), and for a draft
// the organization and company as they are now.

export type Buyer = Invoice['buyer'];
export type Seller = Invoice['seller'];

export function buyerOf(row: OrganizationRow): Buyer {
  const {
    name,
    typeCode,
    firstName,
    lastName,
    vatId,
    taxNumber,
    legalRegistrationId,
    email,
    phone,
    address,
    electronicAddress,
  } = organizationFromRow(row);
  return {
    name,
    typeCode,
    firstName,
    lastName,
    vatId,
    taxNumber,
    legalRegistrationId,
    email,
    phone,
    address,
    electronicAddress,
  };
}

export function sellerOf(company: CompanyRow): Seller {
  return {
    name: company.name,
    legalName: company.legal_name ?? null,
    vatId: company.vat_id,
    taxNumber: company.tax_number ?? null,
    legalRegistrationId: company.legal_registration_id ?? null,
    countryCode: company.country_code,
    address: {
      line1: company.address_line1 ?? null,
      line2: company.address_line2 ?? null,
      city: company.address_city ?? null,
      postalCode: company.address_postal_code ?? null,
      countryCode: company.country_code,
    },
    electronicAddress:
      company.electronic_address_scheme && company.electronic_address_id
        ? { scheme: company.electronic_address_scheme, identifier: company.electronic_address_id }
        : null,
    contact: {
      name: company.contact_name ?? null,
      phone: company.contact_phone ?? null,
      email: company.contact_email ?? null,
    },
    creditorId: company.creditor_id ?? null,
  };
}

/** A snapshot stored before the seller profile existed ({ name, vatId, countryCode }), read as today's shape. */
export function sellerFromSnapshot(json: string): Seller {
  const stored = JSON.parse(json) as Partial<Seller> & { name: string };
  return {
    name: stored.name,
    legalName: stored.legalName ?? null,
    vatId: stored.vatId ?? null,
    taxNumber: stored.taxNumber ?? null,
    legalRegistrationId: stored.legalRegistrationId ?? null,
    countryCode: stored.countryCode ?? null,
    address: stored.address ?? {
      line1: null,
      line2: null,
      city: null,
      postalCode: null,
      countryCode: stored.countryCode ?? null,
    },
    electronicAddress: stored.electronicAddress ?? null,
    contact: stored.contact ?? { name: null, phone: null, email: null },
    creditorId: stored.creditorId ?? null,
  };
}

/** Likewise for a buyer snapshot of before. */
export function buyerFromSnapshot(json: string): Buyer {
  const stored = JSON.parse(json) as Partial<Buyer> & Pick<Buyer, 'name' | 'typeCode'>;
  return {
    name: stored.name,
    typeCode: stored.typeCode,
    firstName: stored.firstName ?? null,
    lastName: stored.lastName ?? null,
    vatId: stored.vatId ?? null,
    taxNumber: stored.taxNumber ?? null,
    legalRegistrationId: stored.legalRegistrationId ?? null,
    email: stored.email ?? null,
    phone: stored.phone ?? null,
    address: stored.address ?? null,
    electronicAddress: stored.electronicAddress ?? null,
  };
}
