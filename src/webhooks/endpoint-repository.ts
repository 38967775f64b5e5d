import type { Kysely } from 'kysely';
import type { Database, WebhookEndpointsTable } from '../db/schema.js';
import { modeColumn, type Scope } from '../db/scope.js';

export type EndpointRow = WebhookEndpointsTable;

type Owner = Pick<Scope, 'companyId' | 'livemode'>;

/** Webhook endpoints, always scoped by company and mode. */
export class EndpointRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private scoped(owner: Owner, trx: Kysely<Database> = this.db) {
    return trx
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner));
  }

  async find(owner: Owner, id: string, trx?: Kysely<Database>): Promise<EndpointRow | undefined> {
    return this.scoped(owner, trx).where('id', '=', id).executeTakeFirst();
  }

  /** Newest first, after the (createdAt, id) cursor when given. */
  async list(owner: Owner, page: { limit: number; after?: { createdAt: string; id: string } }): Promise<EndpointRow[]> {
    let query = this.scoped(owner);
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
        ]),
      );
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
  }

  /** For the operator (`invoicing webhook …`): every endpoint, or one company's, in both modes. */
  async listForOperator(companyId?: string): Promise<EndpointRow[]> {
    let query = this.db.selectFrom('webhook_endpoints').selectAll();
    if (companyId !== undefined) query = query.where('company_id', '=', companyId);
    return query.orderBy('company_id').orderBy('created_at').orderBy('id').execute();
  }

  /** For the operator: an endpoint by its id alone, whichever company and mode it belongs to. */
  async findForOperator(id: string): Promise<EndpointRow | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async count(owner: Owner, trx?: Kysely<Database>): Promise<number> {
    const row = await (trx ?? this.db)
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: EndpointRow, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('webhook_endpoints').values(row).execute();
  }

  async update(
    owner: Owner,
    id: string,
    changes: Partial<Omit<EndpointRow, 'id' | 'company_id' | 'livemode' | 'created_at'>>,
    trx: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('webhook_endpoints')
      .set(changes)
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Deletes the endpoint with its deliveries, their attempts and its place in the outbox; the
   * last endpoint of its company and mode takes that mode's outbox rows along.
   */
  async delete(owner: Owner, id: string, trx: Kysely<Database>): Promise<boolean> {
    if (!(await this.find(owner, id, trx))) return false;
    await trx.deleteFrom('webhook_attempts').where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_outbox_cursors').where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
    if ((await this.count(owner, trx)) === 0) {
      await trx
        .deleteFrom('webhook_outbox')
        .where('company_id', '=', owner.companyId)
        .where('livemode', '=', modeColumn(owner))
        .execute();
    }
    return true;
  }
}
