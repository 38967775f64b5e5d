import { ApiKeyVerifier } from './auth/verify-api-key.js';
import type { Storage } from './db/database.js';
import { IdempotencyService } from './idempotency/idempotency-service.js';
import { ApiKeyRepository } from './repositories/api-key-repository.js';
import { CompanyRepository } from './repositories/company-repository.js';
import { InvoiceRepository } from './repositories/invoice-repository.js';
import { OrganizationRepository } from './repositories/organization-repository.js';
import { EventRepository } from './repositories/event-repository.js';
import { PaymentRepository } from './repositories/payment-repository.js';
import { UserRepository } from './repositories/user-repository.js';
import { SessionRepository } from './repositories/session-repository.js';
import { SetupTokenRepository } from './repositories/setup-token-repository.js';
import { TestDataRepository } from './repositories/test-data-repository.js';
import { ApiKeyService } from './services/api-key-service.js';
import { CompanyService } from './services/company-service.js';
import { InvoiceService } from './services/invoice-service.js';
import { OrganizationService } from './services/organization-service.js';
import { CreditNoteRepository } from './repositories/credit-note-repository.js';
import { SettlementService } from './services/settlement-service.js';
import { PaymentService } from './services/payment-service.js';
import { CompanyProfiles } from './services/company-profile.js';
import { renderPdf } from './documents/index.js';
import { DocumentService, type PdfRenderer } from './services/document-service.js';
import { EventRecorder } from './events/event-recorder.js';
import { Sealer } from './lib/sealer.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from './config.js';
import { DeliveryRepository } from './webhooks/delivery-repository.js';
import { Outbox } from './webhooks/outbox-repository.js';
import { DeliveryWorker } from './webhooks/delivery-worker.js';
import { EndpointRepository } from './webhooks/endpoint-repository.js';
import { EndpointService } from './webhooks/endpoint-service.js';
import { systemResolve, type Resolve } from './webhooks/url-safety.js';
import { inThreadReader, type DocumentReader } from './documents/read/read-pool.js';
import { PurchaseInvoiceService } from './receiving/purchase-invoice-service.js';
import { EmailDeliveryRepository } from './delivery/email-delivery-repository.js';
import { EmailDeliveryService, emailDeliveryOf } from './delivery/email-delivery-service.js';
import { EmailTemplateRepository } from './delivery/email-template-repository.js';
import { EmailWorker } from './delivery/email-worker.js';
import { smtpMailer } from './delivery/mailer.js';
import type { EmailConfig } from './config.js';
import { QuoteRepository } from './quotes/quote-repository.js';
import { QuoteService } from './quotes/quote-service.js';
import { ReminderRepository } from './delivery/reminder-repository.js';
import { ReminderService, reminderOf } from './delivery/reminder-service.js';
import { ReminderScheduler } from './delivery/reminder-scheduler.js';
import { RecurringRepository } from './recurring/recurring-repository.js';
import { RecurringService } from './recurring/recurring-service.js';
import { RecurringScheduler } from './recurring/recurring-scheduler.js';
import { HostedLinkRepository } from './hosted/hosted-link-repository.js';
import { HostedLinks } from './hosted/hosted-links.js';
import type { HostedQuotes } from './hosted/quote-page.js';
import { creditNoteFromRows } from './services/credit-note-mapping.js';
import type { HostedLinkOf } from './services/hosted-link-port.js';

