/**
 * Whose data a change touches and on whose behalf it is made: the company (and, with test mode,
 * which of its two worlds), and the request that asked for it, which its events name.
 */
export interface Scope {
  companyId: string;
  /** Live data (true), or the company's test sandbox (false). */
  livemode: boolean;
  /** The request that made the change; null for changes made outside a request (CLI, jobs). */
  requestId: string | null;
}

/** A scope for changes made outside a request: the CLI, the panel's own jobs, tests. */
export function scopeFor(companyId: string, options: { livemode?: boolean; requestId?: string | null } = {}): Scope {
  return { companyId, livemode: options.livemode ?? true, requestId: options.requestId ?? null };
}

/** Whose data a read or write touches: a company, in one of its two worlds. */
export type Owner = Pick<Scope, 'companyId' | 'livemode'>;

/** The stored form of a mode (1 live, 0 test). */
export function modeColumn(owner: Pick<Scope, 'livemode'>): number {
  return owner.livemode ? 1 : 0;
}
