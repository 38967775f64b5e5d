import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../../src/errors/codes.js';
import { BASE_PATH } from '../../src/http/api-version.js';
import { documentPath, isDocumented } from '../../src/openapi/document.js';
import { documentForPeople } from '../../src/openapi/docs-page.js';
import { errorCodesOf } from '../../src/openapi/error-responses.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { ContractChecker, createDocumentAjv, responseSchemaRef } from '../helpers/openapi-contract.js';

type Json = Record<string, unknown>;
type Operation = Json & {
  security?: Record<string, string[]>[];
  responses: Record<
    string,
    Json & { headers?: Json; content?: Record<string, { schema: Json; examples?: Record<string, { value: unknown }> }> }
  >;
  requestBody?: { content: Record<string, { schema: Json; examples?: Record<string, { value: unknown }> }> };
  parameters?: (Json & { name?: string; in?: string; $ref?: string })[];
};

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operations(document: Json): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ method, path, operation })),
  );
}

function pointer(...parts: string[]): string {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** A node of the document, following a local $ref (shared responses, examples, schemas). */
function resolve<T>(document: Json, node: T): T {
  const target = (node as { $ref?: unknown } | undefined)?.$ref;
  if (typeof target !== 'string') return node;
  return resolve(
    document,
    target
      .slice(2)
      .split('/')
      .reduce<unknown>((at, part) => (at as Json)[part], document) as T,
  );
}

for (const dialect of DIALECTS) {
  describe(`the OpenAPI document on ${dialect}`, () => {
    let t: TestApp;
    let document: Json;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      const res = await t.request({ method: 'GET', url: `${BASE_PATH}/openapi.json` });
      expect(res.statusCode).toBe(200);
      document = res.json();
    });
    afterAll(async () => t.close());

    it('is served at {base}/openapi.json without a key and validates as OpenAPI 3.1', async () => {
      expect(document.openapi).toBe('3.1.0');
      const validator = new Validator();
      const result = await validator.validate(structuredClone(document));
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    });

    it('describes every route the app serves under the base path, and no route it does not serve', () => {
      const served = t.app.registeredRoutes
        .filter((r) => isDocumented({ url: r.url, method: r.method as 'GET', config: {} }))
        .map((r) => `${r.method.toLowerCase()} ${documentPath(r.url)}`)
        .sort();
      const documented = operations(document)
        .map((o) => `${o.method} ${o.path}`)
        .sort();
      expect(served.length).toBeGreaterThan(5);
      expect(documented).toEqual(served);
      for (const expected of [
        'get /',
        'post /organization',
        'get /organization',
        'get /organization/{id}',
        'post /invoice',
        'get /invoice',
        'get /invoice/{id}',
        'get /openapi.json',
      ]) {
        expect(documented).toContain(expected);
      }
    });

    it('declares both security schemes and on each operation the security its access rule demands', () => {
      const schemes = (document.components as Json).securitySchemes as Json;
      expect(schemes.ApiKeyHeader).toEqual(
        expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      );
      expect(schemes.BearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
      for (const route of t.app.registeredRoutes.filter((r) =>
        isDocumented({ url: r.url, method: r.method as 'GET', config: {} }),
      )) {
        const operation = (document.paths as Json)[documentPath(route.url)] as Record<string, Operation>;
        const op = operation[route.method.toLowerCase()]!;
        const name = `${route.method} ${route.url}`;
        if (route.access?.kind === 'key') {
          expect(op.security, name).toEqual([{ ApiKeyHeader: [] }, { BearerAuth: [] }]);
          expect(op['x-permission'], name).toBe(route.access.permission);
          expect(op.responses['401'], name).toBeDefined();
          expect(op.responses['403'], name).toBeDefined();
        } else if (route.access?.kind === 'optional-key') {
          expect(op.security, name).toEqual([{}, { ApiKeyHeader: [] }, { BearerAuth: [] }]);
        } else {
          expect(op.security, name).toEqual([]);
        }
      }
    });

    it('names every error code of each status in its schema and description, with an example of each', () => {
      const codesOf = (operation: Operation, status: string) =>
        errorCodesOf(resolve(document, operation.responses[status])?.content?.['application/json']?.schema, document);
      for (const { method, path, operation } of operations(document)) {
        for (const [status, shared] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const response = resolve(document, shared);
          const json = response.content!['application/json']!;
          const codes = errorCodesOf(json.schema, document);
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const code of codes) {
            expect(ERRORS[code].status, `${code} under ${status}`).toBe(Number(status));
            expect(response.description).toContain(`\`${code}\``);
            expect(
              resolve(document, json.examples?.[code])?.value,
              `${method} ${path}: example of ${code}`,
            ).toBeDefined();
          }
        }
        // What any route can answer.
        for (const code of [
          'NOT_FOUND',
          'RATE_LIMITED',
          'INTERNAL_SERVER_ERROR',
          'SERVICE_UNAVAILABLE',
          'METHOD_NOT_ALLOWED',
        ] as ErrorCode[]) {
          expect(codesOf(operation, String(ERRORS[code].status))).toContain(code);
        }
      }
      const post = (path: string) => ((document.paths as Json)[path] as Record<string, Operation>).post!;
      expect(codesOf(post('/organization'), '409')).toEqual(
        expect.arrayContaining(['NAME_CONFLICT', 'IDEMPOTENCY_CONFLICT']),
      );
      expect(codesOf(post('/organization'), '422')).toEqual(['IDEMPOTENCY_KEY_REUSED']);
      expect(codesOf(post('/invoice'), '400')).toContain('ORGANIZATION_NOT_FOUND');
    });

    it('names the request id and rate-limit headers on every response, and Retry-After on 429', () => {
      const headers = (document.components as Json).headers as Json;
      for (const name of [
        'X-Request-Id',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'Retry-After',
        'Idempotent-Replayed',
      ]) {
        expect(headers[name], name).toBeDefined();
      }
      for (const { method, path, operation } of operations(document)) {
        expect(operation.parameters, `${method} ${path}`).toContainEqual({ $ref: '#/components/parameters/RequestId' });
        for (const [status, response] of Object.entries(operation.responses)) {
          const names = Object.keys(resolve(document, response).headers ?? {});
          expect(names, `${method} ${path} ${status}`).toEqual(
            expect.arrayContaining([
              'X-Request-Id',
              'RateLimit-Limit',
              'RateLimit-Remaining',
              'RateLimit-Reset',
              'RateLimit-Policy',
            ]),
          );
          if (status === '429') expect(names).toContain('Retry-After');
        }
      }
    });

    it('takes an Idempotency-Key on every POST and says which answers are replays', () => {
      const posts = Object.entries(document.paths as Json).filter(
        ([, item]) => (item as Record<string, Operation>).post,
      );
      expect(posts.length).toBeGreaterThanOrEqual(6);
      for (const [path, item] of posts) {
        const operation = (item as Record<string, Operation>).post!;
        const parameter = operation.parameters!.find(
          (p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key',
        );
        expect(parameter, path).toMatchObject({
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        });
        const headersOf = (status: string) => Object.keys(resolve(document, operation.responses[status])!.headers!);
        const success = Object.keys(operation.responses).find((status) => status.startsWith('2'))!;
        expect(headersOf(success), path).toContain('Idempotent-Replayed');
        expect(headersOf('409'), path).toEqual(expect.arrayContaining(['Retry-After']));
        // Answered before the handler runs, or by the idempotency layer itself: never stored.
        for (const status of ['400', '401', '413', '415', '429'])
          expect(headersOf(status), status).not.toContain('Idempotent-Replayed');
        // 422 is stored (and replayed) only when the handler itself refused (an incomplete e-invoice,
        // a received document that is refused or invalid), not a reused key.
        const handlerRefuses422 = /EINVOICE_INCOMPLETE|EINVOICE_REFUSED|EINVOICE_INVALID/.test(
          JSON.stringify(resolve(document, operation.responses['422'])),
        );
        expect(headersOf('422').includes('Idempotent-Replayed'), `${path} 422`).toBe(handlerRefuses422);
      }
    });

    it('carries a realistic example on every operation, each valid against its own schema', () => {
      const ajv = createDocumentAjv(document);
      for (const { method, path, operation } of operations(document)) {
        const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
        expect(success, `${method} ${path} has a success response`).toBeDefined();
        const [status, response] = success!;
        if (path === '/openapi.json') continue;
        // A document (UBL, CII, PDF) is answered as itself, not as JSON: its example is the format.
        if (!response.content?.['application/json']) continue;
        const example = response.content['application/json'].examples?.example?.value;
        expect(example, `${method} ${path}: response example`).toBeDefined();
        const validate = ajv.compile({ $ref: responseSchemaRef(document, path, method, status) });
        expect(validate(example), `${method} ${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        // A raw body (a received document) is the document itself: its media types are its example.
        if (operation.requestBody && !operation.requestBody.content['application/json']) {
          expect(
            Object.keys(operation.requestBody.content).length,
            `${method} ${path}: request media types`,
          ).toBeGreaterThan(0);
        } else if (operation.requestBody) {
          const body = operation.requestBody.content['application/json']!.examples?.example?.value;
          expect(body, `${method} ${path}: request example`).toBeDefined();
          const validateBody = ajv.compile({
            $ref: `openapi#/${pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema')}`,
          });
          expect(validateBody(body), `${method} ${path}: ${ajv.errorsText(validateBody.errors)}`).toBe(true);
        }
        for (const [errorStatus, errorResponse] of Object.entries(operation.responses).filter(
          ([s]) => Number(s) >= 400,
        )) {
          const validateError = ajv.compile({ $ref: responseSchemaRef(document, path, method, errorStatus) });
          for (const [code, example] of Object.entries(
            resolve(document, errorResponse).content!['application/json']!.examples ?? {},
          )) {
            const { value } = resolve(document, example);
            expect(validateError(value), `${method} ${path} ${code}: ${ajv.errorsText(validateError.errors)}`).toBe(
              true,
            );
          }
        }
      }
    });

    it('names every resource, input, envelope and error in components and refers to them by $ref', () => {
      const schemas = (document.components as Json).schemas as Record<string, Json>;
      for (const name of [
        'Organization',
        'Address',
        'CreateOrganizationInput',
        'AddressInput',
        'Invoice',
        'InvoiceLine',
        'VatBreakdown',
        'Totals',
        'Buyer',
        'Seller',
        'CreateInvoiceInput',
        'InvoiceLineInput',
        'VatCategory',
        'Quantity',
        'Price',
        'Percent',
        'Decimal',
        'Amount',
        'Health',
        'OrganizationEnvelope',
        'OrganizationPage',
        'OrganizationPageEnvelope',
        'InvoiceEnvelope',
        'InvoicePage',
        'InvoicePageEnvelope',
        'HealthEnvelope',
        'SuccessMeta',
        'ErrorEnvelope',
        'ErrorMeta',
        'ErrorDetail',
        'ValidationError',
        'NameConflictError',
        'MethodNotAllowedError',
      ]) {
        expect(schemas[name], name).toBeDefined();
      }
      const post = (path: string) => ((document.paths as Json)[path] as Record<string, Operation>).post!;
      expect(post('/invoice').requestBody!.content['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/CreateInvoiceInput',
      });
      expect(post('/invoice').responses['201']!.content!['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/InvoiceEnvelope',
      });
      expect(post('/organization').requestBody!.content['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/CreateOrganizationInput',
      });
      expect((schemas.InvoiceLineInput!.properties as Json).discountPercent).toEqual({
        anyOf: [{ $ref: '#/components/schemas/Percent' }, { type: 'null' }],
      });
      // Every titled schema went to components: no title is left inline in the operations.
      expect(JSON.stringify(document.paths)).not.toMatch(/"title":/);
      for (const [name, schema] of Object.entries(schemas)) expect(schema.title, name).toBe(name);
    });

    it('types each decimal input as a string with its pattern or a number with its range, with the limits in words too', () => {
      const schemas = (document.components as Json).schemas as Record<string, Json & { anyOf: Json[] }>;
      for (const name of ['Quantity', 'Price', 'Percent']) {
        const [text, number] = schemas[name]!.anyOf;
        expect(text, name).toMatchObject({ type: 'string', pattern: expect.any(String), maxLength: 40 });
        expect(number, name).toMatchObject({ type: 'number' });
        expect(schemas[name]!.description, name).toMatch(/decimal places|digits before the point/);
      }
      expect(schemas.Percent!.anyOf[1]).toMatchObject({ minimum: 0, maximum: 100 });
      expect(schemas.Price!.anyOf[1]).toMatchObject({ minimum: 0 });
    });

    it('documents invoice dates from 1900 to 9999, while the API keeps answering invalid_date for the others', async () => {
      const input = (
        (document.components as Json).schemas as Record<
          string,
          Json & { properties: Record<string, { anyOf: Json[] }> }
        >
      ).CreateInvoiceInput!;
      const ajv = createDocumentAjv(document);
      const validate = ajv.compile(input.properties.issueDate!.anyOf[0]!);
      expect(['1900-01-01', '2026-03-02', '9999-12-31'].map((d) => validate(d))).toEqual([true, true, true]);
      expect(['1899-12-31', '0001-01-01', '2026-13-01'].map((d) => validate(d))).toEqual([false, false, false]);
      const { key } = await t.tenant(['invoice.create']);
      const line = { name: 'Item', quantity: '1', unitPrice: '1', vatRate: '19' };
      const res = await t.post(
        '/invoice',
        { organizationId: 'org_does-not-exist', issueDate: '1899-12-31', lines: [line] },
        key,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([expect.objectContaining({ field: 'issueDate', code: 'invalid_date' })]);
    });

    it('gives path parameters an example id', () => {
      for (const [path, prefix] of [
        ['/invoice/{id}', 'inv_'],
        ['/organization/{id}', 'org_'],
      ] as const) {
        const parameter = ((document.paths as Json)[path] as Record<string, Operation>).get!.parameters!.find(
          (p) => p.in === 'path',
        );
        expect(parameter, path).toMatchObject({
          name: 'id',
          required: true,
          example: expect.stringMatching(new RegExp(`^${prefix}`)),
        });
      }
    });

    it('documents HEAD beside every GET: the same parameters, security and statuses, with the headers and no body', () => {
      const servedHeads = t.app.registeredRoutes.filter(
        (r) => r.method === 'HEAD' && (r.url === BASE_PATH || r.url.startsWith(`${BASE_PATH}/`)),
      );
      for (const route of servedHeads)
        expect(((document.paths as Json)[documentPath(route.url)] as Json | undefined)?.head, route.url).toBeDefined();
      for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
        const get = item.get;
        if (!get) continue;
        const head = item.head!;
        expect(head, path).toBeDefined();
        expect(head.operationId).toBe(
          `head${String(get.operationId)[0]!.toUpperCase()}${String(get.operationId).slice(1)}`,
        );
        expect(head.parameters).toEqual(get.parameters);
        expect(head.security).toEqual(get.security);
        expect(Object.keys(head.responses).sort()).toEqual(
          Object.keys(get.responses)
            .filter((s) => s !== '405')
            .sort(),
        );
        for (const [status, response] of Object.entries(head.responses)) {
          const resolved = resolve(document, response);
          expect(resolved.content, `HEAD ${path} ${status}`).toBeUndefined();
          expect(resolved.headers, `HEAD ${path} ${status}`).toEqual(resolve(document, get.responses[status]!).headers);
        }
      }
    });

    it('documents 405 with an Allow header on every operation of every path, and says so on the path', () => {
      const methodNotAllowed = ((document.components as Json).responses as Record<string, Json & { headers: Json }>)
        .MethodNotAllowed!;
      expect(Object.keys(methodNotAllowed.headers)).toEqual(expect.arrayContaining(['Allow', 'X-Request-Id']));
      for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
        expect(item.description, path).toMatch(/405 `METHOD_NOT_ALLOWED`/);
      }
      for (const { method, path, operation } of operations(document)) {
        expect(operation.responses['405'], `${method} ${path}`).toEqual({
          $ref: '#/components/responses/MethodNotAllowed',
        });
      }
    });

    it('names the license (proprietary: package.json names none) and a support contact', () => {
      expect(
        (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Json).license,
      ).toBeUndefined();
      expect((document.info as Json).license).toEqual({ name: 'Proprietary. All rights reserved.' });
      expect((document.info as Json).contact).toMatchObject({ email: 'support@invoicing.example' });
    });

    it('catches a response that breaks the document, so the suite-wide check cannot pass vacuously', () => {
      const checker = new ContractChecker(t.app);
      const route = `${BASE_PATH}/organization`;
      const good = JSON.stringify({
        success: false,
        error: { code: 'NAME_CONFLICT', message: 'x' },
        meta: { requestId: 'r', apiVersion: 'v1' },
      });
      expect(checker.check('POST', route, false, 409, good)).toBeNull();
      expect(checker.check('POST', route, false, 409, good.replace('NAME_CONFLICT', 'FORBIDDEN'))).toMatch(
        /does not match/,
      );
      expect(checker.check('POST', route, false, 418, good)).toMatch(/status 418 is not in the document/);
      expect(checker.check('POST', route, false, 201, JSON.stringify({ success: true, data: {} }))).toMatch(
        /does not match/,
      );
      expect(checker.check('DELETE', route, true, 405, '{"oops":1}')).toMatch(/not the error envelope/);
    });
  });
}

