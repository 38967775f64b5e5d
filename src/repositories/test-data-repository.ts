import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** What a reset deleted, by kind. */
export interface TestDataReset {
  organizations: number;
  invoices: number;
  creditNotes: number;
  payments: number;
  events: number;
  purchaseInvoices: number;
}

/** A company's test data, deleted as a whole (the panel's and the CLI's test-data reset). */
export class TestDataRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Deletes every piece of a company's test data (organizations, quotes, recurring invoices with their runs, and invoices with their lines,
   * payments, credit notes, received purchase invoices with their files and payments, events with their deliveries and outbox rows, idempotency records)
   * and resets its test number counters, in one transaction. Live data is not touched: every
   * statement names livemode 0, or rows reached only through test rows. Test keys and test webhook
   * endpoints stay: they are how the company works with its sandbox, not what it put in it.
   */
  async deleteAll(companyId: string): Promise<TestDataReset> {
    return this.db.transaction().execute(async (t) => {
      const testEndpoints = t
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0);
      const testEvents = t
        .selectFrom('events')
        .select('id')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0);
      const testInvoices = t
        .selectFrom('invoices')
        .select('id')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0);
      const testCreditNotes = t
        .selectFrom('credit_notes')
        .select('id')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0);

      await t
        .deleteFrom('webhook_attempts')
        .where('company_id', '=', companyId)
        .where((eb) => eb.or([eb('endpoint_id', 'in', testEndpoints), eb('event_id', 'in', testEvents)]))
        .execute();
      await t
        .deleteFrom('webhook_deliveries')
        .where('company_id', '=', companyId)
        .where((eb) => eb.or([eb('endpoint_id', 'in', testEndpoints), eb('event_id', 'in', testEvents)]))
        .execute();
      await t.deleteFrom('webhook_outbox').where('event_id', 'in', testEvents).execute();
      const events = await t
        .deleteFrom('events')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0)
        .executeTakeFirst();
      const payments = await t
        .deleteFrom('payments')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0)
        .executeTakeFirst();
      await t
        .deleteFrom('credit_note_lines')
        .where('company_id', '=', companyId)
        .where('credit_note_id', 'in', testCreditNotes)
        .execute();
      const creditNotes = await t
        .deleteFrom('credit_notes')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0)
        .executeTakeFirst();
      // Quotes point at invoices and organizations: they go before both.
      const testQuotes = t
        .selectFrom('quotes')
        .select('id')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0);
      await t
        .deleteFrom('quote_lines')
        .where('company_id', '=', companyId)
        .where('quote_id', 'in', testQuotes)
        .execute();
      await t.deleteFrom('quotes').where('company_id', '=', companyId).where('livemode', '=', 0).execute();
      // Recurring invoices and their runs point at invoices and organizations too.
      await t
        .deleteFrom('recurring_invoice_runs')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0)
        .execute();
      await t.deleteFrom('recurring_invoices').where('company_id', '=', companyId).where('livemode', '=', 0).execute();
      await t
        .deleteFrom('invoice_lines')
        .where('company_id', '=', companyId)
        .where('invoice_id', 'in', testInvoices)
        .execute();
      const invoices = await t
        .deleteFrom('invoices')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0)
        .executeTakeFirst();
      // Received documents (with their files and payments) point at organizations: they go first.
      await t.deleteFrom('purchase_payments').where('company_id', '=', companyId).where('livemode', '=', 0).execute();
      await t
        .deleteFrom('purchase_invoice_files')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0)
        .execute();
      const purchaseInvoices = await t
        .deleteFrom('purchase_invoices')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0)
        .executeTakeFirst();
      const organizations = await t
        .deleteFrom('organizations')
        .where('company_id', '=', companyId)
        .where('livemode', '=', 0)
        .executeTakeFirst();
      await t.deleteFrom('number_sequences').where('company_id', '=', companyId).where('livemode', '=', 0).execute();
      await t.deleteFrom('idempotency_records').where('company_id', '=', companyId).where('livemode', '=', 0).execute();
      return {
        organizations: Number(organizations.numDeletedRows),
        invoices: Number(invoices.numDeletedRows),
        creditNotes: Number(creditNotes.numDeletedRows),
        payments: Number(payments.numDeletedRows),
        events: Number(events.numDeletedRows),
        purchaseInvoices: Number(purchaseInvoices.numDeletedRows),
      };
    });
  }
}
