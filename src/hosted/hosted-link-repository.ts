import type { Kysely, Selectable } from 'kysely';
import type { Database, HostedLinksTable } from '../db/schema.js';
import { modeColumn, type Owner } from '../db/scope.js';

export type HostedLinkRow = Selectable<HostedLinksTable>;
export type HostedDocumentKind = HostedLinksTable['document_kind'];

/** A document's first link: its token's hash and sealed token, made at `now`. */
export interface NewLink {
  documentId: string;
  kind: HostedDocumentKind;
  tokenHash: string;
  sealedToken: string;
  now: string;
}

/** The links of hosted pages: one per issued document, found by the hash of its token. */
export class HostedLinkRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findForDocument(
    owner: Owner,
    documentId: string,
    trx: Kysely<Database> = this.db,
  ): Promise<HostedLinkRow | undefined> {
    return trx
      .selectFrom('hosted_links')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('document_id', '=', documentId)
      .executeTakeFirst();
  }

  /** The link whose token has this hash: the one lookup that is not scoped, because the token is the scope. */
  async findByTokenHash(tokenHash: string, trx: Kysely<Database> = this.db): Promise<HostedLinkRow | undefined> {
    return trx.selectFrom('hosted_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** A document's first link as a row, for an insert here or in the statement that writes the document. */
  firstRow(owner: Owner, link: NewLink): HostedLinkRow {
    return {
      document_id: link.documentId,
      company_id: owner.companyId,
      livemode: modeColumn(owner),
      document_kind: link.kind,
      token_hash: link.tokenHash,
      sealed_token: link.sealedToken,
      version: 1,
      created_at: link.now,
      rotated_at: null,
      viewed_at: null,
    };
  }

  /** Makes the document's first link unless one exists (two answers at once make one); the link as stored. */
  async insertIfAbsent(owner: Owner, link: NewLink, trx: Kysely<Database> = this.db): Promise<HostedLinkRow> {
    await trx
      .insertInto('hosted_links')
      .values(this.firstRow(owner, link))
      .onConflict((oc) => oc.column('document_id').doNothing())
      .execute();
    return (await this.findForDocument(owner, link.documentId, trx))!;
  }

  /** Replaces the token (the old one finds nothing from now on) and counts the version up. */
  async rotate(
    owner: Owner,
    documentId: string,
    next: { tokenHash: string; sealedToken: string; now: string },
    trx: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('hosted_links')
      .set((eb) => ({
        token_hash: next.tokenHash,
        sealed_token: next.sealedToken,
        version: eb('version', '+', 1),
        rotated_at: next.now,
      }))
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('document_id', '=', documentId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Sets the first view's time unless set: true for exactly one view (the first), however many run at once. */
  async recordFirstView(owner: Owner, documentId: string, now: string, trx: Kysely<Database> = this.db) {
    const result = await trx
      .updateTable('hosted_links')
      .set({ viewed_at: now })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('document_id', '=', documentId)
      .where('viewed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
