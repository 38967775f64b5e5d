import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { receive, supplierDocument } from '../helpers/purchase-documents.js';
import { claimInstance, PanelClient, signedInAs } from '../helpers/panel-client.js';

// The panel's inbox of received e-invoices, through the app as a browser would use it: upload by
// a plain multipart form, the document's page (parties, lines, VAT, totals, payment details, the
// verdict in words with each failed rule), approve and dispute, the downloads, the filters, the
// roles, and test mode's own inbox.

const MAX_BYTES = 64 * 1024;

/** Posts one file as a browser's multipart form does, with the page's CSRF token. */
async function upload(
  t: TestApp,
  client: PanelClient,
  content: string | Buffer,
  filename = 'invoice.xml',
  csrf: string | false = client.csrf,
): Promise<LightMyRequestResponse> {
  const boundary = '----panel-test-boundary';
  const parts: Buffer[] = [];
  if (csrf !== false)
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="document"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    ),
  );
  parts.push(Buffer.isBuffer(content) ? content : Buffer.from(content));
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return t.app.inject({
    method: 'POST',
    url: '/panel/purchase-invoices',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  });
}

const idOf = (res: LightMyRequestResponse) =>
  /\/panel\/purchase-invoices\/(pin_[^?]+)\?done=received/.exec(res.headers.location as string)?.[1];

