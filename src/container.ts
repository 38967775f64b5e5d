import { ApiKeyVerifier } from './auth/verify-api-key.js';
import type { Storage } from './db/database.js';
import { IdempotencyService } from './idempotency/idempotency-service.js';
import { ApiKeyRepository } from './repositories/api-key-repository.js';
import { CompanyRepository } from './repositories/company-repository.js';
import { InvoiceRepository } from './repositories/invoice-repository.js';
import { OrganizationRepository } from './repositories/organization-repository.js';
import { ApiKeyService } from './services/api-key-service.js';
import { CompanyService } from './services/company-service.js';
import { InvoiceService } from './services/invoice-service.js';
import { OrganizationService } from './services/organization-service.js';
import { CreditNoteRepository } from './repositories/credit-note-repository.js';
import { SettlementService } from './services/settlement-service.js';
import { CompanyProfiles } from './services/company-profile.js';
import { DocumentService } from './services/document-service.js';
import { EventRecorder } from './events/event-recorder.js';

/** The composition root: repositories over one storage, and the services built on them. */
export interface Container {
  storage: Storage;
  companies: CompanyService;
  apiKeys: ApiKeyService;
  organizations: OrganizationService;
  invoices: InvoiceService;
  settlement: SettlementService;
  companyProfiles: CompanyProfiles;
  documents: DocumentService;
  /** Writes events (and their webhook deliveries) in the transactions of the changes. */
  events: EventRecorder;
  organizationRepository: OrganizationRepository;
  idempotency: IdempotencyService;
  verifier: ApiKeyVerifier;
}

export interface ContainerOptions {
  apiKeyCacheTtlMs: number;
  onBackgroundError?: (error: unknown) => void;
}

export function createContainer(storage: Storage, options: ContainerOptions): Container {
  const companyRepository = new CompanyRepository(storage.db);
  const apiKeyRepository = new ApiKeyRepository(storage.db);
  const organizationRepository = new OrganizationRepository(storage.db);
  const invoiceRepository = new InvoiceRepository(storage.db);
  const creditNoteRepository = new CreditNoteRepository(storage.db);
  const events = new EventRecorder();
  const invoices = new InvoiceService(storage.db, invoiceRepository, organizationRepository, companyRepository, events);
  return {
    storage,
    companies: new CompanyService(companyRepository),
    apiKeys: new ApiKeyService(apiKeyRepository, companyRepository),
    organizations: new OrganizationService(storage.db, organizationRepository, events),
    events,
    organizationRepository,
    invoices,
    companyProfiles: new CompanyProfiles(storage.db),
    documents: new DocumentService(invoiceRepository, creditNoteRepository, companyRepository, organizationRepository),
    settlement: new SettlementService(storage.db, invoiceRepository, creditNoteRepository, invoices, events),
    idempotency: new IdempotencyService(storage.db),
    verifier: new ApiKeyVerifier(apiKeyRepository, {
      cacheTtlMs: options.apiKeyCacheTtlMs,
      ...(options.onBackgroundError ? { onBackgroundError: options.onBackgroundError } : {}),
    }),
  };
}
