import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../src/http/api-version.js';
import { checkEndpointUrl, isPublicAddress, type ResolvedAddress } from '../../src/webhooks/url-safety.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { eventually } from '../helpers/eventually.js';

// SSRF: endpoint URLs must be https and resolve to public addresses only, and a delivery
// connects to the address it checked. DNS is played by the test (a resolver the app is given),
// so host names can answer what each case needs; the connections are real.

const PUBLIC = '93.184.215.14';
const dns = new Map<string, string[]>([
  ['hooks.example.com', [PUBLIC]],
  ['localhost', ['127.0.0.1']],
  ['metadata.internal', ['169.254.169.254']],
  ['mixed.example.com', [PUBLIC, '10.0.0.8']],
  ['v6.example.com', ['2606:4700::6810:84e5']],
  ['v6-private.example.com', ['fd00:ec2::254']],
  ['compat-loopback.example.com', ['::7f00:1']],
  ['compat-metadata.example.com', ['::a9fe:a9fe']],
]);
const resolve = async (host: string): Promise<ResolvedAddress[]> => {
  const answers = dns.get(host);
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('which addresses are public', () => {
  it('accepts public unicast and refuses loopback, private, link-local, metadata, CGNAT, reserved and mapped private addresses', () => {
    for (const address of ['8.8.8.8', PUBLIC, '2606:4700::1']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '192.0.2.1',
      '::1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
      'not-an-address',
      // The whole IPv4-compatible range ::/96, whatever IPv4 address it carries.
      '::127.0.0.1',
      '::7f00:1',
      '::a9fe:a9fe',
      '::a00:1',
      '::8.8.8.8',
      '::1:0',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses http, credentials, relative and unresolvable URLs by name', async () => {
    const check = (url: string) => checkEndpointUrl(url, { allowPrivate: false, resolve });
    expect(await check('http://hooks.example.com/x')).toMatchObject({ ok: false, code: 'not_https' });
    expect(await check('https://user:pw@hooks.example.com/x')).toMatchObject({ ok: false, code: 'credentials_in_url' });
    expect(await check('/relative')).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(await check('https://nowhere.invalid/x')).toMatchObject({ ok: false, code: 'unresolvable' });
    expect(await check('https://hooks.example.com/x')).toMatchObject({
      ok: true,
      address: { address: PUBLIC, family: 4 },
    });
    expect(await check('ftp://hooks.example.com/x')).toMatchObject({ ok: false, code: 'not_https' });
  });
});

for (const dialect of DIALECTS) {
  describe(`webhook URL safety on ${dialect}`, () => {
    let t: TestApp;
    let key: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect, { webhookRetryScheduleMs: [] }, { resolve });
      ({ key } = await t.tenant());
    });
    afterAll(async () => t.close());

    const create = (url: string) =>
      t.request({
        method: 'POST',
        url: `${BASE_PATH}/webhook-endpoint`,
        headers: { 'x-api-key': key },
        payload: { url, events: ['*'] },
      });

    it.each([
      ['http://hooks.example.com/x', 'not_https'],
      ['https://127.0.0.1/x', 'not_public'],
      ['https://10.0.0.1/x', 'not_public'],
      ['https://192.168.0.10/x', 'not_public'],
      ['https://169.254.169.254/latest/meta-data', 'not_public'],
      ['https://[::1]/x', 'not_public'],
      ['https://[fd00:ec2::254]/x', 'not_public'],
      ['https://localhost/x', 'not_public'],
      ['https://metadata.internal/x', 'not_public'],
      ['https://mixed.example.com/x', 'not_public'],
      ['https://v6-private.example.com/x', 'not_public'],
      // IPv4-compatible IPv6 (::/96): ::127.0.0.1 is ::7f00:1, ::169.254.169.254 is ::a9fe:a9fe, ::10.0.0.1 is ::a00:1.
      ['https://[::127.0.0.1]/h', 'not_public'],
      ['https://[::7f00:1]/h', 'not_public'],
      ['https://[::a9fe:a9fe]/h', 'not_public'],
      ['https://[::a00:1]/h', 'not_public'],
      ['https://[::8.8.8.8]/h', 'not_public'],
      ['https://compat-loopback.example.com/h', 'not_public'],
      ['https://compat-metadata.example.com/h', 'not_public'],
      ['https://nowhere.invalid/x', 'unresolvable'],
    ])('refuses %s with 400 VALIDATION_ERROR (%s)', async (url, code) => {
      const res = await create(url);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'url', code }] });
    });

    it('accepts https URLs whose host resolves to public addresses, IPv4 and IPv6', async () => {
      expect((await create('https://hooks.example.com/x')).statusCode).toBe(201);
      expect((await create('https://v6.example.com/x')).statusCode).toBe(201);
      expect((await create(`https://${PUBLIC}/x`)).statusCode).toBe(201);
    });

    it('refuses a changed URL that points inside, as at creation', async () => {
      const id = (await create('https://hooks.example.com/y')).json().data.id;
      const res = await t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/webhook-endpoint/${id}`,
        headers: { 'x-api-key': key },
        payload: { url: 'https://localhost/y' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0]).toMatchObject({ field: 'url', code: 'not_public' });
    });
  });

  describe(`webhook delivery and DNS on ${dialect}`, () => {
    const receivers: Receiver[] = [];
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.close()));
    });

    it('does not send when the host resolves inside by the time of delivery (DNS rebinding)', async () => {
      let rebound = false;
      const rebinding = async (host: string) => (rebound ? [{ address: '127.0.0.1', family: 4 }] : resolve(host));
      const t = await buildTestApp(dialect, { webhookRetryScheduleMs: [] }, { resolve: rebinding });
      try {
        const { key } = await t.tenant();
        const endpoint = (
          await t.post('/webhook-endpoint', { url: 'https://hooks.example.com/rebind', events: ['*'] }, key)
        ).json().data;
        rebound = true;
        await t.post('/organization', { name: 'Rebinding Buyer', isCustomer: true }, key);
        const attempts = await eventually(
          async () => {
            const rows = await t.storage.db
              .selectFrom('webhook_attempts')
              .selectAll()
              .where('endpoint_id', '=', endpoint.id)
              .execute();
            return rows.length > 0 && rows;
          },
          { what: 'an attempt to be recorded' },
        );
        expect(attempts).toHaveLength(1);
        expect(attempts[0]).toMatchObject({ succeeded: 0, status_code: null });
        expect(attempts[0]!.error).toMatch(/^not sent: .*127\.0\.0\.1.*not a public address/);
      } finally {
        await t.close();
      }
    });

    it('connects to the address it checked, never resolving the host again for the connection', async () => {
      const checked = await startReceiver({ host: '127.0.0.2' });
      receivers.push(checked);
      const port = new URL(checked.url).port;
      // Each lookup answers another address: creation gets .3, the delivery's check gets .2, and a
      // second lookup for the connection itself would get .3 again.
      let lookups = 0;
      const alternating = async () => [{ address: ++lookups % 2 === 0 ? '127.0.0.2' : '127.0.0.3', family: 4 }];
      const t = await buildTestApp(
        dialect,
        { webhookAllowPrivateUrls: true, webhookRetryScheduleMs: [] },
        { resolve: alternating },
      );
      try {
        const { key } = await t.tenant();
        // Were the connection to look the host up again, it would go to 127.0.0.3 and miss.
        await t.post('/webhook-endpoint', { url: `http://hooks.test:${port}/hooks`, events: ['*'] }, key);
        await t.post('/organization', { name: 'Pinned Buyer', isCustomer: true }, key);
        await checked.waitFor((got) => got.length === 1);
        expect(lookups).toBe(2);
        expect(checked.received[0]!.headers.host).toBe(`hooks.test:${port}`);
      } finally {
        await t.close();
      }
    });
  });
}
