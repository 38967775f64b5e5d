import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { BASE_PATH } from '../../src/http/api-version.js';
import { ErrorEnvelope } from '../../src/http/envelope.js';
import { documentPath } from '../../src/openapi/document.js';

// The contract check every test app runs: each response under the base path must match the
// OpenAPI document's schema for its operation and status. Answers without an operation (no
// route: 404; a method the path does not serve: 405) must still be the error envelope.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/**
 * The `$ref` (into the document registered as "openapi") of the schema an operation answers a
 * status with; shared responses live in components.responses.
 */
export function responseSchemaRef(document: Json, path: string, method: string, status: string): string {
  const responses = ((document.paths as Json)[path] as Record<string, Json>)[method]!.responses as Record<string, Json>;
  const target = responses[status]?.$ref;
  const response =
    typeof target === 'string' ? target.slice(2).split('/') : ['paths', path, method, 'responses', status];
  return `openapi#/${pointer(...response, 'content', 'application/json', 'schema')}`;
}

export function createDocumentAjv(document: Json): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'openapi' });
  return ajv;
}

export class ContractChecker {
  private ajv: Ajv2020 | undefined;
  private document: Json | undefined;
  private readonly validators = new Map<string, ValidateFunction>();
  private envelope: ValidateFunction | undefined;
  readonly failures: string[] = [];

  /** Throws (once) for every mismatch seen so far, so the test that caused it fails. */
  assertClean(): void {
    if (this.failures.length === 0) return;
    const found = this.failures.splice(0);
    throw new Error(`Responses that break the OpenAPI document:\n${found.join('\n')}`);
  }

  constructor(private readonly app: FastifyInstance) {}

  private load(): { ajv: Ajv2020; document: Json } {
    if (!this.ajv || !this.document) {
      this.document = structuredClone(this.app.swagger()) as unknown as Json;
      this.ajv = createDocumentAjv(this.document);
      this.envelope = this.ajv.compile(ErrorEnvelope);
    }
    return { ajv: this.ajv, document: this.document };
  }

  /** For answers that are not JSON: the document must name their media type for the status. */
  checkMediaType(method: string, routeUrl: string | undefined, status: number, mediaType: string): string | null {
    const { document } = this.load();
    if (routeUrl === undefined) return `${method} (no route) ${status}: a ${mediaType} answer without a route`;
    const path = documentPath(routeUrl);
    const operation = ((document.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
    const content = ((operation?.responses as Json | undefined)?.[String(status)] as { content?: Json } | undefined)
      ?.content;
    return content?.[mediaType] ? null : `${method} ${path} ${status}: ${mediaType} is not in the document`;
  }

  /** Returns a description of the mismatch, or null when the response matches the document. */
  check(
    method: string,
    routeUrl: string | undefined,
    methodNotAllowed: boolean,
    status: number,
    body: string,
  ): string | null {
    const { ajv, document } = this.load();
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return `${method} ${routeUrl ?? '(no route)'} ${status}: the body is not JSON`;
    }
    if (routeUrl === undefined || methodNotAllowed) {
      if (!this.envelope!(parsed))
        return `${method} ${routeUrl ?? '(no route)'} ${status}: not the error envelope: ${ajv.errorsText(this.envelope!.errors)}`;
      return null;
    }
    const path = documentPath(routeUrl);
    const operation = ((document.paths as Json)[path] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
    if (!operation) return `${method} ${path}: the document has no such operation`;
    const responses = operation.responses as Json;
    if (!responses[String(status)])
      return `${method} ${path}: status ${status} is not in the document (${Object.keys(responses).join(', ')})`;
    const key = `${method} ${path} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: responseSchemaRef(document, path, method.toLowerCase(), String(status)) });
      this.validators.set(key, validate);
    }
    if (!validate(parsed)) {
      return `${key}: the body does not match the document: ${ajv.errorsText(validate.errors)}\n${body.slice(0, 2000)}`;
    }
    return null;
  }
}

/** Adds the check to an app that is not ready yet; mismatches are collected in the returned checker. */
export function addContractCheck(app: FastifyInstance): ContractChecker {
  const checker = new ContractChecker(app);
  app.addHook('onSend', async (request, reply, payload) => {
    if (!(
      request.url === BASE_PATH ||
      request.url.startsWith(`${BASE_PATH}/`) ||
      request.url.startsWith(`${BASE_PATH}?`)
    ))
      return payload;
    if (request.method === 'HEAD') return payload;
    const mediaType = String(reply.getHeader('content-type') ?? '')
      .split(';')[0]!
      .trim();
    if (mediaType !== 'application/json' && mediaType !== '') {
      // A document (UBL, CII, PDF): the operation must declare that media type for this status.
      const failure = checker.checkMediaType(request.method, request.routeOptions.url, reply.statusCode, mediaType);
      if (failure) checker.failures.push(failure);
      return payload;
    }
    if (typeof payload !== 'string') {
      checker.failures.push(`${request.method} ${request.url} ${reply.statusCode}: the body is not a JSON string`);
      return payload;
    }
    const config = request.routeOptions.config as { methodNotAllowed?: boolean } | undefined;
    const failure = checker.check(
      request.method,
      request.routeOptions.url,
      config?.methodNotAllowed === true,
      reply.statusCode,
      payload,
    );
    if (failure) checker.failures.push(failure);
    return payload;
  });
  return checker;
}
