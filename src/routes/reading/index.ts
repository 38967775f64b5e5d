import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { InvoiceQueries } from './invoice-queries.js';
import { invoiceReadingRoutes } from './invoices.js';
import { OrganizationQueries } from './organization-queries.js';
import { organizationReadingRoutes } from './organizations.js';

/** GET /organization[/{id}] and GET /invoice[/{id}]. Register inside the base path. */
export const readingRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  await app.register(organizationReadingRoutes, { queries: new OrganizationQueries(db) });
  await app.register(invoiceReadingRoutes, { queries: new InvoiceQueries(db) });
};
