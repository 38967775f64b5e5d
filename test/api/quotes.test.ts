import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { resetTestData } from '../../src/services/test-data.js';
import { canInspectPdf, pdfAttachments, pdfPlainText, pdfQrPayloads } from '../helpers/pdf-tools.js';

// Quotes: the invoice's lines and exact totals, their own gapless numbers, the life draft → open
// → accepted / declined (expired when read past validUntil), and an accepted quote made into an
// invoice exactly once, also when the calls race.

type Body = Record<string, unknown>;

// 3 × 33.33 at 19 % and 1 × 10 less 5 % at 7 %: 99.99 + 9.50 net, 19.00 + 0.67 VAT, 129.16 payable.
const LINES = [
  { name: 'Consulting', quantity: '3', unitPrice: '33.33', vatRate: '19' },
  { name: 'Book', quantity: '1', unitPrice: '10', vatRate: '7', discountPercent: '5' },
];

for (const dialect of DIALECTS) {
  describe(`quotes on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    async function company(options: { mode?: 'live' | 'test' } = {}) {
      const { companyId, key } = await t.tenant(undefined, options);
      const buyer = (await t.post('/organization', { name: 'Quoted Buyer', isCustomer: true }, key)).json().data;
      const post = (path: string, body?: Body) =>
        t.request({
          method: 'POST',
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key },
          ...(body ? { payload: body } : {}),
        });
      const quote = async (body: Body = {}) => {
        const res = await t.post('/quote', { organizationId: buyer.id, lines: LINES, ...body }, key);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data;
      };
      const accepted = async (body: Body = {}) => {
        const q = await quote(body);
        expect((await post(`/quote/${q.id}/accept`)).statusCode).toBe(200);
        return q;
      };
      const get = async (path: string) => (await t.get(path, key)).json().data;
      return { companyId, key, buyer, post, quote, accepted, get };
    }

    it('creates an open quote with the same lines and exact totals as the same invoice, numbered Q-YYYY-NNNNN', async () => {
      const c = await company();
      const q = await c.quote({ issueDate: '2026-11-02' });
      const invoice = (
        await t.post('/invoice', { organizationId: c.buyer.id, lines: LINES, issueDate: '2026-11-02' }, c.key)
      ).json().data;
      expect(q).toMatchObject({
        number: 'Q-2026-00001',
        status: 'open',
        issueDate: '2026-11-02',
        validUntil: '2026-12-02',
        livemode: true,
        invoiceId: null,
      });
      expect(q.lines).toEqual(invoice.lines);
      expect(q.vatBreakdown).toEqual(invoice.vatBreakdown);
      expect(q.totals).toEqual(invoice.totals);
      expect(q.totals).toMatchObject({ lineNetTotal: '109.49', taxTotal: '19.67', payable: '129.16' });
      expect(q.buyer).toEqual(invoice.buyer);
      expect(q).not.toHaveProperty('paymentMeans');
      expect(await c.get(`/quote/${q.id}`)).toEqual(q);
      // The quote sequence is its own: the invoice took 2026-00001, the next quote Q-2026-00002.
      expect(invoice.number).toBe('2026-00001');
      expect((await c.quote({ issueDate: '2026-11-03' })).number).toBe('Q-2026-00002');
    });

    it('numbers test-mode quotes from a counter of their own', async () => {
      const c = await company({ mode: 'test' });
      const q = await c.quote({ issueDate: '2026-05-05' });
      expect(q).toMatchObject({ number: 'TEST-Q-2026-00001', livemode: false });
    });

    it('keeps a draft unnumbered until it is sent, then numbers it gaplessly', async () => {
      const c = await company();
      const draft = await c.quote({ status: 'draft' });
      expect(draft).toMatchObject({ status: 'draft', number: null, issueDate: null, validUntil: null });
      const res = await c.post(`/quote/${draft.id}/send`);
      expect(res.statusCode, res.body).toBe(200);
      const year = new Date().getUTCFullYear();
      expect(res.json().data).toMatchObject({ status: 'open', number: `Q-${year}-00001` });
      expect((await c.post(`/quote/${draft.id}/send`)).json().error.code).toBe('QUOTE_NOT_DRAFT');
    });

    it('refuses a validity before the issue date, naming validUntil, and stores nothing', async () => {
      const c = await company();
      const res = await t.post(
        '/quote',
        { organizationId: c.buyer.id, lines: LINES, issueDate: '2026-03-10', validUntil: '2026-03-01' },
        c.key,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        expect.objectContaining({ field: 'validUntil', code: 'before_issue_date' }),
      ]);
      expect((await c.get('/quote')).items).toEqual([]);
    });

    it('accepts or declines an open quote once, and refuses an expired one', async () => {
      const c = await company();
      const a = await c.quote();
      const accepted = (await c.post(`/quote/${a.id}/accept`)).json().data;
      expect(accepted).toMatchObject({ status: 'accepted', statusTransitions: { acceptedAt: expect.any(String) } });
      expect((await c.post(`/quote/${a.id}/decline`)).json().error.code).toBe('QUOTE_NOT_OPEN');

      const d = await c.quote();
      expect((await c.post(`/quote/${d.id}/decline`)).json().data.status).toBe('declined');
      expect((await c.post(`/quote/${d.id}/accept`)).json().error.code).toBe('QUOTE_NOT_OPEN');

      const old = await c.quote({ issueDate: '2020-01-01', validUntil: '2020-01-31' });
      expect(old.status).toBe('expired');
      const res = await c.post(`/quote/${old.id}/accept`);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('QUOTE_EXPIRED');
    });

    it('lists quotes newest first, filtered by status (expired computed), buyer and number', async () => {
      const c = await company();
      const open = await c.quote();
      const old = await c.quote({ issueDate: '2020-01-01', validUntil: '2020-01-31' });
      const draft = await c.quote({ status: 'draft' });
      expect((await c.get('/quote')).items.map((q: Body) => q.id)).toEqual([draft.id, old.id, open.id]);
      expect((await c.get('/quote?status=expired')).items.map((q: Body) => q.id)).toEqual([old.id]);
      expect((await c.get('/quote?status=open')).items.map((q: Body) => q.id)).toEqual([open.id]);
      expect((await c.get('/quote?status=draft')).items.map((q: Body) => q.id)).toEqual([draft.id]);
      expect((await c.get('/quote?number=Q-2020')).items.map((q: Body) => q.id)).toEqual([old.id]);
      expect((await c.get(`/quote?organizationId=${c.buyer.id}&limit=1`)).nextCursor).toEqual(expect.any(String));
      const other = await company();
      expect((await t.get(`/quote/${open.id}`, other.key)).statusCode).toBe(404);
    });

    it('makes an accepted quote into an issued invoice with its lines and totals, naming the quote and its number (BT-17)', async () => {
      const c = await company();
      const q = await c.accepted({ note: 'As agreed' });
      const res = await c.post(`/quote/${q.id}/invoice`);
      expect(res.statusCode, res.body).toBe(201);
      const { quote, invoice } = res.json().data;
      expect(invoice).toMatchObject({
        status: 'issued',
        quoteId: q.id,
        tenderReference: q.number,
        // BT-13 is the buyer's order number: the buyer gave none.
        purchaseOrderReference: null,
        note: 'As agreed',
        organizationId: c.buyer.id,
      });
      expect(invoice.totals).toEqual(q.totals);
      expect(invoice.lines).toEqual(q.lines);
      expect(quote).toMatchObject({
        status: 'accepted',
        invoiceId: invoice.id,
        statusTransitions: { invoicedAt: expect.any(String) },
      });
      expect(await c.get(`/invoice/${invoice.id}`)).toEqual(invoice);
    });

    it("makes a draft invoice when asked, with the buyer's order number as BT-13 when given, and keeps the quote through finalizing", async () => {
      const c = await company();
      const q = await c.accepted({ purchaseOrderReference: 'PO-4711' });
      const { invoice } = (await c.post(`/quote/${q.id}/invoice`, { status: 'draft' })).json().data;
      expect(invoice).toMatchObject({
        status: 'draft',
        number: null,
        purchaseOrderReference: 'PO-4711',
        quoteId: q.id,
        tenderReference: q.number,
      });
      const edited = await t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/invoice/${invoice.id}`,
        headers: { 'x-api-key': c.key },
        payload: { note: 'Edited' },
      });
      expect(edited.json().data).toMatchObject({ note: 'Edited', quoteId: q.id, tenderReference: q.number });
      const issued = (await c.post(`/invoice/${invoice.id}/finalize`)).json().data;
      expect(issued).toMatchObject({ status: 'issued', quoteId: q.id, tenderReference: q.number });
      const plain = (await t.post('/invoice', { organizationId: c.buyer.id, lines: LINES }, c.key)).json().data;
      expect(plain).toMatchObject({ quoteId: null, tenderReference: null });
    });

    it('edits a draft quote with the checks of a create body, recomputing its totals; lines sent replace all lines', async () => {
      const c = await company();
      const draft = await c.quote({ status: 'draft', note: 'First' });
      const patch = (id: string, body: Body, headers: Record<string, string> = {}) =>
        t.request({
          method: 'PATCH',
          url: `${BASE_PATH}/quote/${id}`,
          headers: { 'x-api-key': c.key, ...headers },
          payload: body,
        });
      const edited = await patch(draft.id, { lines: [LINES[0]], validUntil: '2099-12-31' });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().data).toMatchObject({
        id: draft.id,
        status: 'draft',
        number: null,
        note: 'First',
        validUntil: '2099-12-31',
        lines: [expect.objectContaining({ name: 'Consulting' })],
        totals: expect.objectContaining({ taxExclusive: '99.99', payable: '118.99' }),
      });
      expect(await c.get(`/quote/${draft.id}`)).toEqual(edited.json().data);

      const early = await patch(draft.id, { issueDate: '2026-05-02', validUntil: '2026-05-01' });
      expect(early.statusCode).toBe(400);
      expect(early.json().error.details).toEqual([expect.objectContaining({ field: 'validUntil' })]);
      const unknown = await patch(draft.id, { paymentMeans: { code: '58' } });
      expect(unknown.statusCode).toBe(400);
      const noBuyer = await patch(draft.id, { organizationId: 'org_nope' });
      expect(noBuyer.json().error.code).toBe('ORGANIZATION_NOT_FOUND');
      expect((await c.get(`/quote/${draft.id}`)).validUntil).toBe('2099-12-31');

      // The edited content is what is sent, numbered.
      const sent = (await c.post(`/quote/${draft.id}/send`)).json().data;
      expect(sent).toMatchObject({ status: 'open', lines: [expect.objectContaining({ name: 'Consulting' })] });
      const refused = await patch(draft.id, { note: 'Too late' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('QUOTE_NOT_DRAFT');
      expect((await patch('quo_nope', { note: 'x' })).statusCode).toBe(404);

      // A repeat with the same Idempotency-Key replays the first answer.
      const other = await c.quote({ status: 'draft' });
      const first = await patch(other.id, { note: 'Once' }, { 'idempotency-key': `edit-${other.id}` });
      const again = await patch(other.id, { note: 'Once' }, { 'idempotency-key': `edit-${other.id}` });
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data).toEqual(first.json().data);
    });

    it('applies racing edits of a draft quote one after the other, and refuses those that come after its send', async () => {
      const c = await company();
      const draft = await c.quote({ status: 'draft' });
      // Seven edits: each send attempt that loses needs an edit committed since its read, and the
      // send tries eight times, so it is sent whatever the interleaving (eight edits could win
      // every attempt, and did once on a busy machine).
      const answers = await Promise.all([
        ...Array.from({ length: 7 }, (_, i) =>
          t.request({
            method: 'PATCH',
            url: `${BASE_PATH}/quote/${draft.id}`,
            headers: { 'x-api-key': c.key },
            payload: { note: `Edit ${i}` },
          }),
        ),
        c.post(`/quote/${draft.id}/send`),
      ]);
      const send = answers.pop()!;
      expect(send.statusCode, send.body).toBe(200);
      for (const answer of answers) {
        expect([200, 409]).toContain(answer.statusCode);
        if (answer.statusCode === 409) expect(answer.json().error.code).toBe('QUOTE_NOT_DRAFT');
      }
      // What was sent is the draft as the last edit before the send left it, and it stays so.
      const quote = await c.get(`/quote/${draft.id}`);
      expect(quote.note).toBe(send.json().data.note);
      expect(quote.number).toMatch(/^Q-\d{4}-\d{5}$/);
    });

    it('deletes a draft quote, and refuses to delete a sent one', async () => {
      const c = await company();
      const draft = await c.quote({ status: 'draft' });
      const remove = (id: string, headers: Record<string, string> = {}) =>
        t.request({ method: 'DELETE', url: `${BASE_PATH}/quote/${id}`, headers: { 'x-api-key': c.key, ...headers } });
      const deleted = await remove(draft.id, { 'idempotency-key': `delete-${draft.id}` });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json().data).toEqual({ id: draft.id, deleted: true });
      const replayed = await remove(draft.id, { 'idempotency-key': `delete-${draft.id}` });
      expect(replayed.statusCode).toBe(200);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect((await t.get(`/quote/${draft.id}`, c.key)).statusCode).toBe(404);
      expect((await remove(draft.id)).statusCode).toBe(404);

      const open = await c.quote();
      const refused = await remove(open.id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('QUOTE_NOT_DRAFT');
      expect((await c.get(`/quote/${open.id}`)).status).toBe('open');
      // A deleted draft took no number: the next quote sent has the first.
      expect(open.number).toMatch(/-00001$/);
    });

    it('refuses to invoice a quote that is not accepted, or twice, naming the invoice made', async () => {
      const c = await company();
      const open = await c.quote();
      expect((await c.post(`/quote/${open.id}/invoice`)).json().error.code).toBe('QUOTE_NOT_ACCEPTED');
      const q = await c.accepted();
      const first = (await c.post(`/quote/${q.id}/invoice`)).json().data.invoice;
      const again = await c.post(`/quote/${q.id}/invoice`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({
        code: 'QUOTE_ALREADY_INVOICED',
        details: [expect.objectContaining({ field: 'invoiceId', message: expect.stringContaining(first.id) })],
      });
      expect((await c.post('/quote/quo_nope/invoice')).statusCode).toBe(404);
    });

    it('makes one invoice of 20 parallel conversions of one accepted quote, and the invoice numbers stay gapless', async () => {
      const c = await company();
      const q = await c.accepted();
      const answers = await Promise.all(Array.from({ length: 20 }, () => c.post(`/quote/${q.id}/invoice`)));
      const made = answers.filter((r) => r.statusCode === 201);
      expect(made).toHaveLength(1);
      expect(answers.filter((r) => r.statusCode === 409).map((r) => r.json().error.code)).toEqual(
        Array(19).fill('QUOTE_ALREADY_INVOICED'),
      );
      const invoices = (await c.get(`/invoice?organizationId=${c.buyer.id}`)).items;
      expect(invoices).toHaveLength(1);
      const year = new Date().getUTCFullYear();
      expect(invoices[0].number).toBe(`${year}-00001`);
      const next = (await t.post('/invoice', { organizationId: c.buyer.id, lines: LINES }, c.key)).json().data;
      expect(next.number).toBe(`${year}-00002`);
    });

    it('rolls the conversion back when the invoice is refused, so it can be made later', async () => {
      const c = await company();
      const q = await c.accepted();
      await t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/organization/${c.buyer.id}`,
        headers: { 'x-api-key': c.key },
        payload: { archived: true },
      });
      const refused = await c.post(`/quote/${q.id}/invoice`);
      expect(refused.json().error.code).toBe('ORGANIZATION_ARCHIVED');
      expect((await c.get(`/quote/${q.id}`)).invoiceId).toBeNull();
      await t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/organization/${c.buyer.id}`,
        headers: { 'x-api-key': c.key },
        payload: { archived: false },
      });
      expect((await c.post(`/quote/${q.id}/invoice`)).statusCode).toBe(201);
    });

    it('answers a repeated conversion with the same Idempotency-Key by replaying the first answer', async () => {
      const c = await company();
      const q = await c.accepted();
      const send = () =>
        t.request({
          method: 'POST',
          url: `${BASE_PATH}/quote/${q.id}/invoice`,
          headers: { 'x-api-key': c.key, 'idempotency-key': `convert-${q.id}` },
        });
      const first = await send();
      const again = await send();
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data).toEqual(first.json().data);
    });

    it('gives the quote back when the draft invoice made from it is deleted, so it can be invoiced again', async () => {
      const c = await company();
      const q = await c.accepted();
      const { invoice } = (await c.post(`/quote/${q.id}/invoice`, { status: 'draft' })).json().data;
      const deleted = await t.request({
        method: 'DELETE',
        url: `${BASE_PATH}/invoice/${invoice.id}`,
        headers: { 'x-api-key': c.key },
      });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await c.get(`/quote/${q.id}`)).toMatchObject({
        status: 'accepted',
        invoiceId: null,
        statusTransitions: { invoicedAt: null },
      });
      expect((await c.post(`/quote/${q.id}/invoice`)).statusCode).toBe(201);
    });

    it('deletes test-mode quotes with the rest of the test data', async () => {
      const c = await company({ mode: 'test' });
      const q = await c.accepted();
      expect((await c.post(`/quote/${q.id}/invoice`)).statusCode).toBe(201);
      await resetTestData(t.container.repositories.testData, c.companyId);
      expect((await c.get('/quote')).items).toEqual([]);
    });

    it.runIf(canInspectPdf)(
      'renders the PDF in en, de and fr as a quote with its validity, asking for no payment and carrying no XML',
      async () => {
        const c = await company();
        // The company's bank account would be the invoice's payment means; a quote must not show it.
        const profile = await t.request({
          method: 'PATCH',
          url: `${BASE_PATH}/company`,
          headers: { 'x-api-key': c.key },
          payload: { bankAccount: { iban: 'DE89370400440532013000' }, paymentTerms: 'Payable within 14 days.' },
        });
        expect(profile.statusCode, profile.body).toBe(200);
        const q = await c.quote({
          issueDate: '2026-03-02',
          validUntil: '2026-04-15',
          purchaseOrderReference: 'RFQ-12',
        });
        // Every label the page prints is a quote's: its title, number and date, the parties as the
        // one it is made to and the one who offers, the sum offered; nothing an invoice alone says.
        const expected = {
          en: [
            'Quote',
            'Quote number',
            'Quote date',
            'Valid until',
            'QUOTE FOR',
            'OFFERED BY',
            'Total',
            'Your request',
            q.number,
          ],
          de: [
            'Angebot',
            'Angebotsnummer',
            'Angebotsdatum',
            'Gültig bis',
            'ANGEBOTSEMPFÄNGER',
            'ANBIETER',
            'Angebotssumme',
            'Ihre Anfrage',
            q.number,
          ],
          fr: [
            'Devis',
            'N° de devis',
            'Date du devis',
            "Valable jusqu'au",
            'CLIENT',
            'ÉMETTEUR',
            'Total TTC',
            'Votre demande',
            q.number,
          ],
        };
        const invoiceWords = {
          en: [/invoice/i, /bill to/i, /due/i, /payment/i, /your order/i],
          de: [/rechnung/i, /zahlbetrag/i, /fällig/i, /zahlung/i, /bestellung/i],
          fr: [/factur/i, /net à payer/i, /échéance/i, /paiement/i, /commande/i],
        };
        for (const [lang, words] of Object.entries(expected)) {
          const res = await t.request({
            method: 'GET',
            url: `${BASE_PATH}/quote/${q.id}/pdf?lang=${lang}`,
            headers: { 'x-api-key': c.key },
          });
          expect(res.statusCode, res.body).toBe(200);
          expect(res.headers['content-type']).toBe('application/pdf');
          const pdf = res.rawPayload;
          const text = pdfPlainText(pdf);
          for (const word of words) expect(text, lang).toContain(word);
          for (const word of invoiceWords[lang as keyof typeof invoiceWords]) expect(text, lang).not.toMatch(word);
          expect(text).not.toContain('DE89');
          expect(text).not.toContain('14 days');
          expect(pdfQrPayloads(pdf)).toEqual([]);
          expect(pdfAttachments(pdf).names).toEqual([]);
        }
        const draft = await c.quote({ status: 'draft' });
        const refused = await t.request({
          method: 'GET',
          url: `${BASE_PATH}/quote/${draft.id}/pdf`,
          headers: { 'x-api-key': c.key },
        });
        expect(refused.statusCode).toBe(409);
        expect(refused.json().error.code).toBe('QUOTE_NOT_SENT');
      },
    );

    it('records quote.updated and quote.deleted with the draft as answered, and as it was when deleted', async () => {
      const c = await company();
      const draft = await c.quote({ status: 'draft' });
      const edited = (
        await t.request({
          method: 'PATCH',
          url: `${BASE_PATH}/quote/${draft.id}`,
          headers: { 'x-api-key': c.key },
          payload: { note: 'Edited' },
        })
      ).json().data;
      await t.request({ method: 'DELETE', url: `${BASE_PATH}/quote/${draft.id}`, headers: { 'x-api-key': c.key } });
      const of = async (type: string) =>
        (await c.get(`/event?type=${type}`)).items.map((e: { data: { object: unknown } }) => e.data.object);
      expect(await of('quote.updated')).toEqual([edited]);
      expect(await of('quote.deleted')).toEqual([edited]);
    });

    it('records quote.created, .sent, .accepted, .declined and .invoiced with the quote as answered', async () => {
      const c = await company();
      const q = await c.quote();
      const accepted = (await c.post(`/quote/${q.id}/accept`)).json().data;
      const invoiced = (await c.post(`/quote/${q.id}/invoice`)).json().data.quote;
      const d = await c.quote();
      const declined = (await c.post(`/quote/${d.id}/decline`)).json().data;
      const of = async (type: string) =>
        (await c.get(`/event?type=${type}`)).items.map((e: { data: { object: unknown } }) => e.data.object);
      expect(await of('quote.created')).toEqual([d, q]);
      expect(await of('quote.sent')).toEqual([d, q]);
      expect(await of('quote.accepted')).toEqual([accepted]);
      expect(await of('quote.declined')).toEqual([declined]);
      expect(await of('quote.invoiced')).toEqual([invoiced]);
    });
  });
}
