import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import { cliJson, freePort, startServer, type ServerProcess } from '../helpers/servers.js';
import {
  makeTestCertificate,
  parseMessage,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../helpers/smtp-server.js';

// A send survives a SIGKILL of the server between the request and the delivery: the 202 means the
// message is a committed row; the server is killed at once, before its relay is even reachable;
// a new server on the same database sends it, once, and the Idempotency-Key still answers the
// same message.

const SELLER = {
  legalName: 'Kill Test GmbH',
  vatId: 'DE123456789',
  address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
  contact: { email: 'billing@seller.example' },
  bankAccount: { iban: 'DE89 3704 0044 0532 0130 00' },
  paymentTerms: 'Payable within 30 days.',
};

async function call(
  baseUrl: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as { data: Record<string, unknown> & { id: string } } };
}

let certificate: TestCertificate;
beforeAll(() => {
  certificate = makeTestCertificate();
});
afterAll(() => certificate.remove());

for (const dialect of DIALECTS) {
  describe(`an email send across a SIGKILL on ${dialect}`, () => {
    let database: TestDatabase | undefined;
    let smtp: TestSmtpServer | undefined;
    const servers: ServerProcess[] = [];

    afterEach(async () => {
      await Promise.all(servers.splice(0).map((s) => s.stop()));
      await smtp?.close();
      smtp = undefined;
      await database?.drop();
      database = undefined;
    });

    it('delivers a send accepted just before a SIGKILL exactly once, after the restart', async () => {
      database = await createTestDatabase(dialect);
      const smtpPort = await freePort();
      const env = {
        DATABASE_URL: database.url,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        SMTP_FROM: 'invoices@service.example',
        SMTP_TLS_CA_FILE: certificate.certFile,
        EMAIL_RETRY_SCHEDULE_MS: Array.from({ length: 20 }, () => '2000').join(','),
      };
      const { id: companyId } = await cliJson<{ id: string }>(['company', 'create', '--name', 'Kill Test GmbH'], env);
      const { key } = await cliJson<{ key: string }>(
        [
          'key',
          'create',
          '--company',
          companyId,
          '--name',
          'send',
          '--permissions',
          'company.update,organization.create,invoice.create,invoice.read,invoice.send',
        ],
        env,
      );

      const first = await startServer(env, { quiet: true });
      servers.push(first);
      expect((await call(first.baseUrl, key, 'PATCH', '/company', SELLER)).status).toBe(200);
      const buyer = await call(first.baseUrl, key, 'POST', '/organization', {
        name: 'Käufer AG',
        isCustomer: true,
        email: 'ap@buyer.example',
        address: { countryCode: 'DE' },
      });
      expect(buyer.status).toBe(201);
      const invoice = await call(first.baseUrl, key, 'POST', '/invoice', {
        organizationId: buyer.json.data.id,
        lines: [{ name: 'Consulting', quantity: '1', unitPrice: '100', vatRate: '19' }],
      });
      expect(invoice.status).toBe(201);
      const headers = { 'idempotency-key': 'send-before-kill' };
      const sent = await call(first.baseUrl, key, 'POST', `/invoice/${invoice.json.data.id}/send`, {}, headers);
      first.child.kill('SIGKILL');
      expect(sent.status).toBe(202);
      if (first.child.exitCode === null && first.child.signalCode === null) await once(first.child, 'exit');

      smtp = await startSmtpServer(certificate, { port: smtpPort });
      const second = await startServer(env, { quiet: true });
      servers.push(second);
      // Sent at once, or after a retry's delay, or (killed mid-attempt) once the lease ran out.
      const delivered = await vi.waitFor(
        async () => {
          const [found] = (await call(second.baseUrl, key, 'GET', `/invoice/${invoice.json.data.id}`)).json.data
            .deliveries as { id: string; status: string; messageId: string }[];
          if (found!.status !== 'sent') throw new Error(`still ${found!.status}`);
          return found!;
        },
        { timeout: 200_000, interval: 100 },
      );
      expect(delivered.id).toBe(sent.json.data.id);
      expect(smtp.received).toHaveLength(1);
      expect(parseMessage(smtp.received[0]!.raw).headers['message-id']).toBe(delivered.messageId);

      const again = await call(second.baseUrl, key, 'POST', `/invoice/${invoice.json.data.id}/send`, {}, headers);
      expect(again.status).toBe(202);
      expect(again.json.data.id).toBe(sent.json.data.id);
      expect(
        (await call(second.baseUrl, key, 'GET', `/invoice/${invoice.json.data.id}`)).json.data.deliveries,
      ).toHaveLength(1);
      expect(smtp.received).toHaveLength(1);
    }, 240_000);
  });
}
