import type { FastifyRequest } from 'fastify';
import type { Scope } from '../db/scope.js';

/** The scope of a request that passed the key check: its key's company and mode, and the request's id. */
export function scopeOf(request: FastifyRequest): Scope {
  const auth = request.auth;
  if (!auth) throw new Error(`scopeOf(${request.method} ${request.url}) without an authenticated key`);
  return { companyId: auth.companyId, livemode: auth.livemode, requestId: request.id };
}
