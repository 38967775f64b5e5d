import type { FastifyInstance, HTTPMethods } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { Access } from './access.js';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface RegisteredRoute {
  method: string;
  url: string;
  access: Access | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    methodNotAllowed?: boolean;
  }
  interface FastifyInstance {
    /** Every route the app serves (405 answerers excluded), for 405s, the route walk test and the docs. */
    registeredRoutes: RegisteredRoute[];
  }
}

/** Records every route as it is registered. Call before registering routes. */
export function recordRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (route.config?.methodNotAllowed) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, url: route.url, access: route.config?.access });
  });
  return routes;
}

/**
 * For each path of `pathPrefix`, adds routes answering 405 with an Allow header for the methods
 * the path does not serve. Call after the routes are registered.
 */
export function answerOtherMethods(app: FastifyInstance, routes: RegisteredRoute[], pathPrefix: string): void {
  const served = new Map<string, Set<string>>();
  for (const route of routes) {
    if (!route.url.startsWith(pathPrefix)) continue;
    served.set(route.url, (served.get(route.url) ?? new Set<string>()).add(route.method));
  }
  for (const [url, methods] of served) {
    const missing = METHODS.filter((m) => !methods.has(m));
    if (missing.length === 0) continue;
    const allow = [...methods].join(', ');
    app.route({
      method: missing,
      url,
      config: { access: { kind: 'none' }, methodNotAllowed: true },
      handler: async (request) => {
        throw new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here. Allowed: ${allow}.`, {
          headers: { allow },
        });
      },
    });
  }
}
