import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../src/webhooks/sender.js';
import { checkedLookup, NotSentError, type ResolvedAddress } from '../../src/webhooks/url-safety.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { eventually } from '../helpers/eventually.js';

// Every delivery checks the address it connects to, at connect time: the connection's own lookup
// resolves the host, refuses it unless every answer is public, and hands the connection the
// address it checked. A host that answered a public address when the endpoint was made and
// answers an internal one now (DNS rebinding) is not sent to, whatever form the address takes.

const PUBLIC = '93.184.215.14';
/** Internal addresses a rebinding DNS may answer, the IPv4-compatible IPv6 forms among them. */
const INTERNAL = ['127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::a00:1', '169.254.169.254', 'fd00:ec2::254'];

const family = (address: string) => (address.includes(':') ? 6 : 4);
const answering = (address: string) => async (): Promise<ResolvedAddress[]> => [{ address, family: family(address) }];

function lookupOnce(
  lookup: ReturnType<typeof checkedLookup>,
  host: string,
  all = false,
): Promise<{ error: Error | null; address?: unknown }> {
  return new Promise((done) => lookup(host, { all }, (error, address) => done({ error, address })));
}

describe('the lookup every delivery connects through', () => {
  it.each(INTERNAL)('refuses a host that resolves to %s', async (address) => {
    const { error } = await lookupOnce(
      checkedLookup({ allowPrivate: false, resolve: answering(address) }),
      'rebound.example.com',
    );
    expect(error).toBeInstanceOf(NotSentError);
    expect(error!.message).toBe(
      `The host resolves to ${address}, which is not a public address (loopback, private, link-local and metadata addresses are refused).`,
    );
  });

  it('refuses a host with one internal address among public ones, and one that does not resolve', async () => {
    const mixed = async () => [
      { address: PUBLIC, family: 4 },
      { address: '::a00:1', family: 6 },
    ];
    expect(
      (await lookupOnce(checkedLookup({ allowPrivate: false, resolve: mixed }), 'mixed.example.com')).error,
    ).toBeInstanceOf(NotSentError);
    const nowhere = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const { error } = await lookupOnce(checkedLookup({ allowPrivate: false, resolve: nowhere }), 'nowhere.invalid');
    expect(error?.message).toBe('The host nowhere.invalid does not resolve to an address.');
  });

  it('hands the connection the public address it checked, alone or as a list', async () => {
    const lookup = checkedLookup({ allowPrivate: false, resolve: answering(PUBLIC) });
    expect(await lookupOnce(lookup, 'hooks.example.com')).toEqual({ error: null, address: PUBLIC });
    expect(await lookupOnce(lookup, 'hooks.example.com', true)).toEqual({
      error: null,
      address: [{ address: PUBLIC, family: 4 }],
    });
  });

  it('never connects to a receiver on loopback when the host now resolves there', async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      const outcome = await send({
        url: new URL(`http://rebound.example.com:${port}/hooks`),
        lookup: checkedLookup({ allowPrivate: false, resolve: answering('127.0.0.1') }),
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(outcome).toMatchObject({
        succeeded: false,
        statusCode: null,
        error: expect.stringMatching(/^not sent: The host resolves to 127\.0\.0\.1, which is not a public address/),
      });
      expect(receiver.received).toEqual([]);
      // The same request with private addresses allowed (tests, closed networks) arrives.
      const allowed = await send({
        url: new URL(`http://rebound.example.com:${port}/hooks`),
        lookup: checkedLookup({ allowPrivate: true, resolve: answering('127.0.0.1') }),
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(allowed.succeeded).toBe(true);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`deliveries after DNS rebinding on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    const rebound = new Map<string, string>();
    const receivers: Receiver[] = [];
    // Each host answers the public address until the test rebinds it.
    const resolve = async (host: string): Promise<ResolvedAddress[]> => {
      const address = rebound.get(host) ?? PUBLIC;
      return [{ address, family: family(address) }];
    };

    beforeAll(async () => {
      t = await buildTestApp(dialect, { webhookRetryScheduleMs: [] }, { resolve });
      ({ key } = await t.tenant());
    });
    afterAll(async () => t.close());
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.close()));
    });

    it.each(INTERNAL)(
      'does not send to a host that resolved publicly when the endpoint was made and resolves to %s now',
      async (address) => {
        const host = `rebind-${address.replace(/[^a-z0-9]/gi, '-')}.example.com`;
        const endpoint = (
          await t.post('/webhook-endpoint', { url: `https://${host}/h`, events: ['organization.created'] }, key)
        ).json().data;
        expect(endpoint.id).toMatch(/^we_/);
        rebound.set(host, address);
        await t.post('/organization', { name: `Rebound ${address}`, isCustomer: true }, key);
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
        expect(attempts[0]!.error).toBe(
          `not sent: The host resolves to ${address}, which is not a public address (loopback, private, link-local and metadata addresses are refused).`,
        );
      },
    );
  });
}