/** The composition root: repositories over one storage, and the services built on them. */
export interface Container {
  storage: Storage;
  companies: CompanyService;
  apiKeys: ApiKeyService;
  organizations: OrganizationService;
  invoices: InvoiceService;
  settlement: SettlementService;
  /** Payments and refunds of issued invoices. */
  payments: PaymentService;
  companyProfiles: CompanyProfiles;
  documents: DocumentService;
  /** Writes events (and their webhook deliveries) in the transactions of the changes. */
  events: EventRecorder;
  organizationRepository: OrganizationRepository;
  /** Events read back (GET /event) and purged after their retention. */
  eventRepository: EventRepository;
  /** The repositories the API's reads (GET lists and items) and the panel go through. */
  repositories: {
    companies: CompanyRepository;
    apiKeys: ApiKeyRepository;
    /** Panel accounts, their sessions and the first-run setup's tokens. */
    users: UserRepository;
    sessions: SessionRepository;
    setupTokens: SetupTokenRepository;
    /** A company's test data, deleted as a whole. */
    testData: TestDataRepository;
    organizations: OrganizationRepository;
    invoices: InvoiceRepository;
    creditNotes: CreditNoteRepository;
    payments: PaymentRepository;
    events: EventRepository;
  };
  /** Received e-invoices: intake, reading back, lifecycle (src/receiving). */
  purchaseInvoices: PurchaseInvoiceService;
  /** Quotes and the invoices made of them (src/quotes). */
  quotes: QuoteService;
  /** Sent quotes as their hosted page sees them (src/hosted's port onto src/quotes). */
  hostedQuotes: HostedQuotes;
  /** Recurring invoices and their runs (src/recurring). */
  recurring: RecurringService;
  /** Runs due recurring invoices; started by the app when it is ready (unless turned off), stopped at close. */
  recurringScheduler: RecurringScheduler;
  /** Seals secrets the service reads back (webhook signing secrets). */
  sealer: Sealer;
  webhookEndpoints: EndpointService;
  webhookEndpointRepository: EndpointRepository;
  deliveries: DeliveryRepository;
  outbox: Outbox;
  /** Sends due webhook deliveries; started by the app when it is ready, stopped at close. */
  deliveryWorker: DeliveryWorker;
  idempotency: IdempotencyService;
  verifier: ApiKeyVerifier;
  /** Sending invoices and credit notes by email (src/delivery). */
  emailDeliveries: EmailDeliveryService;
  /** The links to hosted pages of issued documents (src/hosted). */
  hostedLinks: HostedLinks;
  /** Sends queued messages; absent without SMTP settings. Started by the app when it is ready, stopped at close. */
  emailWorker?: EmailWorker;
  /** Reminder policies, invoices' reminders and pauses (src/delivery). */
  reminders: ReminderService;
  /** Runs reminder passes: the in-service loop (started by the app when it is ready) and `invoicing reminders run`. */
  reminderScheduler: ReminderScheduler;
}

export interface ContainerOptions {
  apiKeyCacheTtlMs: number;
  onBackgroundError?: (error: unknown) => void;
  /** The data keys, newest first (see resolveDataKeys); none where nothing is sealed (the CLI). */
  dataKeys?: Buffer[];
  /** How PDFs are rendered: the app's worker pool; in-thread where none is given (the CLI, scripts). */
  pdf?: PdfRenderer;
  /** How received documents are read: the app's worker pool; in-thread where none is given (the CLI, scripts). */
  reader?: DocumentReader;
  /** Webhook delivery settings; absent where nothing is delivered (the CLI). */
  webhooks?: {
    allowPrivateUrls: boolean;
    retryScheduleMs: readonly number[];
    maxConcurrent: number;
    /** How host names are resolved (tests play DNS with it). */
    resolve?: Resolve;
    onError: (error: unknown, what: string) => void;
    onDisabled?: (endpointId: string) => void;
  };
  /** Reminder passes: how often the in-service loop runs one (0: never), and where its errors go. */
  reminders?: { intervalMs: number; onError: (error: unknown, what: string) => void };
  /** The sending address (SMTP_FROM) where messages are queued but not sent here (the CLI's reminder pass). */
  emailFrom?: string;
  /** The recurring invoice scheduler's interval (RECURRING_INTERVAL_SECONDS) and where its errors go. */
  recurring?: { intervalMs: number; onError: (error: unknown, what: string) => void };
  /** PUBLIC_BASE_URL: hosted page links are built from it; none (null hostedUrl) without it. */
  publicBaseUrl?: string | null;
  /** Sending by email; absent where nothing is sent (no SMTP_URL, the CLI). */
  email?: {
    config: EmailConfig;
    onError: (error: unknown, what: string) => void;
  };
}

