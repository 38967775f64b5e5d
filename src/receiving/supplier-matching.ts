import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EinvoiceParty } from '../documents/einvoice-model.js';
import type { OrganizationRepository, OrganizationRow } from '../repositories/organization-repository.js';
import type { CreateOrganizationInput } from '../schemas/organization.js';
import { organizationNameKey } from '../services/organization-rules.js';
import type { OrganizationService } from '../services/organization-service.js';
import type { Scope } from '../db/scope.js';

// Whom a received document is from: its seller (BG-4) matched to an organization of the company
// by electronic address (BT-34), VAT id (BT-31) or legal registration id (BT-30), in that order,
// each compared as a key (without spaces, dots, dashes and slashes, upper-cased: identityKey);
// a seller that states none of them, by its name. Otherwise the seller becomes a new organization
// with isSupplier true, made by the organization rules we have. When its name is taken by an
// organization of another identity, the new one is named "<name> (<identity>)" — the VAT id, else
// the electronic address, else the legal registration id — and "<name> (<identity>) 2", 3, … if
// that is taken too (docs/decisions.md). A name conflict may also be another request creating the
// same supplier at this moment: the identity is looked up again before another name is tried.

export type MatchedBy = 'electronicAddress' | 'vatId' | 'legalRegistrationId' | 'name' | 'created';

export interface SupplierMatch {
  organization: OrganizationRow;
  matchedBy: MatchedBy;
}

const MAX_NAME_ATTEMPTS = 12;

const clean = (value: string | null | undefined): string | null => {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text : null;
};

const fits = (value: string | null, max: number) => (value !== null && value.length <= max ? value : null);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The identity label a new supplier's name is told apart by. */
function identityOf(seller: EinvoiceParty): string | null {
  const eaddr = seller.electronicAddress;
  return (
    clean(seller.vatId) ??
    (eaddr && clean(eaddr.id)
      ? `${clean(eaddr.schemeId) ? `${clean(eaddr.schemeId)}:` : ''}${clean(eaddr.id)}`
      : null) ??
    (seller.legalRegistrationId && clean(seller.legalRegistrationId.id) ? clean(seller.legalRegistrationId.id) : null)
  );
}

/** The organization a seller becomes: what the document says of it, within the organization's limits. */
export function supplierInput(seller: EinvoiceParty): CreateOrganizationInput {
  const address = seller.address;
  const countryCode = clean(address?.countryCode)?.toUpperCase() ?? null;
  const addressInput = {
    line1: fits(clean(address?.line1), 200),
    line2: fits(clean(address?.line2), 200),
    city: fits(clean(address?.city), 100),
    postalCode: fits(clean(address?.postalCode), 20),
    countryCode: countryCode && /^[A-Z]{2}$/.test(countryCode) ? countryCode : null,
  };
  const eaddr = seller.electronicAddress;
  const scheme = clean(eaddr?.schemeId);
  const eaddrId = fits(clean(eaddr?.id), 100);
  const legal = seller.legalRegistrationId;
  const legalId = clean(legal?.id);
  const legalScheme = clean(legal?.schemeId);
  const email = fits(clean(seller.contact?.email), 254);
  return {
    name: (
      clean(seller.name) ??
      clean(seller.tradingName) ??
      `Supplier ${identityOf(seller) ?? 'without a name'}`
    ).slice(0, 200),
    typeCode: 'P',
    isSupplier: true,
    vatId: fits(clean(seller.vatId), 32),
    taxNumber: fits(clean(seller.taxRegistrationId), 32),
    email: email && EMAIL.test(email) ? email : null,
    phone: fits(clean(seller.contact?.phone), 50),
    address: Object.values(addressInput).some((v) => v !== null) ? addressInput : null,
    electronicAddress: scheme && /^(?:\d{4}|EM)$/.test(scheme) && eaddrId ? { scheme, identifier: eaddrId } : null,
    legalRegistrationId: legalId ? fits(legalScheme ? `${legalScheme}:${legalId}` : legalId, 100) : null,
  };
}

/** The names a new supplier tries, in order. */
function candidateNames(name: string, identity: string | null): string[] {
  const suffixed = (suffix: string) => `${name.slice(0, Math.max(1, 200 - suffix.length))}${suffix}`;
  const names = [name];
  for (let n = 1; names.length < MAX_NAME_ATTEMPTS; n++)
    names.push(suffixed(identity ? ` (${identity})${n > 1 ? ` ${n}` : ''}` : ` (${n + 1})`));
  return names;
}

export class SupplierMatcher {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly organizationService: OrganizationService,
  ) {}

  /** The organization by the seller's identity, in the order of the rule; null when none matches. */
  async find(scope: Scope, seller: EinvoiceParty, t: Kysely<Database>): Promise<SupplierMatch | null> {
    const scheme = clean(seller.electronicAddress?.schemeId);
    const address = clean(seller.electronicAddress?.id);
    if (scheme && address) {
      const found = await this.organizations.findByElectronicAddress(scope, scheme, address, t);
      if (found) return { organization: found, matchedBy: 'electronicAddress' };
    }
    const vatId = clean(seller.vatId);
    const byVat = vatId && (await this.organizations.findByVatId(scope, vatId, t));
    if (byVat) return { organization: byVat, matchedBy: 'vatId' };
    const legalId = clean(seller.legalRegistrationId?.id);
    const legalScheme = clean(seller.legalRegistrationId?.schemeId);
    const byLegal =
      legalId &&
      (await this.organizations.findByLegalRegistrationId(
        scope,
        [legalId, ...(legalScheme ? [`${legalScheme}:${legalId}`] : [])],
        t,
      ));
    if (byLegal) return { organization: byLegal, matchedBy: 'legalRegistrationId' };
    return null;
  }

  /** A seller without any identifier is known only by its name. */
  private async byName(scope: Scope, name: string, t: Kysely<Database>): Promise<SupplierMatch | null> {
    const found = await this.organizations.findByNameKey(scope, organizationNameKey(name), t);
    return found ? { organization: found, matchedBy: 'name' } : null;
  }

  /** The seller's organization, found or created in `t` (marked a supplier if it was only a customer). */
  async match(scope: Scope, seller: EinvoiceParty, now: Date, t: Kysely<Database>): Promise<SupplierMatch> {
    const identity = identityOf(seller);
    const input = supplierInput(seller);
    const lookUp = () => (identity === null ? this.byName(scope, input.name, t) : this.find(scope, seller, t));
    for (const name of candidateNames(input.name, identity)) {
      // Looked up again after a name conflict: it may be another request receiving from this very seller just now.
      const found = await lookUp();
      if (found)
        return {
          ...found,
          organization: await this.organizationService.markSupplier(scope, found.organization, now, t),
        };
      const created = await this.organizationService.createInTransaction(scope, { ...input, name }, now, t);
      if (created.ok)
        return { organization: (await this.organizations.findById(scope, created.value.id, t))!, matchedBy: 'created' };
    }
    throw new Error(`No free name for the supplier "${input.name}" after ${MAX_NAME_ATTEMPTS} attempts`);
  }
}
