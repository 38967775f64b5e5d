import type { FastifyInstance, HTTPMethods } from 'fastify';
import { AppError } from '../errors/app-error.js';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Collects the methods of every route as it is registered; `answerOtherMethods` then adds, for
 * each path, routes answering 405 with an Allow header for the methods it does not serve.
 * Register the collector before the routes and call the answerer after them.
 */
export function collectRouteMethods(app: FastifyInstance): Map<string, Set<string>> {
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.config?.methodNotAllowed) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of methods) known.add(method);
    methodsByPath.set(route.url, known);
  });
  return methodsByPath;
}

export function answerOtherMethods(app: FastifyInstance, methodsByPath: Map<string, Set<string>>): void {
  for (const [url, served] of [...methodsByPath]) {
    const missing = METHODS.filter((m) => !served.has(m));
    if (missing.length === 0) continue;
    const allow = [...served].join(', ');
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

declare module 'fastify' {
  interface FastifyContextConfig {
    methodNotAllowed?: boolean;
  }
}
