import type { FastifyRequest } from 'fastify';

/** How often a header occurs in the raw request (Node joins some repeats and drops others). */
export function headerCount(request: FastifyRequest, name: string): number {
  const raw = request.raw.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) count += 1;
  return count;
}
