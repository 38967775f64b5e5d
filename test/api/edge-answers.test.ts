import { connect } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';

// Every answer the service sends is in the envelope, with X-Request-Id, no-store and nosniff:
// also the ones Fastify and Node would otherwise write themselves. The walk below sends each
// registered API route the requests that used to slip past the envelope.

const REQUEST_ID = /^req_[0-9a-f-]{36}$/;

function expectEnvelope(res: LightMyRequestResponse, status: number, code: string): void {
  expect(res.statusCode, `${res.statusCode} ${res.body}`).toBe(status);
  expect(res.headers['x-request-id']).toMatch(REQUEST_ID);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json();
  expect(body).toMatchObject({ success: false, error: { code }, meta: { requestId: res.headers['x-request-id'] } });
}

/** The route's URL with every parameter replaced. */
function withParams(url: string, value: string): string {
  return url.replace(/:[A-Za-z0-9_]+/g, value);
}

describe('answers at the edge of the service', () => {
  let t: TestApp;
  let key: string;
  let routes: { method: string; url: string }[];

  beforeAll(async () => {
    // The walks send many bad keys from one address: the failed-key limit is not what they test.
    t = await buildTestApp('sqlite', { authFailureLimit: 1_000_000, rateLimitMax: 1_000_000 });
    ({ key } = await t.tenant());
    routes = t.app.registeredRoutes.filter((r) => r.url === BASE_PATH || r.url.startsWith(`${BASE_PATH}/`));
  });
  afterAll(async () => t.close());

  it('walks every API route with a malformed percent-encoding and answers 400 VALIDATION_ERROR without echoing the URL', async () => {
    const withId = routes.filter((r) => r.url.includes(':') && r.method !== 'HEAD');
    expect(withId.length).toBeGreaterThan(0);
    for (const route of withId) {
      const res = await t.request({
        method: route.method as 'GET',
        url: withParams(route.url, 'xyz%ffqrs'),
        headers: { 'x-api-key': key },
      });
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
      expect(res.json().error.details).toEqual([
        { field: 'url', code: 'invalid_encoding', message: expect.any(String) },
      ]);
      // The marker cannot appear in a request id (hex) by chance.
      expect(res.body).not.toContain('xyz');
    }
  });

  it('walks every API route with an over-long id and answers 404 NOT_FOUND without echoing it', async () => {
    for (const route of routes.filter((r) => r.url.includes(':') && r.method !== 'HEAD')) {
      const long = 'z'.repeat(200);
      const res = await t.request({
        method: route.method as 'GET',
        url: withParams(route.url, long),
        headers: { 'x-api-key': key },
      });
      expectEnvelope(res, 404, 'NOT_FOUND');
      expect(res.body).not.toContain('zzzz');
    }
  });

  it('answers HEAD on every GET route with the GET status and headers and no body', async () => {
    const gets = routes.filter((r) => r.method === 'GET' && !r.url.endsWith('/openapi.json'));
    expect(gets.length).toBeGreaterThanOrEqual(5);
    for (const route of gets) {
      const url = withParams(route.url, 'inv_unknown');
      const get = await t.request({ method: 'GET', url, headers: { 'x-api-key': key } });
      const head = await t.request({ method: 'HEAD', url, headers: { 'x-api-key': key } });
      expect(head.statusCode, `HEAD ${url}`).toBe(get.statusCode);
      expect(head.body).toBe('');
      expect(head.headers['x-request-id']).toMatch(REQUEST_ID);
      expect(head.headers['cache-control']).toBe('no-store');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['ratelimit-limit']).toBe(get.headers['ratelimit-limit']);
    }
    // And a HEAD without a key is refused like the GET.
    const anonymous = await t.request({ method: 'HEAD', url: `${BASE_PATH}/organization` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('walks every keyed route with a repeated X-API-Key and answers 401, even when both copies are the valid key', async () => {
    for (const route of routes.filter((r) => r.method !== 'HEAD' && !r.url.endsWith('/openapi.json'))) {
      const res = await t.request({
        method: route.method as 'GET',
        url: withParams(route.url, 'inv_unknown'),
        headers: { 'x-api-key': [key, key] },
        ...(route.method === 'POST' ? { payload: {} } : {}),
      });
      expectEnvelope(res, 401, 'INVALID_API_KEY');
    }
  });

  it('walks every keyed route with two Authorization headers and answers 401, whichever comes first', async () => {
    for (const route of routes.filter((r) => r.method !== 'HEAD' && !r.url.endsWith('/openapi.json'))) {
      for (const pair of [
        [`Bearer ${key}`, 'Bearer inv_live_AAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAA'],
        ['Bearer inv_live_AAAAAAAA_AAAAAAAAAAAAAAAAAAAAAAAA', `Bearer ${key}`],
      ]) {
        const res = await t.request({
          method: route.method as 'GET',
          url: withParams(route.url, 'inv_unknown'),
          headers: { authorization: pair as unknown as string },
          ...(route.method === 'POST' ? { payload: {} } : {}),
        });
        expectEnvelope(res, 401, 'INVALID_API_KEY');
      }
    }
  });

  it('answers a repeated Idempotency-Key on every creating route with 400 VALIDATION_ERROR and creates nothing', async () => {
    const posts = routes.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThanOrEqual(2);
    const before = await t.get('/organization', key);
    for (const route of posts) {
      const res = await t.request({
        method: 'POST',
        url: withParams(route.url, 'inv_unknown'),
        headers: { 'x-api-key': key, 'idempotency-key': ['first', 'second'] },
        payload: { name: 'Twice Keyed', isCustomer: true },
      });
      expectEnvelope(res, 400, 'VALIDATION_ERROR');
      expect(res.json().error.details).toContainEqual({
        field: 'Idempotency-Key',
        code: 'duplicate_header',
        message: 'Send this header once.',
      });
    }
    expect((await t.get('/organization', key)).json().data.items).toHaveLength(before.json().data.items.length);
  });

  it('answers a JSON body in another charset with 415 instead of misreading it', async () => {
    const res = await t.request({
      method: 'POST',
      url: `${BASE_PATH}/organization`,
      headers: { 'x-api-key': key, 'content-type': 'application/json; charset=iso-8859-1' },
      payload: Buffer.from('{"name":"Caf\xe9","isCustomer":true}', 'latin1'),
    });
    expectEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const utf8 = await t.request({
      method: 'POST',
      url: `${BASE_PATH}/organization`,
      headers: { 'x-api-key': key, 'content-type': 'application/json; charset=UTF-8' },
      payload: '{"name":"Café UTF","isCustomer":true}',
    });
    expect(utf8.statusCode).toBe(201);
    expect(utf8.json().data.name).toBe('Café UTF');
  });

  it('answers headers larger than the server accepts with 431 REQUEST_HEADERS_TOO_LARGE in the envelope', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = await new Promise<string>((done, fail) => {
      const socket = connect(Number(port), '127.0.0.1');
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('close', () => done(data));
      socket.on('error', fail);
      socket.write(`GET ${BASE_PATH}/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1.1 431 /);
    expect(head).toMatch(/\r\nx-request-id: req_[0-9a-f-]{36}\r\n/i);
    expect(head).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(head).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(JSON.parse(body!)).toMatchObject({ success: false, error: { code: 'REQUEST_HEADERS_TOO_LARGE' } });
  });
});
