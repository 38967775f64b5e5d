/** How many companies besides the bench's one the seeded invoices are spread over. */
export const SEED_COMPANIES: number;

/** The SQL statements that seed invoices [from, to) for `companyId`, in order (temporary tables included). */
export function seedStatements(
  dialect: 'sqlite' | 'postgres',
  companyId: string,
  from: number,
  to: number,
  now?: Date,
): string[];

/** Seeds invoices [from, to) into the database at `url` and settles it (PostgreSQL analysed and checkpointed). */
export function seedInvoices(options: {
  url: string;
  companyId: string;
  from: number;
  to: number;
}): Promise<{ seconds: number; invoices: number }>;

/** How many invoices the database at `url` holds. */
export function countInvoices(url: string): Promise<number>;
