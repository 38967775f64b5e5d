import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { withJitter } from '../lib/jitter.js';
import { LeasingWorker } from '../lib/leasing.js';
import type { DocumentKind, DocumentService } from '../services/document-service.js';
import type {
  Attachment,
  AttemptResult,
  EmailDeliveryRepository,
  EmailDeliveryRow,
} from './email-delivery-repository.js';
import { emailDeliveryOf, xmlRequestOf } from './email-delivery-service.js';
import { ATTEMPT_MAX_MS, type Mailer } from './mailer.js';
import type { EmailLanguage, XmlFormat } from '../schemas/email-delivery.js';
import { withHostedUrl, type HostedUrlOf } from './templates.js';

// The email worker of one instance: it leases due queued messages (as webhook deliveries are
// leased, Dialect.leaseDeliveries), builds each message's attachments from the same renderings
// the API's downloads answer, hands it to the relay, and records the end of the attempt with its
// event in one transaction, only while it still holds the lease. A worker that dies (SIGKILL)
// lets its leases run out and any instance takes the messages up again. The relay may have taken
// a message just before such a death: it is then sent again, with the same Message-ID, which
// receivers use to drop the copy; a message is never lost.

/** How long a lease holds: longer than an attempt can take, building the attachments included. */
export const EMAIL_LEASE_MS = ATTEMPT_MAX_MS + 60_000;
const POLL_INTERVAL_MS = 1000;
const NUDGE_DELAY_MS = 10;

export interface EmailWorkerOptions {
  maxConcurrent: number;
  retryScheduleMs: readonly number[];
  onError: (error: unknown, what: string) => void;
  clock?: () => Date;
  /** The document's hosted page URL (src/hosted, through the container), put in for {{hostedUrl}} as the message is sent. */
  hostedUrlOf?: HostedUrlOf;
}

