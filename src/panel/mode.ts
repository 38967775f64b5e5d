import type { FastifyRequest } from 'fastify';
import type { Owner, Scope } from '../db/scope.js';
import { MODE_COOKIE, signedInUser } from './context.js';

// Which of its company's two worlds the panel shows: live data (the default), or the test
// sandbox that inv_test_ keys write to. The choice is a cookie of the browser, not a setting of
// the user: two tabs of one person may look at different worlds only by switching back and forth,
// and every page says which world it shows.

export function panelLivemode(request: FastifyRequest): boolean {
  return request.cookies[MODE_COOKIE] !== 'test';
}

/** The signed-in user's company, in the world the panel shows. */
export function panelOwner(request: FastifyRequest): Owner {
  return { companyId: signedInUser(request).companyId, livemode: panelLivemode(request) };
}

/** The same, for changes made from the panel. */
export function panelScope(request: FastifyRequest): Scope {
  return { ...panelOwner(request), requestId: request.id };
}
