import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { WORDS } from '../../src/hosted/words.js';
import { ALL_PERMISSIONS, BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { claimInstance } from '../helpers/panel-client.js';

// The hosted page of a sent quote, through the very app the server runs: the link in every answer
// about one quote opens a public page with the offer, its state and validity and its PDF (the
// API's bytes), marked as a quote and asking for no payment; while the quote is open, two plain
// forms accept or decline it as the API would (same events, one winner of racing answers), and a
// late answer gets a 409 page. The link is revocable, rate-limited, and its first view is recorded.

type Json = Record<string, unknown>;
type QuoteAnswer = Json & { id: string; number: string; status: string; hostedUrl: string | null };

const PUBLIC = 'https://quotes.example.com';
const LIMIT = 12;

const SELLER = {
  legalName: 'Seller Software GmbH',
  address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
  contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@seller.example' },
  bankAccount: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
};

const BUYER = {
  name: 'Käufer AG',
  isCustomer: true,
  vatId: 'DE811907980',
  address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
};

// 3 × 100 at 19 %: 357.00
const LINES = [{ name: 'Consulting', quantity: '3', unitCode: 'HUR', unitPrice: '100', vatRate: '19' }];

const pathOf = (hostedUrl: string | null) => {
  expect(hostedUrl).toMatch(/^https:\/\/quotes\.example\.com\/hosted\/[A-Za-z0-9_-]{43}$/);
  return hostedUrl!.slice(PUBLIC.length);
};

/** A day as the German page writes it (31.12.2099). */
const germanDay = (at: string) =>
  new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(at));

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

