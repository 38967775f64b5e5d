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
  const { name, typeCode, firstName, lastName, vatId, taxNumber, email, address } = organizationFromRow(row);
  return { name, typeCode, firstName, lastName, vatId, taxNumber, email, address };
}

export function sellerOf(company: CompanyRow): Seller {
  return { name: company.name, vatId: company.vat_id, countryCode: company.country_code };
}
