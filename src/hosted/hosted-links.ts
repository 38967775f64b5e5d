import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Owner, Scope } from '../db/scope.js';
import type { EventRecorder } from '../events/event-recorder.js';
import type { Sealer } from '../lib/sealer.js';
import type { HostedLinkFacts, KnownHostedLink, NewHostedLink } from '../services/hosted-link-port.js';
import type { HostedDocumentKind, HostedLinkRepository, HostedLinkRow } from './hosted-link-repository.js';

// The links to hosted pages. A token is 32 random bytes (base64url, 43 characters); it is never
// stored in clear nor logged: its SHA-256 finds the link, and it is kept sealed under the data key
// so that every answer can show the same URL again (docs/hosted-pages.md, docs/decisions.md).

/** The path under which hosted pages live; the token follows it. */
export const HOSTED_PATH = '/hosted';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The event the first view of each kind's page writes. */
const VIEWED = { invoice: 'invoice.viewed', 'credit-note': 'credit-note.viewed', quote: 'quote.viewed' } as const;

export const tokenHashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** The document's answer as the API gives it, for the object of a `viewed` event. */
export type AnswerOf = (owner: Owner, kind: HostedDocumentKind, id: string, trx: Kysely<Database>) => Promise<unknown>;

export interface HostedLinksOptions {
  /** PUBLIC_BASE_URL without a trailing slash; null: links are kept, but answers show no URL. */
  publicBaseUrl: string | null;
}

export class HostedLinks {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly links: HostedLinkRepository,
    private readonly sealer: Sealer,
    private readonly events: EventRecorder,
    private readonly answerOf: AnswerOf,
    private readonly options: HostedLinksOptions,
  ) {}

  /** Whether links can be made here: a data key to seal the token with. */
  get enabled(): boolean {
    return this.sealer.canSeal;
  }

  /** Where a token's page is: its URL, or its path on this host without PUBLIC_BASE_URL (for the page's own links). */
  pageAddress(token: string): string {
    return this.urlOf(token) ?? `${HOSTED_PATH}/${token}`;
  }

  private urlOf(token: string): string | null {
    return this.options.publicBaseUrl === null ? null : `${this.options.publicBaseUrl}${HOSTED_PATH}/${token}`;
  }

  private newToken(): { token: string; tokenHash: string; sealedToken: string } {
    const token = randomBytes(32).toString('base64url');
    return { token, tokenHash: tokenHashOf(token), sealedToken: this.sealer.seal(token) };
  }

  /**
   * An issued document's link as its answer shows it, made the first time it is asked for (two
   * answers at once make one). Without PUBLIC_BASE_URL nothing is made: there is no URL to show.
   * A link `known` to the caller (read with the document, or known to be absent) is not looked for.
   */
  async linkOf(
    owner: Owner,
    kind: HostedDocumentKind,
    documentId: string,
    trx: Kysely<Database> = this.db,
    known?: KnownHostedLink,
  ): Promise<HostedLinkFacts> {
    const existing =
      known === undefined ? await this.links.findForDocument(owner, documentId, trx) : (known ?? undefined);
    if (this.options.publicBaseUrl === null || !this.enabled)
      return { hostedUrl: null, viewedAt: existing?.viewed_at ?? null };
    const row = existing ?? (await this.ensure(owner, kind, documentId, trx));
    return { hostedUrl: this.urlOf(this.sealer.open(row.sealed_token)), viewedAt: row.viewed_at };
  }

  /**
   * The first link of a document made now, not yet written: its facts and its row, which the
   * caller writes with the document (NewHostedLink). Without PUBLIC_BASE_URL nothing is made, as
   * linkOf makes nothing.
   */
  newLink(owner: Owner, kind: HostedDocumentKind, documentId: string, now: Date): ReturnType<NewHostedLink> {
    if (this.options.publicBaseUrl === null || !this.enabled)
      return { facts: { hostedUrl: null, viewedAt: null }, change: null };
    const { token, tokenHash, sealedToken } = this.newToken();
    const row = this.links.firstRow(owner, { documentId, kind, tokenHash, sealedToken, now: now.toISOString() });
    return { facts: { hostedUrl: this.urlOf(token), viewedAt: null }, change: { table: 'hosted_links', row } };
  }

  private async ensure(owner: Owner, kind: HostedDocumentKind, documentId: string, trx: Kysely<Database>) {
    const { tokenHash, sealedToken } = this.newToken();
    return this.links.insertIfAbsent(
      owner,
      { documentId, kind, tokenHash, sealedToken, now: new Date().toISOString() },
      trx,
    );
  }

  /** Revokes the document's link and makes a new one (the document's issued state is checked by the caller). */
  async rotate(
    owner: Owner,
    kind: HostedDocumentKind,
    documentId: string,
    trx: Kysely<Database> = this.db,
  ): Promise<void> {
    const existing = await this.links.findForDocument(owner, documentId, trx);
    if (!existing) {
      await this.ensure(owner, kind, documentId, trx);
      return;
    }
    const { tokenHash, sealedToken } = this.newToken();
    await this.links.rotate(owner, documentId, { tokenHash, sealedToken, now: new Date().toISOString() }, trx);
  }

  /** The link a token opens; undefined for a token of no link (unknown, or rotated away). */
  async resolve(token: string): Promise<HostedLinkRow | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    return this.links.findByTokenHash(tokenHashOf(token));
  }

  /**
   * A view of the page: the first one sets viewedAt and writes `invoice.viewed` (or
   * `credit-note.viewed`, `quote.viewed`) in the same transaction; later ones change nothing.
   */
  async recordView(link: HostedLinkRow, requestId: string | null, now: Date = new Date()): Promise<void> {
    if (link.viewed_at !== null) return;
    const owner: Owner = { companyId: link.company_id, livemode: link.livemode === 1 };
    await this.db.transaction().execute(async (t) => {
      const first = await this.links.recordFirstView(owner, link.document_id, now.toISOString(), t);
      if (!first) return;
      const scope: Scope = { ...owner, requestId };
      const type = VIEWED[link.document_kind];
      await this.events.record(
        t,
        scope,
        type,
        await this.answerOf(owner, link.document_kind, link.document_id, t),
        now,
      );
    });
  }
}