export class EmailWorker {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly clock: () => Date;
  private readonly leasing: LeasingWorker<EmailDeliveryRow>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly deliveries: EmailDeliveryRepository,
    private readonly documents: DocumentService,
    private readonly events: EventRecorder,
    private readonly mailer: Mailer,
    private readonly options: EmailWorkerOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.leasing = new LeasingWorker<EmailDeliveryRow>({
      intervalMs: POLL_INTERVAL_MS,
      nudgeDelayMs: NUDGE_DELAY_MS,
      maxConcurrent: options.maxConcurrent,
      lease: (limit) => this.deliveries.lease({ owner: this.owner, now: this.clock(), leaseMs: EMAIL_LEASE_MS, limit }),
      release: (ids) => this.deliveries.release(ids, this.owner),
      idOf: (row) => row.id,
      attempt: (row) => this.attempt(row),
      // A message handed to the relay is not taken back: stop lets it end (bounded by the SMTP timeouts).
      abortAtStop: false,
      onError: (error, what) => this.options.onError(error, what),
      lookWhat: 'leasing email deliveries',
      jobWhat: (row) => `sending ${row.id}`,
    });
  }

  start(): void {
    this.leasing.start();
  }

  /** A message was queued (or a slot freed): look soon. */
  nudge(): void {
    this.leasing.nudge();
  }

  /** Works until every message due now is sent or its attempt recorded (tests prove "nothing more" with it). */
  drain(): Promise<void> {
    return this.leasing.drain();
  }

  /** Stops leasing, lets attempts in flight end (each is bounded by the SMTP timeouts) and closes the transport. */
  async stop(): Promise<void> {
    if (!this.leasing.isRunning) return;
    await this.leasing.stop();
    this.mailer.close();
  }

  /** The PDF (the CII inside) and the XML, the same bytes as GET …/pdf?lang= and the XML download. */
  private async attachmentsOf(
    row: EmailDeliveryRow,
  ): Promise<
    | { ok: true; files: { filename: string; contentType: string; content: Buffer }[] }
    | { ok: false; permanent: boolean; reason: string }
  > {
    const owner = { companyId: row.company_id, livemode: row.livemode === 1 };
    const kind = row.document_kind as DocumentKind;
    const now = this.clock();
    const files: { filename: string; contentType: string; content: Buffer }[] = [];
    for (const request of [
      { format: 'pdf', lang: row.language as EmailLanguage } as const,
      xmlRequestOf(row.xml_format as XmlFormat),
    ]) {
      const result = await this.documents.render(kind, owner, row.document_id, request, now);
      if (!result.ok) {
        if (result.code === 'SERVICE_UNAVAILABLE') return { ok: false, permanent: false, reason: result.message };
        return {
          ok: false,
          permanent: true,
          reason: `the ${request.format.toUpperCase()} could not be made: ${result.code}`,
        };
      }
      files.push({
        filename: result.filename,
        contentType: result.contentType.split(';')[0]!,
        content: Buffer.isBuffer(result.body) ? result.body : Buffer.from(result.body, 'utf8'),
      });
    }
    return { ok: true, files };
  }

  private async attempt(row: EmailDeliveryRow): Promise<void> {
    const at = () => this.clock();
    const built = await this.attachmentsOf(row);
    let result: AttemptResult;
    let attachments: Attachment[] | null = null;
    if (!built.ok) {
      result = this.afterFailure(row, at(), built.reason, null, built.permanent, null);
    } else {
      attachments = built.files.map((file) => ({
        filename: file.filename,
        contentType: file.contentType,
        size: file.content.length,
        sha256: createHash('sha256').update(file.content).digest('hex'),
      }));
      const outcome = await this.mailer.send({
        from: row.from_address,
        replyTo: row.reply_to,
        to: JSON.parse(row.recipients_to) as string[],
        cc: JSON.parse(row.recipients_cc) as string[],
        subject: row.subject,
        text: withHostedUrl(
          row.body_text,
          (await this.options.hostedUrlOf?.(
            { companyId: row.company_id, livemode: row.livemode === 1 },
            row.document_kind,
            row.document_id,
          )) ?? null,
        ),
        messageId: row.message_id,
        attachments: built.files,
      });
      result = outcome.ok
        ? { kind: 'sent', at: at(), smtpResponse: outcome.response ?? '', attachments }
        : this.afterFailure(
            row,
            at(),
            outcome.reason ?? 'the relay did not take the message',
            outcome.response,
            outcome.permanent,
            attachments,
          );
    }
    await this.record(row, result);
    if (result.kind === 'retry') {
      const wait = result.retryAt.getTime() - result.at.getTime();
      if (wait < POLL_INTERVAL_MS) setTimeout(() => this.nudge(), wait).unref();
    }
  }

  private afterFailure(
    row: EmailDeliveryRow,
    at: Date,
    reason: string,
    smtpResponse: string | null,
    permanent: boolean,
    attachments: Attachment[] | null,
  ): AttemptResult {
    const delay = this.options.retryScheduleMs[row.attempts];
    if (permanent || delay === undefined) return { kind: 'failed', at, reason, smtpResponse, attachments };
    return {
      kind: 'retry',
      at,
      retryAt: new Date(at.getTime() + withJitter(delay)),
      reason,
      smtpResponse,
      attachments,
    };
  }

  /** The attempt's end and, when it is the end of the message (sent or failed), its event. */
  private async record(row: EmailDeliveryRow, result: AttemptResult): Promise<void> {
    const kind = row.document_kind as DocumentKind;
    await this.db.transaction().execute(async (t) => {
      if (!(await this.deliveries.recordAttempt(t, row.id, this.owner, result))) return;
      if (result.kind === 'retry') return;
      // A reminder's message had its event (invoice.reminder_sent) when it was queued; a failure still tells.
      if (row.purpose === 'reminder' && result.kind === 'sent') return;
      const after = (await this.deliveries.findRecorded(t, row.id))!;
      const scope = { companyId: row.company_id, livemode: row.livemode === 1, requestId: row.request_id };
      const type =
        kind === 'invoice'
          ? result.kind === 'sent'
            ? 'invoice.sent'
            : 'invoice.send_failed'
          : result.kind === 'sent'
            ? 'credit-note.sent'
            : 'credit-note.send_failed';
      await this.events.record(t, scope, type, emailDeliveryOf(after), result.at);
    });
  }
}