for (const dialect of DIALECTS) {
  describe(`hosted quote pages on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect, {
        publicBaseUrl: PUBLIC,
        hostedRateLimitMax: LIMIT,
        hostedRateLimitWindowMs: 3_600_000,
      });
    });
    afterAll(async () => {
      await t.close();
    });

    async function seller(buyer: Json = BUYER) {
      const { companyId, key } = await t.tenant(ALL_PERMISSIONS);
      const send = async (method: InjectOptions['method'], path: string, body?: Json) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key },
          ...(body ? { payload: body } : {}),
        });
      expect((await send('PATCH', '/company', SELLER)).statusCode).toBe(200);
      const buyerId = ((await send('POST', '/organization', buyer)).json().data as Json).id;
      const quote = async (body: Json = {}) => {
        const res = await send('POST', '/quote', {
          organizationId: buyerId,
          validUntil: '2099-12-31',
          lines: LINES,
          ...body,
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data as QuoteAnswer;
      };
      const events = async (type: string) =>
        (await send('GET', `/event?type=${type}`)).json().data.items as (Json & { data: { object: Json } })[];
      return { companyId, send, quote, events };
    }

    const page = (path: string) => t.request({ method: 'GET', url: path });
    const post = (path: string) => t.request({ method: 'POST', url: path, headers: FORM, payload: '' });

    it('gives a sent quote its link in every answer about it, a draft none until it is sent, and lists none', async () => {
      const s = await seller();
      const open = await s.quote();
      pathOf(open.hostedUrl);
      expect(open.viewedAt).toBeNull();
      const read = (await s.send('GET', `/quote/${open.id}`)).json().data;
      expect(read.hostedUrl, 'the same link in every answer').toBe(open.hostedUrl);
      const sent = (await s.events('quote.sent'))[0]!.data.object;
      expect(sent.hostedUrl, 'and in the events').toBe(open.hostedUrl);

      const draft = await s.quote({ status: 'draft' });
      expect(draft).toMatchObject({ hostedUrl: null, viewedAt: null });
      expect((await s.send('GET', `/quote/${draft.id}`)).json().data.hostedUrl).toBeNull();
      const patched = await s.send('PATCH', `/quote/${draft.id}`, { note: 'Edited' });
      expect(patched.json().data.hostedUrl).toBeNull();
      const sendDraft = await s.send('POST', `/quote/${draft.id}/send`);
      expect(sendDraft.statusCode, sendDraft.body).toBe(200);
      pathOf(sendDraft.json().data.hostedUrl);

      const accepted = await s.send('POST', `/quote/${open.id}/accept`);
      expect(accepted.json().data.hostedUrl, 'an answered quote keeps its page').toBe(open.hostedUrl);

      const list = (await s.send('GET', '/quote')).json().data.items as Json[];
      expect(list.length).toBeGreaterThan(0);
      for (const item of list) expect(item).not.toHaveProperty('hostedUrl');
    });

    it('shows the open quote marked as a quote, with its parties, lines, totals, validity and forms, and no payment', async () => {
      const s = await seller();
      const quote = await s.quote({ issueDate: '2026-03-02', validUntil: '2099-12-31' });
      const path = pathOf(quote.hostedUrl);
      const res = await page(path);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['x-robots-tag']).toContain('noindex');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toMatch(/script-src|unsafe-inline/);
      expect(res.body).not.toMatch(/<script/i);

      // German, as the buyer is in Germany.
      expect(res.body).toContain('<html lang="de">');
      expect(res.body).toContain(`<h1>Angebot ${quote.number}</h1>`);
      expect(res.body).toContain(WORDS.de.quoteNote);
      expect(res.body).toContain('Seller Software GmbH');
      expect(res.body).toContain('Käufer AG');
      expect(res.body).toContain('Consulting');
      expect(res.body).toContain('357,00');
      expect(res.body).toContain(WORDS.de.validUntil);
      expect(res.body).toContain('31.12.2099');
      expect(res.body).toContain('class="status status-open"');
      const token = path.slice('/hosted/'.length);
      expect(res.body).toContain(`<form method="post" action="${token}/accept">`);
      expect(res.body).toContain(`<form method="post" action="${token}/decline">`);
      expect(res.body).toContain(`href="${quote.hostedUrl}/pdf"`);
      // A quote asks for no payment: no account, no code, no balance, no e-invoice.
      expect(res.body).not.toContain('DE89 3704');
      expect(res.body).not.toMatch(/<svg/i);
      expect(res.body).not.toContain(`<h2>${WORDS.de.howToPay}</h2>`);
      expect(res.body).not.toContain('class="balance');
      expect(res.body).not.toContain('/xml');

      const english = await (await seller({ name: 'Globex Inc.', isCustomer: true })).quote();
      const en = (await page(pathOf(english.hostedUrl))).body;
      expect(en).toContain('<html lang="en">');
      expect(en).toContain(`<h1>Quote ${english.number}</h1>`);
    });

    it('offers the PDF, byte-equal to GET /quote/{id}/pdf in the page language, and no XML', async () => {
      const s = await seller();
      const quote = await s.quote();
      const path = pathOf(quote.hostedUrl);
      const pdf = await page(`${path}/pdf`);
      const apiPdf = await s.send('GET', `/quote/${quote.id}/pdf?lang=de`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['x-robots-tag']).toContain('noindex');
      expect(pdf.rawPayload.equals(apiPdf.rawPayload)).toBe(true);
      expect((await page(`${path}/xml`)).statusCode).toBe(404);
    });

    it('accepts through the form: 303 back to the page, which says so, one quote.accepted event, and a second answer gets a 409 page', async () => {
      const s = await seller();
      const quote = await s.quote();
      const path = pathOf(quote.hostedUrl);
      const token = path.slice('/hosted/'.length);
      const res = await post(`${path}/accept`);
      expect(res.statusCode, res.body).toBe(303);
      expect(res.headers.location).toBe(`../${token}`);
      expect(new URL(String(res.headers.location), `http://host${path}/accept`).pathname).toBe(path);
      expect(res.headers['set-cookie']).toBeUndefined();

      const read = (await s.send('GET', `/quote/${quote.id}`)).json().data;
      expect(read.status).toBe('accepted');
      const events = await s.events('quote.accepted');
      expect(events).toHaveLength(1);
      expect(events[0]!.data.object).toMatchObject({ id: quote.id, status: 'accepted' });
      expect(events[0]!.requestId, 'the form request made the change').toBe(res.headers['x-request-id']);

      const html = (await page(path)).body;
      expect(html).toContain('class="status status-accepted"');
      expect(html).toContain(WORDS.de.acceptedOn(germanDay(read.statusTransitions.acceptedAt)));
      expect(html).not.toContain('<form');

      for (const action of ['accept', 'decline']) {
        const again = await post(`${path}/${action}`);
        expect(again.statusCode, `${action} again`).toBe(409);
        expect(again.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(again.body).toContain(WORDS.de.notAnsweredTitle);
        expect(again.body).toContain('angenommen');
        expect(again.body).toContain(`href="../${token}"`);
      }
      expect(await s.events('quote.accepted')).toHaveLength(1);
      expect(await s.events('quote.declined')).toHaveLength(0);
    });

    it('declines through the form, and the quote cannot be accepted afterwards', async () => {
      const s = await seller();
      const quote = await s.quote();
      const path = pathOf(quote.hostedUrl);
      expect((await post(`${path}/decline`)).statusCode).toBe(303);
      expect((await s.send('GET', `/quote/${quote.id}`)).json().data.status).toBe('declined');
      expect(await s.events('quote.declined')).toHaveLength(1);
      const html = (await page(path)).body;
      expect(html).toContain('class="status status-declined"');
      expect(html).toContain('abgelehnt');
      expect(html).not.toContain('<form');
      const late = await post(`${path}/accept`);
      expect(late.statusCode).toBe(409);
      expect(late.body).toContain('abgelehnt');
      expect(await s.events('quote.accepted')).toHaveLength(0);
      const invoice = await s.send('POST', `/quote/${quote.id}/invoice`);
      expect(invoice.json().error.code).toBe('QUOTE_NOT_ACCEPTED');
    });

    it('shows an expired quote as expired without forms, and refuses its answer with a 409 page', async () => {
      const s = await seller();
      const quote = await s.quote({ issueDate: '2025-01-02', validUntil: '2025-01-31' });
      const path = pathOf(quote.hostedUrl);
      const html = (await page(path)).body;
      expect(html).toContain('class="status status-expired"');
      expect(html).toContain(WORDS.de.expiredOn('31.01.2025'));
      expect(html).not.toContain('<form');
      const res = await post(`${path}/accept`);
      expect(res.statusCode).toBe(409);
      expect(res.body).toContain(WORDS.de.expiredOn('31.01.2025'));
      expect((await s.send('GET', `/quote/${quote.id}`)).json().data.status).toBe('expired');
      expect(await s.events('quote.accepted')).toHaveLength(0);
    });

    it('lets one of racing accepts win: one quote.accepted event, and one invoice made from it', async () => {
      const s = await seller();
      const quote = await s.quote();
      const path = pathOf(quote.hostedUrl);
      const answers = await Promise.all(Array.from({ length: 4 }, () => post(`${path}/accept`)));
      expect(answers.map((res) => res.statusCode).sort()).toEqual([303, 409, 409, 409]);
      expect(await s.events('quote.accepted')).toHaveLength(1);
      const invoices = await Promise.all([
        s.send('POST', `/quote/${quote.id}/invoice`),
        s.send('POST', `/quote/${quote.id}/invoice`),
      ]);
      expect(invoices.map((res) => res.statusCode).sort()).toEqual([201, 409]);
      const made = (await s.send('GET', '/invoice')).json().data.items as Json[];
      expect(made.filter((invoice) => invoice.quoteId === quote.id)).toHaveLength(1);
    });

    it('revokes the link on rotate: the old page and its forms are a 404, the new one works; a draft has none', async () => {
      const s = await seller();
      const quote = await s.quote();
      const old = pathOf(quote.hostedUrl);
      expect((await page(old)).statusCode).toBe(200);
      const res = await s.send('POST', `/quote/${quote.id}/hosted-link/rotate`);
      expect(res.statusCode, res.body).toBe(200);
      const rotated = res.json().data as QuoteAnswer;
      expect(rotated.hostedUrl).not.toBe(quote.hostedUrl);
      expect(rotated.viewedAt, 'the first view stays').not.toBeNull();
      const gone = await page(old);
      expect(gone.statusCode).toBe(404);
      expect(gone.body).toBe((await page(`/hosted/${'A'.repeat(43)}`)).body);
      expect((await page(`${old}/pdf`)).statusCode).toBe(404);
      expect((await post(`${old}/accept`)).statusCode).toBe(404);
      expect((await s.send('GET', `/quote/${quote.id}`)).json().data.status, 'the old link answered nothing').toBe(
        'open',
      );
      expect((await page(pathOf(rotated.hostedUrl))).statusCode).toBe(200);
      expect((await s.send('GET', `/quote/${quote.id}`)).json().data.hostedUrl).toBe(rotated.hostedUrl);

      const draft = await s.quote({ status: 'draft' });
      const refused = await s.send('POST', `/quote/${draft.id}/hosted-link/rotate`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('QUOTE_NOT_SENT');
      const other = await seller();
      expect((await other.send('POST', `/quote/${quote.id}/hosted-link/rotate`)).statusCode).toBe(404);
    });

    it('records the first view on the quote and as one quote.viewed event', async () => {
      const s = await seller();
      const quote = await s.quote();
      const path = pathOf(quote.hostedUrl);
      expect((await page(path)).statusCode).toBe(200);
      expect((await page(path)).statusCode).toBe(200);
      const read = (await s.send('GET', `/quote/${quote.id}`)).json().data;
      expect(read.viewedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const events = await s.events('quote.viewed');
      expect(events).toHaveLength(1);
      expect(events[0]!.data.object).toMatchObject({ id: quote.id, viewedAt: read.viewedAt, status: 'open' });
    });

    it("answers an invoice's token on the answer forms with the 404 page, changing nothing", async () => {
      const s = await seller();
      const quote = await s.quote();
      const buyerId = quote.organizationId as string;
      const invoice = (await s.send('POST', '/invoice', { organizationId: buyerId, lines: LINES })).json().data;
      const res = await post(`${pathOf(invoice.hostedUrl)}/accept`);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain(WORDS.en.notFoundTitle);
    });

    it("links the buyer's page from the panel's quote page, with its first view", async () => {
      const { owner, companyId } = await claimInstance(t.app);
      const { key } = await t.createKey(companyId, ['organization.create', 'quote.create', 'quote.update']);
      const buyer = (await t.post('/organization', BUYER, key)).json().data.id as string;
      const quote = (await t.post('/quote', { organizationId: buyer, lines: LINES }, key)).json().data as QuoteAnswer;
      let panel = (await owner.get(`/panel/quotes/${quote.id}`)).body;
      expect(panel).toContain(`<a href="${quote.hostedUrl}" rel="noopener noreferrer" target="_blank">`);
      expect(panel).toContain('(not viewed yet)');
      expect((await page(pathOf(quote.hostedUrl))).statusCode).toBe(200);
      panel = (await owner.get(`/panel/quotes/${quote.id}`)).body;
      expect(panel).toContain('first viewed');
      const draft = (await t.post('/quote', { organizationId: buyer, lines: LINES, status: 'draft' }, key)).json().data;
      expect((await owner.get(`/panel/quotes/${draft.id}`)).body).not.toContain('Customer page');
    });

    it('limits a quote page per link, its form posts counted too, with a 429 page; other links unaffected', async () => {
      const s = await seller();
      const quote = await s.quote();
      const other = await s.quote();
      const path = pathOf(quote.hostedUrl);
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT - 1; i++) statuses.push((await page(path)).statusCode);
      statuses.push((await post(`${path}/decline`)).statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT - 1);
      expect(statuses.at(-1)).toBe(303);
      const limited = await post(`${path}/accept`);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expect(limited.body).toContain(WORDS.en.limitedTitle);
      expect((await page(path)).statusCode).toBe(429);
      expect((await page(pathOf(other.hostedUrl))).statusCode).toBe(200);
    });
  });
}

describe('hosted quote pages without PUBLIC_BASE_URL', () => {
  it('answers hostedUrl null for a sent quote', async () => {
    const t = await buildTestApp(DIALECTS[0]!);
    try {
      const { key } = await t.tenant(ALL_PERMISSIONS);
      const buyer = (await t.post('/organization', { name: 'Buyer', isCustomer: true }, key)).json().data;
      const res = await t.post('/quote', { organizationId: buyer.id, lines: LINES }, key);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ status: 'open', hostedUrl: null, viewedAt: null });
    } finally {
      await t.close();
    }
  });
});
