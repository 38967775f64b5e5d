import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';

// The envelope, request ids and the general error answers do not depend on the database.

class LogCapture extends Writable {
  lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    for (const line of chunk.toString().split('\n')) if (line.trim()) this.lines.push(JSON.parse(line));
    done();
  }
}

const REQ_UUID = /^req_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('response envelope and request ids', () => {
  let t: TestApp;
  let key: string;
  const log = new LogCapture();

  beforeAll(async () => {
    t = await buildTestApp('sqlite', { bodyLimitBytes: 2048 }, { logStream: log });
    ({ key } = await t.tenant(['organization.create']));
  });
  afterAll(async () => t.close());

  it('wraps success in the spec envelope with request and response times', async () => {
    const before = Date.now();
    const res = await t.post('/organization', { name: 'Envelope Co', isCustomer: true }, key);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'meta', 'success']);
    expect(body.success).toBe(true);
    expect(Object.keys(body.meta).sort()).toEqual(['apiVersion', 'requestId', 'requestTime', 'timestamp']);
    expect(body.meta.apiVersion).toBe('v1');
    const requestTime = Date.parse(body.meta.requestTime);
    const timestamp = Date.parse(body.meta.timestamp);
    expect(body.meta.requestTime).toBe(new Date(requestTime).toISOString());
    expect(requestTime).toBeGreaterThanOrEqual(before - 1);
    expect(timestamp).toBeGreaterThanOrEqual(requestTime);
  });

  it('wraps errors in the spec error envelope', async () => {
    const res = await t.post('/organization', {}, key);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'meta', 'success']);
    expect(body.success).toBe(false);
    expect(Object.keys(body.meta).sort()).toEqual(['apiVersion', 'requestId']);
    expect(body.error).toEqual({ code: 'NAME_REQUIRED', message: expect.any(String) });
  });

  it('echoes a valid client request id in the header and the body', async () => {
    const res = await t.get('', undefined, { 'x-request-id': 'client-42.a:b_c' });
    expect(res.headers['x-request-id']).toBe('client-42.a:b_c');
    expect(res.json().meta.requestId).toBe('client-42.a:b_c');
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with spaces', 'has space'],
    ['with a slash', 'a/b'],
    ['empty', ''],
  ])('replaces a client request id that is %s with a generated one', async (_what, id) => {
    const res = await t.get('', undefined, { 'x-request-id': id });
    expect(res.headers['x-request-id']).toMatch(REQ_UUID);
    expect(res.json().meta.requestId).toBe(res.headers['x-request-id']);
  });

  it('generates req_<uuid v4> when the client sends none, different every time', async () => {
    const a = await t.get('');
    const b = await t.get('');
    expect(a.headers['x-request-id']).toMatch(REQ_UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  const errorCases: [
    string,
    () => Promise<{
      statusCode: number;
      headers: Record<string, unknown>;
      json: () => { meta: { requestId: string }; error: { code: string } };
    }>,
    number,
    string,
  ][] = [
    ['an unknown path', () => t.get('/nothing-here'), 404, 'NOT_FOUND'],
    ['an unserved version', () => t.request({ method: 'GET', url: '/api/v9.9.9/public' }), 404, 'NOT_FOUND'],
    ['a path outside the API', () => t.request({ method: 'GET', url: '/no/such/page' }), 404, 'NOT_FOUND'],
    ['a missing key', () => t.post('/organization', { name: 'A', isCustomer: true }), 401, 'INVALID_API_KEY'],
    [
      'a wrong method',
      () => t.request({ method: 'DELETE', url: `${BASE_PATH}/organization` }),
      405,
      'METHOD_NOT_ALLOWED',
    ],
    [
      'an over-limit body',
      () => t.post('/organization', { name: 'x'.repeat(5000), isCustomer: true }, key),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    [
      'a text body',
      () =>
        t.request({
          method: 'POST',
          url: `${BASE_PATH}/organization`,
          payload: 'name=x',
          headers: { 'content-type': 'text/plain', 'x-api-key': key },
        }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a form body',
      () =>
        t.request({
          method: 'POST',
          url: `${BASE_PATH}/organization`,
          payload: 'name=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': key },
        }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'broken JSON',
      () =>
        t.request({
          method: 'POST',
          url: `${BASE_PATH}/organization`,
          payload: '{"name":',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
        }),
      400,
      'INVALID_JSON',
    ],
    [
      'an empty JSON body',
      () =>
        t.request({
          method: 'POST',
          url: `${BASE_PATH}/organization`,
          payload: '',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
        }),
      400,
      'INVALID_JSON',
    ],
    [
      'a __proto__ key',
      () =>
        t.request({
          method: 'POST',
          url: `${BASE_PATH}/organization`,
          payload: '{"name":"P","isCustomer":true,"__proto__":{"admin":true}}',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
        }),
      400,
      'INVALID_JSON',
    ],
  ];
  for (const [what, send, status, code] of errorCases) {
    it(`answers ${what} with ${status} ${code} in the envelope, with the request id`, async () => {
      const res = await send();
      expect(res.statusCode).toBe(status);
      const body = res.json();
      expect(body.error.code).toBe(code);
      expect(body.meta.requestId).toBe(res.headers['x-request-id']);
      expect(res.headers['cache-control']).toBe('no-store');
    });
  }

  it('names the served versions when a version is not served', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v9.9.9/public/organization' });
    expect(res.json().error.message).toContain('v1.0.0');
  });

  it('lists the allowed methods on a 405', async () => {
    const res = await t.request({ method: 'PUT', url: `${BASE_PATH}/organization` });
    // POST creates, GET lists, HEAD answers a GET's headers.
    expect(String(res.headers.allow).split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('sends no CORS headers, no X-Powered-By, and no-store caching', async () => {
    const res = await t.get('', undefined, { origin: 'https://evil.example' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    const preflight = await t.request({
      method: 'OPTIONS',
      url: `${BASE_PATH}/organization`,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('hides unexpected errors behind a generic 500 and logs them with the request id', async () => {
    // A real failure inside the stack: the organizations table disappears under the app.
    const sqlite = await buildTestApp('sqlite', {}, { logStream: log });
    try {
      const tenant = await sqlite.tenant(['organization.create']);
      await sqlite.storage.db.schema.dropTable('organizations').execute();
      const res = await sqlite.post('/organization', { name: 'Boom', isCustomer: true }, tenant.key, {
        'x-request-id': 'boom-1',
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        success: false,
        error: {
          code: 'INTERNAL_SERVER_ERROR',
          message: 'An unexpected error occurred. Contact support with the request id.',
        },
        meta: { requestId: 'boom-1', apiVersion: 'v1' },
      });
      expect(res.body).not.toMatch(/organizations|SQLITE|insert|stack/i);
      const logged = log.lines.filter((l) => l.requestId === 'boom-1');
      expect(logged.some((l) => l.level === 50 && JSON.stringify(l).includes('organizations'))).toBe(true);
    } finally {
      await sqlite.close();
    }
  });

  it('puts the request id on every log line of a request and never logs a key', async () => {
    await t.post('/organization', { name: 'Logged Co', isCustomer: true }, key, {
      'x-request-id': 'log-check-1',
      authorization: `Bearer ${key}`,
    });
    const lines = log.lines.filter((l) => l.requestId === 'log-check-1');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.msg === 'request completed' && l.statusCode === 201)).toBe(true);
    const secret = key.split('_')[3]!;
    expect(log.lines.some((l) => JSON.stringify(l).includes(secret))).toBe(false);
  });
});