for (const dialect of DIALECTS) {
  describe(`the panel's purchase-invoice inbox on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let member: PanelClient;
    let companyId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect, { receiveMaxBytes: MAX_BYTES });
      ({ owner, companyId } = await claimInstance(t.app));
      member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
    });
    afterAll(async () => t.close());

    it('receives an uploaded file and shows it readably: parties, lines, VAT, totals, payment details and the verdict', async () => {
      await owner.get('/panel/purchase-invoices');
      const res = await upload(t, owner, supplierDocument({ number: 'R-PANEL-1', price: '100' }));
      expect(res.statusCode, res.body).toBe(303);
      const id = idOf(res);
      expect(id).toBeDefined();
      const page = await owner.get(`/panel/purchase-invoices/${id}?done=received`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Received and stored.');
      expect(page.body).toContain('Purchase invoice <span class="doc-number">R-PANEL-1</span>');
      expect(page.body).toContain('Nordlicht Bürobedarf GmbH');
      expect(page.body).toContain('VAT ID DE811907980');
      expect(page.body).toContain('Office chairs');
      expect(page.body).toMatch(/<h2>VAT breakdown<\/h2>[^]*19 %[^]*100\.00 EUR[^]*19\.00 EUR/);
      expect(page.body).toMatch(
        /<strong>Payable<\/strong><\/th><td class="num"><strong><span class="amount">119\.00 EUR/,
      );
      expect(page.body).toContain('<h2>Payment details</h2>');
      expect(page.body).toMatch(/Valid: it passes every rule of EN 16931, Peppol BIS 3\./);
      expect(page.body).toContain('Received by upload');
      const row = await t.app.container.storage.db
        .selectFrom('purchase_invoices')
        .select(['channel', 'livemode'])
        .where('id', '=', id!)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ channel: 'panel', livemode: 1 });
    });

    it('stores an invalid document flagged, and names each failed rule in plain words', async () => {
      await owner.get('/panel/purchase-invoices');
      const wrong = supplierDocument({ number: 'R-PANEL-2', price: '100' }).replace(
        /<cbc:PayableAmount currencyID="EUR">119.00</,
        '<cbc:PayableAmount currencyID="EUR">191.00<',
      );
      const res = await upload(t, owner, wrong);
      expect(res.statusCode, res.body).toBe(303);
      const page = await owner.get(`/panel/purchase-invoices/${idOf(res)}`);
      expect(page.body).toMatch(/Invalid: it breaks 1 rule of EN 16931, Peppol BIS 3\. It is kept all the same/);
      expect(page.body).toMatch(
        /<th scope="row" class="nowrap">BR-CO-16<\/th><td>Must be fixed<\/td><td class="nowrap">BT-115<\/td>/,
      );
    });

    it('refuses what is not an e-invoice, a second copy and an empty form with the reason, storing nothing', async () => {
      await owner.get('/panel/purchase-invoices');
      const text = await upload(t, owner, 'Invoice 17: please pay 100 EUR', 'note.txt');
      expect(text.statusCode).toBe(422);
      expect(text.body).toContain('This is not an e-invoice this service reads.');
      expect(text.body).toContain('neither XML nor PDF');
      await owner.get('/panel/purchase-invoices');
      const first = await upload(t, owner, supplierDocument({ number: 'R-PANEL-3' }));
      const firstId = idOf(first);
      await owner.get('/panel/purchase-invoices');
      const again = await upload(t, owner, supplierDocument({ number: 'R-PANEL-3' }));
      expect(again.statusCode).toBe(409);
      expect(again.body).toContain(`href="/panel/purchase-invoices/${firstId}"`);
      await owner.get('/panel/purchase-invoices');
      const none = await upload(t, owner, '', 'empty.xml');
      expect(none.statusCode).toBe(400);
      expect(none.body).toContain('No document was sent.');
    });

    it('refuses a file larger than RECEIVE_MAX_BYTES with 413, and a post without the CSRF token with 403', async () => {
      await owner.get('/panel/purchase-invoices');
      const big = await upload(t, owner, Buffer.alloc(MAX_BYTES + 1, 0x20));
      expect(big.statusCode).toBe(413);
      expect(big.body).toContain(
        'The document is larger than the most this service takes (RECEIVE_MAX_BYTES). Nothing was stored.',
      );
      const forged = await upload(t, owner, supplierDocument({ number: 'R-PANEL-4' }), 'invoice.xml', false);
      expect(forged.statusCode).toBe(403);
      const rows = await t.app.container.storage.db
        .selectFrom('purchase_invoices')
        .select('number')
        .where('number', '=', 'R-PANEL-4')
        .execute();
      expect(rows).toEqual([]);
    });

    it('approves, and disputes with a reason (and not without one)', async () => {
      await owner.get('/panel/purchase-invoices');
      const id = idOf(await upload(t, owner, supplierDocument({ number: 'R-PANEL-5' })));
      await owner.get(`/panel/purchase-invoices/${id}`);
      const blank = await owner.post(`/panel/purchase-invoices/${id}/dispute`, { reason: '  ' });
      expect(blank.statusCode).toBe(400);
      expect(blank.body).toContain('Say why the invoice is disputed.');
      const disputed = await owner.post(`/panel/purchase-invoices/${id}/dispute`, {
        reason: 'Only three chairs arrived.',
      });
      expect(disputed.statusCode).toBe(303);
      const page = await owner.get(disputed.headers.location as string);
      expect(page.body).toContain('Disputed, with your reason.');
      expect(page.body).toContain('<strong>Disputed:</strong> Only three chairs arrived.');
      const approved = await owner.post(`/panel/purchase-invoices/${id}/approve`);
      expect(approved.statusCode).toBe(303);
      const after = await owner.get(approved.headers.location as string);
      expect(after.body).toContain('<span class="badge badge-pi-approved">Approved</span>');
      const events = await t.app.container.storage.db
        .selectFrom('events')
        .select('type')
        .where('type', 'like', 'purchase_invoice.%')
        .where('object', 'like', `%${id}%`)
        .orderBy('created_at')
        .execute();
      expect(events.map((e) => e.type)).toEqual([
        'purchase_invoice.received',
        'purchase_invoice.disputed',
        'purchase_invoice.approved',
      ]);
    });

    it('lets a member read and download, but not upload, approve or dispute', async () => {
      await owner.get('/panel/purchase-invoices');
      const xml = supplierDocument({ number: 'R-PANEL-6' });
      const id = idOf(await upload(t, owner, xml));
      const list = await member.get('/panel/purchase-invoices');
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain('enctype="multipart/form-data"');
      const page = await member.get(`/panel/purchase-invoices/${id}`);
      expect(page.body).not.toContain(`action="/panel/purchase-invoices/${id}/approve"`);
      expect((await member.post(`/panel/purchase-invoices/${id}/approve`)).statusCode).toBe(403);
      expect((await member.post(`/panel/purchase-invoices/${id}/dispute`, { reason: 'No' })).statusCode).toBe(403);
      expect((await upload(t, member, supplierDocument({ number: 'R-PANEL-7' }))).statusCode).toBe(403);
      const original = await member.get(`/panel/purchase-invoices/${id}/original`);
      expect(original.statusCode).toBe(200);
      expect(original.headers['content-type']).toMatch(/^application\/xml/);
      expect(original.headers['content-disposition']).toBe('attachment; filename="R-PANEL-6.xml"');
      expect(original.body).toBe(xml);
      const pdf = await member.get(`/panel/purchase-invoices/${id}/pdf?lang=de`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    });

    it('filters by state, supplier and verdict, and pages', async () => {
      const list = async (query: string) => {
        const res = await owner.get(`/panel/purchase-invoices${query}`);
        expect(res.statusCode).toBe(200);
        return [
          ...res.body.matchAll(
            /<th scope="row" class="nowrap"><a href="\/panel\/purchase-invoices\/pin_[^"]+">([^<]+)<\/a>/g,
          ),
        ].map((m) => m[1]);
      };
      expect(await list('?state=approved')).toEqual(['R-PANEL-5']);
      expect(await list('?verdict=invalid')).toEqual(['R-PANEL-2']);
      expect(await list('?state=paid')).toEqual([]);
      const all = await list('');
      expect(all).toEqual(expect.arrayContaining(['R-PANEL-1', 'R-PANEL-2', 'R-PANEL-3', 'R-PANEL-5', 'R-PANEL-6']));
      const supplier = /<option value="(org_[^"]+)">Nordlicht Bürobedarf GmbH<\/option>/.exec(
        (await owner.get('/panel/purchase-invoices')).body,
      )?.[1];
      expect(supplier).toBeDefined();
      expect((await list(`?supplier=${supplier}`)).length).toBe(all.length);
      expect(await list('?supplier=org_nobody')).toEqual([]);
      // 21 more from another supplier: the first page has 20, "Older" the rest.
      const other = {
        sellerName: 'Südwind Papier KG',
        vatId: 'DE999999999',
        endpoint: { id: '4000001987658', schemeId: '0088' },
      };
      for (let i = 0; i < 21; i++) {
        await owner.get('/panel/purchase-invoices');
        await upload(t, owner, supplierDocument({ ...other, number: `S-${String(i).padStart(2, '0')}` }));
      }
      const first = await owner.get('/panel/purchase-invoices');
      const next = /<a href="([^"]+)" rel="next">Older →<\/a>/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
      expect(next).toBeDefined();
      const second = await list(next!.replace('/panel/purchase-invoices', ''));
      expect(second).toContain('R-PANEL-1');
      expect(second).not.toContain('S-20');
    });

    it('keeps test mode its own inbox: a document uploaded in test mode is not in the live one', async () => {
      await owner.get('/panel/purchase-invoices');
      await owner.post('/panel/mode', { mode: 'test', return: '/panel/purchase-invoices' });
      await owner.get('/panel/purchase-invoices');
      const id = idOf(await upload(t, owner, supplierDocument({ number: 'R-TEST-1' })));
      expect(id).toBeDefined();
      const testList = await owner.get('/panel/purchase-invoices');
      expect(testList.body).toContain('R-TEST-1');
      expect(testList.body).not.toContain('R-PANEL-1');
      await owner.post('/panel/mode', { mode: 'live', return: '/panel/purchase-invoices' });
      const liveList = await owner.get('/panel/purchase-invoices');
      expect(liveList.body).not.toContain('R-TEST-1');
      expect((await owner.get(`/panel/purchase-invoices/${id}`)).statusCode).toBe(404);
      // What the API received with a test key is in the test inbox too.
      const { key } = await t.createKey(companyId, ['purchase-invoice.create'], { mode: 'test' });
      expect((await receive(t, key, supplierDocument({ number: 'R-TEST-API' }))).statusCode).toBe(201);
      await owner.post('/panel/mode', { mode: 'test', return: '/panel/purchase-invoices' });
      expect((await owner.get('/panel/purchase-invoices')).body).toContain('R-TEST-API');
      await owner.post('/panel/mode', { mode: 'live', return: '/panel/purchase-invoices' });
    });
  });
}
