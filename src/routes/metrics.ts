import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { Metrics } from '../metrics/metrics.js';

function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(/^Bearer[ \t]+(\S+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** GET /metrics in the Prometheus text format, outside the public API; guarded when METRICS_TOKEN is set. */
export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; token: string | undefined }> = async (
  app,
  { metrics, token },
) => {
  app.get('/metrics', { config: { access: { kind: 'none' } } }, async (request, reply) => {
    if (token !== undefined && !tokenMatches(request.headers.authorization, token)) {
      throw new AppError('UNAUTHORIZED', 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
};
