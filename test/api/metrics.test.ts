import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';

describe('GET /metrics', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('reports requests by route and status, refusals, key failures and the rate-limit store state', async () => {
    t = await buildTestApp('sqlite', { rateLimitMax: 2 });
    const { key } = await t.tenant(['organization.create']);
    await t.post('/organization', { name: 'Metered', isCustomer: true }, key);
    await t.post('/organization', {}, key);
    await t.post('/organization', { name: 'Over', isCustomer: true }, key);
    await t.get('', 'inv_live_AAAAAAAA_bbbbbbbbbbbbbbbbbbbbbbbb');

    const res = await t.request({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toMatch(
      /http_requests_total\{method="POST",route="\/api\/v1\.0\.0\/public\/organization",status="201"\} 1/,
    );
    expect(text).toMatch(
      /http_requests_total\{method="POST",route="\/api\/v1\.0\.0\/public\/organization",status="400"\} 1/,
    );
    expect(text).toMatch(
      /http_requests_total\{method="POST",route="\/api\/v1\.0\.0\/public\/organization",status="429"\} 1/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/api\/v1\.0\.0\/public\/organization",status="201"\}/,
    );
    expect(text).toMatch(/rate_limited_requests_total\{reason="limit"\} 1/);
    expect(text).toMatch(/api_key_check_failures_total\{reason="unknown"\} 1/);
    expect(text).toMatch(/rate_limit_store_degraded 0/);
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
  });

  it('reports the heap of the PDF render threads once a PDF has been rendered', async () => {
    t = await buildTestApp('sqlite');
    const { key } = await t.tenant();
    const buyer = (await t.post('/organization', { name: 'Buyer', isCustomer: true }, key)).json().data;
    const lines = [{ name: 'Item', quantity: '1', unitPrice: '10', vatRate: '19' }];
    const draft = (await t.post('/invoice', { organizationId: buyer.id, status: 'draft', lines }, key)).json().data;
    const heaps = async () => {
      const text = (await t.request({ method: 'GET', url: '/metrics' })).body;
      const bytes = (state: string) =>
        Number(new RegExp(`^worker_thread_heap_bytes\\{pool="pdf",state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
      return { committed: bytes('committed'), used: bytes('used') };
    };
    // The pool starts its threads with the first PDF.
    expect(await heaps()).toEqual({ committed: 0, used: 0 });
    expect((await t.get(`/invoice/${draft.id}/pdf`, key)).statusCode).toBe(200);
    const { committed, used } = await heaps();
    expect(committed).toBeGreaterThan(1024 * 1024);
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(committed);
  });

  it('requires the metrics token when METRICS_TOKEN is set', async () => {
    t = await buildTestApp('sqlite', { metricsToken: 's3cret-token' });
    const anonymous = await t.request({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    const wrong = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    const right = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer s3cret-token' },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('http_requests_total');
  });
});
