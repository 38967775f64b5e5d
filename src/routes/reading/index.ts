import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { InvoiceQueries } from './invoice-queries.js';
import { invoiceReadingRoutes } from './invoices.js';
import { OrganizationQueries } from './organization-queries.js';
import { organizationReadingRoutes } from './organizations.js';

export interface ReadingRoutesOptions {
  db: Kysely<Database>;
  /** RESPONSE_MAX_BYTES: a list page ends before the item that would make the answer larger. */
  responseMaxBytes: number;
}

/** GET /organization[/{id}] and GET /invoice[/{id}]. Register inside the base path. */
export const readingRoutes: FastifyPluginAsync<ReadingRoutesOptions> = async (app, { db, responseMaxBytes }) => {
  await app.register(organizationReadingRoutes, { queries: new OrganizationQueries(db), responseMaxBytes });
  await app.register(invoiceReadingRoutes, { queries: new InvoiceQueries(db), responseMaxBytes });
};