export function createContainer(storage: Storage, options: ContainerOptions): Container {
  const companyRepository = new CompanyRepository(storage.db);
  const apiKeyRepository = new ApiKeyRepository(storage.db);
  const organizationRepository = new OrganizationRepository(storage.db);
  const invoiceRepository = new InvoiceRepository(storage.db, storage.dialect);
  const creditNoteRepository = new CreditNoteRepository(storage.db, storage.dialect);
  const eventRepository = new EventRepository(storage.db);
  const events = new EventRecorder(storage.db, storage.dialect);
  const sealer = new Sealer(options.dataKeys ?? []);
  const webhooks = options.webhooks ?? {
    allowPrivateUrls: false,
    retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
    maxConcurrent: 1,
    onError: (error: unknown) => options.onBackgroundError?.(error),
  };
  const resolve = webhooks.resolve ?? systemResolve;
  const webhookEndpointRepository = new EndpointRepository(storage.db);
  const deliveries = new DeliveryRepository(storage.db, storage.dialect);
  const outbox = new Outbox(storage.db, storage.dialect);
  const deliveryWorker = new DeliveryWorker(deliveries, outbox, sealer, {
    maxConcurrent: webhooks.maxConcurrent,
    retryScheduleMs: webhooks.retryScheduleMs,
    allowPrivateUrls: webhooks.allowPrivateUrls,
    resolve,
    onError: webhooks.onError,
    ...(webhooks.onDisabled ? { onDisabled: webhooks.onDisabled } : {}),
  });
  events.onOutbox(() => deliveryWorker.dispatchSoon());
  const emailDeliveryRepository = new EmailDeliveryRepository(storage.db, storage.dialect);
  // A viewed event's object is the document as its answer shows it (the invoices are made below).
  const hostedLinks: HostedLinks = new HostedLinks(
    storage.db,
    new HostedLinkRepository(storage.db),
    sealer,
    events,
    async (owner, kind, id, trx) => {
      if (kind === 'invoice') return invoices.get(owner, id, new Date(), trx);
      if (kind === 'quote') return quotes.get(owner, id, new Date(), trx);
      const found = await creditNoteRepository.findWithAnswerRows(owner, id, trx);
      if (!found) return undefined;
      const hosted = await hostedLinkOf(owner, kind, id, trx, found.hostedLink);
      return creditNoteFromRows(found.creditNote, found.lines, found.deliveries.map(emailDeliveryOf), hosted);
    },
    { publicBaseUrl: options.publicBaseUrl ?? null },
  );
  const hostedLinkOf: HostedLinkOf = (owner, kind, id, trx, known) => hostedLinks.linkOf(owner, kind, id, trx, known);
  const reminderRepository = new ReminderRepository(storage.db, storage.dialect);
  const emailTemplateRepository = new EmailTemplateRepository(storage.db);
  const invoices = new InvoiceService(
    storage.db,
    invoiceRepository,
    organizationRepository,
    companyRepository,
    events,
    (rows) => rows.map(emailDeliveryOf),
    hostedLinkOf,
    (rows) => rows.map(reminderOf),
    (owner, kind, id, now) => hostedLinks.newLink(owner, kind, id, now),
  );
  const organizations = new OrganizationService(storage.db, organizationRepository, events);
  const pdf = options.pdf ?? { render: renderPdf };
  const quotes = new QuoteService(
    storage.db,
    new QuoteRepository(storage.db),
    organizationRepository,
    companyRepository,
    invoices,
    events,
    pdf,
    hostedLinkOf,
  );
  // The hosted quote page sees quotes through this port: the capability folders do not import each other.
  const hostedQuotes: HostedQuotes = {
    facts: (owner, id, now) => quotes.pageFacts(owner, id, now),
    pdf: (owner, id, lang) => quotes.renderPdf(owner, id, lang),
    answer: async (scope, id, answer, now) => {
      const result = await quotes.answer(scope, id, answer, now);
      return result.ok ? { ok: true } : { ok: false, code: result.code };
    },
  };
  const documents = new DocumentService(
    invoiceRepository,
    creditNoteRepository,
    companyRepository,
    organizationRepository,
    pdf,
  );
  const emailWorker = options.email
    ? new EmailWorker(storage.db, emailDeliveryRepository, documents, events, smtpMailer(options.email.config), {
        maxConcurrent: options.email.config.maxConcurrent,
        retryScheduleMs: options.email.config.retryScheduleMs,
        onError: options.email.onError,
        hostedUrlOf: async (owner, kind, id) => (await hostedLinks.linkOf(owner, kind, id)).hostedUrl,
      })
    : undefined;
  const emailDeliveries = new EmailDeliveryService(
    storage.db,
    emailDeliveryRepository,
    documents,
    emailTemplateRepository,
    options.email
      ? { from: options.email.config.from }
      : options.emailFrom !== undefined
        ? { from: options.emailFrom }
        : undefined,
    () => emailWorker?.nudge(),
  );
  const reminders = new ReminderService(
    storage.db,
    reminderRepository,
    companyRepository,
    invoiceRepository,
    emailTemplateRepository,
  );
  const reminderScheduler = new ReminderScheduler(
    storage.db,
    reminderRepository,
    reminders,
    emailDeliveries,
    documents,
    invoices,
    events,
    options.reminders ?? { intervalMs: 0, onError: (error: unknown) => options.onBackgroundError?.(error) },
  );
  // Recurring runs send through delivery/, a capability of its own: the port is built here.
  const recurring = new RecurringService(
    storage.db,
    new RecurringRepository(storage.db, storage.dialect),
    organizationRepository,
    companyRepository,
    invoices,
    events,
    async (scope, invoiceId, body, now, trx) => {
      const queued = await emailDeliveries.queue(scope, 'invoice', invoiceId, body, now, trx);
      if (queued.ok) return { ok: true, deliveryId: queued.value.id };
      const details = queued.details?.map((d) => d.message).join(' ');
      return { ok: false, reason: `${queued.code}: ${queued.message ?? details ?? 'the message was refused.'}` };
    },
  );
  const recurringScheduler = new RecurringScheduler(recurring, {
    intervalMs: options.recurring?.intervalMs ?? 60_000,
    onError: options.recurring?.onError ?? ((error: unknown) => options.onBackgroundError?.(error)),
  });
  return {
    storage,
    recurring,
    recurringScheduler,
    companies: new CompanyService(companyRepository),
    apiKeys: new ApiKeyService(storage.db, apiKeyRepository, companyRepository),
    organizations,
    events,
    organizationRepository,
    eventRepository,
    repositories: {
      companies: companyRepository,
      apiKeys: apiKeyRepository,
      users: new UserRepository(storage.db),
      sessions: new SessionRepository(storage.db),
      setupTokens: new SetupTokenRepository(storage.db),
      testData: new TestDataRepository(storage.db),
      organizations: organizationRepository,
      invoices: invoiceRepository,
      creditNotes: creditNoteRepository,
      payments: new PaymentRepository(storage.db),
      events: eventRepository,
    },
    invoices,
    companyProfiles: new CompanyProfiles(storage.db, companyRepository),
    documents,
    quotes,
    hostedQuotes,
    purchaseInvoices: new PurchaseInvoiceService(
      storage.db,
      storage.dialect,
      options.reader ?? inThreadReader(),
      organizationRepository,
      organizations,
      events,
      pdf,
    ),
    settlement: new SettlementService(
      storage.db,
      invoiceRepository,
      creditNoteRepository,
      invoices,
      events,
      (owner, kind, id, now) => hostedLinks.newLink(owner, kind, id, now),
    ),
    payments: new PaymentService(storage.db, invoiceRepository, invoices, events),
    sealer,
    webhookEndpoints: new EndpointService(
      storage.db,
      webhookEndpointRepository,
      sealer,
      deliveries,
      outbox,
      eventRepository,
      {
        allowPrivateUrls: webhooks.allowPrivateUrls,
        resolve,
        onEnqueued: () => deliveryWorker.nudge(),
      },
    ),
    webhookEndpointRepository,
    deliveries,
    outbox,
    deliveryWorker,
    idempotency: new IdempotencyService(storage.db, { sealer }),
    emailDeliveries,
    hostedLinks,
    ...(emailWorker ? { emailWorker } : {}),
    reminders,
    reminderScheduler,
    verifier: new ApiKeyVerifier(apiKeyRepository, {
      cacheTtlMs: options.apiKeyCacheTtlMs,
      ...(options.onBackgroundError ? { onBackgroundError: options.onBackgroundError } : {}),
    }),
  };
}
