import { isDeepStrictEqual } from 'node:util';
import { pascalCaseOf } from '../routes/schema-helpers.js';
import { errorCodesOf } from './error-responses.js';

// Most error answers are the same on every operation (401 INVALID_API_KEY, 404 NOT_FOUND, 429,
// 500, 503, …): the same description, headers, schema and examples. An error response used by
// more than one operation is kept once in components.responses, named after its codes
// (NotFound, RateLimited; ValidationErrorOrInvalidJson for several), and referred to by $ref.
// Responses only one operation has stay where they are.

type Json = Record<string, unknown>;
type Responses = Record<string, Json>;

/** The component name of an error response: its codes, and whether a stored answer may be replayed. */
function responseName(response: Json): string | undefined {
  const schema = ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as
    Json | undefined;
  const codes = errorCodesOf(schema);
  if (codes.length === 0) return undefined;
  const replayable = Object.keys((response.headers as Json | undefined) ?? {}).includes('Idempotent-Replayed');
  return codes.map(pascalCaseOf).join('Or') + (replayable ? 'Replayable' : '');
}

function errorResponsesOf(paths: Record<string, Record<string, unknown>>): Responses[] {
  return Object.values(paths).flatMap((item) =>
    Object.values(item)
      .filter(
        (operation): operation is Json =>
          typeof operation === 'object' && operation !== null && 'responses' in operation,
      )
      .map((operation) => operation.responses as Responses),
  );
}

/** Moves error responses that several operations share into `components.responses`. */
export function shareErrorResponses(paths: Record<string, Record<string, unknown>>, components: Json): void {
  const all = errorResponsesOf(paths);
  const uses = new Map<string, number>();
  const keyOf = (response: Json) => JSON.stringify(response);
  for (const responses of all) {
    for (const [status, response] of Object.entries(responses)) {
      if (Number(status) >= 400 && !('$ref' in response))
        uses.set(keyOf(response), (uses.get(keyOf(response)) ?? 0) + 1);
    }
  }
  const shared = ((components.responses as Responses | undefined) ??= {});
  for (const responses of all) {
    for (const [status, response] of Object.entries(responses)) {
      if (Number(status) < 400 || '$ref' in response || (uses.get(keyOf(response)) ?? 0) < 2) continue;
      const name = responseName(response);
      if (name === undefined) continue;
      if (shared[name] !== undefined && !isDeepStrictEqual(shared[name], response)) {
        throw new Error(`Two different error responses would be named "${name}" in components.responses.`);
      }
      shared[name] = response;
      responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
}
