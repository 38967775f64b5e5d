import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExample } from '../../examples/client/example.js';
import { renderClientFiles } from '../../examples/client/generate.mjs';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

for (const dialect of DIALECTS) {
  describe(`the generated client example on ${dialect}`, () => {
    let t: TestApp;
    let baseUrl: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as AddressInfo;
      baseUrl = `http://127.0.0.1:${port}${BASE_PATH}`;
    });
    afterAll(async () => t.close());

    it('runs against a listening server: creates an organization and an invoice, retries safely, and reads them back', async () => {
      const { key } = await t.tenant(['organization.create', 'organization.read', 'invoice.create', 'invoice.read']);
      const result = await runExample(baseUrl, key);
      expect(result.organization.name).toBe('Acme Trading GmbH');
      expect(result.invoice.totals.payable).toBe('71.36');
      expect(result.replayed).toBe(true);
      expect(result.retriedInvoice).toEqual(result.invoice);
      expect(result.readOrganization).toEqual(result.organization);
      expect(result.readInvoice).toEqual(result.invoice);
      // A list shows each invoice as a read does, but for the messages it was sent with, its reminders.
      const {
        deliveries: _sent,
        hostedUrl: _page,
        viewedAt: _viewed,
        reminders: _reminded,
        ...listedAs
      } = result.invoice;
      expect(result.listedInvoices).toEqual([listedAs]);
    });
  });
}

describe('the committed client types', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => t.close());

  it('are what the current document generates (run `npm run generate:client` after changing a route)', async () => {
    const expected = await renderClientFiles(t.app.swagger());
    const committed = readFileSync(new URL('../../examples/client/schema.d.ts', import.meta.url), 'utf8');
    expect(
      committed === expected.schemaDts,
      'examples/client/schema.d.ts is stale: run `npm run generate:client`',
    ).toBe(true);
  });
});