describe('the docs page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => t.close());

  it('renders the document with Swagger UI from local assets only, without a key', async () => {
    const page = await t.request({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    const linked = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(linked.length).toBeGreaterThan(3);
    for (const url of linked) {
      expect(url, 'no CDN').not.toMatch(/^(https?:)?\/\//);
      const asset = await t.request({ method: 'GET', url });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.body.length, url).toBeGreaterThan(0);
    }
    const initializer = await t.request({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.body).not.toMatch(/https?:\/\/(?!stackoverflow)/);
    expect(initializer.body).toContain('validatorUrl: null');

    const shown = await t.request({ method: 'GET', url: '/docs/json' });
    const served = await t.request({ method: 'GET', url: `${BASE_PATH}/openapi.json` });
    expect(shown.json()).toEqual(documentForPeople(served.json()));
  });

  it("shows people each operation's permission first, without the HEAD twins the document keeps for tools", async () => {
    const served = (await t.request({ method: 'GET', url: `${BASE_PATH}/openapi.json` })).json() as {
      paths: Record<string, Record<string, Json>>;
    };
    const shown = (await t.request({ method: 'GET', url: '/docs/json' })).json() as {
      paths: Record<string, Record<string, Json>>;
    };
    const methods = ['get', 'post', 'put', 'patch', 'delete'];
    let heads = 0;
    let operations = 0;
    for (const [path, item] of Object.entries(served.paths)) {
      if (item.head) heads += 1;
      expect(shown.paths[path], path).toBeDefined();
      expect(shown.paths[path]!.head, `HEAD ${path}`).toBeUndefined();
      for (const method of methods.filter((m) => item[m])) {
        operations += 1;
        const operation = item[method]!;
        const description = String(shown.paths[path]![method]!.description);
        const permission = operation['x-permission'];
        if (typeof permission === 'string')
          expect(description, `${method} ${path}`).toMatch(
            new RegExp(`^\\*\\*Permission:\\*\\* \`${permission.replace('.', '\\.')}\``),
          );
        else
          expect(description, `${method} ${path}`).toMatch(
            /^\*\*Permission:\*\* none; (no key needed|a key is optional)\./,
          );
        // The document's own description follows, unchanged.
        if (operation.description)
          expect(description.endsWith(`\n\n${operation.description as string}`), `${method} ${path}`).toBe(true);
      }
    }
    expect(heads).toBeGreaterThan(20);
    expect(operations).toBeGreaterThan(20);
    const paths = (doc: { paths: Record<string, Record<string, Json>> }) =>
      Object.values(doc.paths).flatMap((item) => Object.keys(item).filter((k) => methods.includes(k) || k === 'head'))
        .length;
    expect(paths(shown)).toBe(paths(served) - heads);
    expect(shown.paths['/invoice/{id}/pdf']!.get!.description).toMatch(
      /^\*\*Permission:\*\* `invoice\.read`\n\nA page a person reads/,
    );
    expect(shown.paths['/']!.get!.description).toMatch(/^\*\*Permission:\*\* none; a key is optional\./);
  });

  it("carries the product's name and icon, not the generator's logo", async () => {
    const page = await t.request({ method: 'GET', url: '/docs' });
    expect(page.body).toContain('<title>Invoicing API</title>');
    expect(page.body).toContain('src="/docs/static/theme/brand.js"');
    expect(page.body).toMatch(/<link rel="icon" type="image\/svg\+xml" href="\/docs\/static\/theme\/favicon.svg"/);
    expect(page.body).not.toContain('favicon-32x32.png');
    const script = await t.request({ method: 'GET', url: '/docs/static/theme/brand.js' });
    expect(script.body).toContain("logo.alt = 'Invoicing API'");
    // The logo the page puts in its top bar is the product's icon and name, not Swagger's.
    const initializer = (await t.request({ method: 'GET', url: '/docs/static/swagger-initializer.js' })).body;
    const logo = Buffer.from(
      /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(initializer)![1]!,
      'base64',
    ).toString('utf8');
    expect(logo).toContain('>Invoicing API</text>');
    expect(logo).toContain('<rect width="32" height="32" rx="6" fill="#1f4e79"/>');
    const icon = await t.request({ method: 'GET', url: '/docs/static/theme/favicon.svg' });
    expect(icon.headers['content-type']).toBe('image/svg+xml');
  });

  it('redirects /openapi.json at the root, beside /docs and /metrics, to the document under the base path', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const answer = await t.request({ method, url: '/openapi.json' });
      expect(answer.statusCode, method).toBe(301);
      expect(answer.headers.location, method).toBe(`${BASE_PATH}/openapi.json`);
    }
    const followed = await t.request({ method: 'GET', url: `${BASE_PATH}/openapi.json` });
    expect(followed.statusCode).toBe(200);
    expect(followed.json()).toMatchObject({ openapi: '3.1.0' });
  });

  it('declares access none on the docs routes, which live outside the base path', () => {
    const docs = t.app.registeredRoutes.filter((r) => r.url === '/docs' || r.url.startsWith('/docs/'));
    expect(docs.length).toBeGreaterThan(2);
    for (const route of docs) expect(route.access, route.url).toEqual({ kind: 'none' });
  });
});
