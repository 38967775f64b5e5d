import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, EmailTemplatesTable } from '../db/schema.js';

export type EmailTemplateRow = Selectable<EmailTemplatesTable>;

/** A company's own email templates, by document kind and language; the defaults are not stored. */
export class EmailTemplateRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(companyId: string, trx: Kysely<Database> = this.db): Promise<EmailTemplateRow[]> {
    return trx.selectFrom('email_templates').selectAll().where('company_id', '=', companyId).execute();
  }

  async find(
    companyId: string,
    kind: string,
    language: string,
    trx: Kysely<Database> = this.db,
  ): Promise<EmailTemplateRow | undefined> {
    return trx
      .selectFrom('email_templates')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('document_kind', '=', kind)
      .where('language', '=', language)
      .executeTakeFirst();
  }

  async upsert(row: EmailTemplatesTable, trx: Kysely<Database> = this.db): Promise<void> {
    await sql`insert into email_templates (company_id, document_kind, language, subject, body, updated_at)
              values (${row.company_id}, ${row.document_kind}, ${row.language}, ${row.subject}, ${row.body}, ${row.updated_at})
              on conflict (company_id, document_kind, language) do update set subject = excluded.subject, body = excluded.body, updated_at = excluded.updated_at`.execute(
      trx,
    );
  }

  async remove(companyId: string, kind: string, language: string, trx: Kysely<Database> = this.db): Promise<void> {
    await trx
      .deleteFrom('email_templates')
      .where('company_id', '=', companyId)
      .where('document_kind', '=', kind)
      .where('language', '=', language)
      .execute();
  }
}
