import type { Kysely, Selectable } from 'kysely';
import type { InsertChange } from '../db/dialect.js';
import type { Database, HostedLinksTable } from '../db/schema.js';
import type { Owner } from '../db/scope.js';

/** What a single document's answer shows of its hosted page (src/hosted fills it in). */
export interface HostedLinkFacts {
  /** The page's address; null for a draft, or where the operator set no PUBLIC_BASE_URL. */
  hostedUrl: string | null;
  /** When the page was first opened; null until then. */
  viewedAt: string | null;
}

/** The documents that have hosted pages: issued invoices and credit notes, sent quotes. */
export type HostedKind = HostedLinksTable['document_kind'];

/**
 * What the caller already knows of a document's link row: the row, read with the document, or
 * null: it has none yet (it was read without one, or the document was made in the transaction).
 * Undefined: nothing is known, the link is looked for.
 */
export type KnownHostedLink = Selectable<HostedLinksTable> | null | undefined;

/**
 * The hosted link of an issued document (or sent quote), made on first ask; read and made in `trx`
 * when given; `known` saves the lookup.
 */
export type HostedLinkOf = (
  owner: Owner,
  kind: HostedKind,
  documentId: string,
  trx?: Kysely<Database>,
  known?: KnownHostedLink,
) => Promise<HostedLinkFacts>;

const NO_LINK: HostedLinkFacts = { hostedUrl: null, viewedAt: null };

/** A document's link facts in `status`: none for a draft (it has no page), else `linkOf`'s. */
export function hostedLinkUnlessDraft(
  linkOf: HostedLinkOf,
  owner: Owner,
  kind: HostedKind,
  documentId: string,
  status: string,
  trx?: Kysely<Database>,
  known?: KnownHostedLink,
): Promise<HostedLinkFacts> {
  return status === 'draft' ? Promise.resolve(NO_LINK) : linkOf(owner, kind, documentId, trx, known);
}

/** Where no hosted pages are made (the CLI without a data key, scripts): no link. */
export const NO_HOSTED_LINK: HostedLinkOf = async () => NO_LINK;

/**
 * The link of a document made now, before it is written: what its answer shows, and the link's
 * row (none where no links are made), to be written in the same statement as the document, so
 * that both go in or neither does.
 */
export type NewHostedLink = (
  owner: Owner,
  kind: HostedKind,
  documentId: string,
  now: Date,
) => { facts: HostedLinkFacts; change: InsertChange | null };

/** Where no hosted pages are made: no link, nothing to write. */
export const NO_NEW_HOSTED_LINK: NewHostedLink = () => ({ facts: NO_LINK, change: null });
