import type { HostedLinkOf } from '../../services/hosted-link-port.js';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors/app-error.js';
import { ConcurrencyGate } from '../../lib/concurrency-gate.js';
import type { CompanyRepository } from '../../repositories/company-repository.js';
import type { CreditNoteRepository } from '../../repositories/credit-note-repository.js';
import type { EventRepository } from '../../repositories/event-repository.js';
import type { InvoiceRepository } from '../../repositories/invoice-repository.js';
import type { OrganizationRepository } from '../../repositories/organization-repository.js';
import type { PaymentRepository } from '../../repositories/payment-repository.js';
import type { InvoiceService } from '../../services/invoice-service.js';
import { CreditNoteQueries } from './credit-note-queries.js';
import { creditNoteReadingRoutes } from './credit-notes.js';
import { EventQueries } from './event-queries.js';
import { eventReadingRoutes } from './events.js';
import { InvoiceQueries } from './invoice-queries.js';
import { invoiceReadingRoutes } from './invoices.js';
import { OrganizationQueries } from './organization-queries.js';
import { organizationReadingRoutes } from './organizations.js';
import { PaymentQueries } from './payment-queries.js';
import { paymentReadingRoutes } from './payments.js';

export interface ReadingRoutesOptions {
  /** The repositories the reads go through (the container's). */
  repositories: {
    companies: CompanyRepository;
    organizations: OrganizationRepository;
    invoices: InvoiceRepository;
    creditNotes: CreditNoteRepository;
    payments: PaymentRepository;
    events: EventRepository;
  };
  invoices: InvoiceService;
  /** A credit note's hosted page link, shown in its answer (read with it, made on first ask). */
  hostedLinkOf: HostedLinkOf;
  /** RESPONSE_MAX_BYTES: a list page ends before the item that would make the answer larger. */
  responseMaxBytes: number;
}

/**
 * Invoice reads can be large (up to a megabyte each): at most this many are built at once per
 * process, the rest wait their turn, so that their memory and database connections stay bounded
 * whatever the number of clients, and small requests (health, writes) are not starved.
 */
const LARGE_READS_AT_ONCE = 4;
const LARGE_READS_WAITING = 1000;

/** GET /organization[/{id}], GET /invoice[/{id}], GET /credit-note[/{id}], GET /payment[/{id}] and GET /event[/{id}]. Register inside the base path. */
export const readingRoutes: FastifyPluginAsync<ReadingRoutesOptions> = async (
  app,
  { repositories, invoices, hostedLinkOf, responseMaxBytes },
) => {
  const { companies, organizations, creditNotes, payments, events } = repositories;
  const largeReads = new ConcurrencyGate(
    LARGE_READS_AT_ONCE,
    LARGE_READS_WAITING,
    () =>
      new AppError('SERVICE_UNAVAILABLE', 'Too many large reads are waiting. Retry shortly.', {
        headers: { 'retry-after': '1' },
      }),
  );
  await app.register(organizationReadingRoutes, { queries: new OrganizationQueries(organizations), responseMaxBytes });
  await app.register(invoiceReadingRoutes, {
    queries: new InvoiceQueries(repositories.invoices, organizations, companies, invoices),
    responseMaxBytes,
    largeReads,
  });
  await app.register(creditNoteReadingRoutes, {
    queries: new CreditNoteQueries(creditNotes, hostedLinkOf),
    responseMaxBytes,
    largeReads,
  });
  await app.register(paymentReadingRoutes, { queries: new PaymentQueries(payments), responseMaxBytes });
  await app.register(eventReadingRoutes, { queries: new EventQueries(events), responseMaxBytes });
};
