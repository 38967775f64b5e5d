import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { MODES, numberPrefix } from '../helpers/modes.js';

// Drafts: created without a number, edited, deleted, finalized. Numbers are taken only when an
// invoice is issued, so drafts never leave gaps; an issued invoice is never edited or deleted.

type Body = Record<string, unknown>;

const LINE = { name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' };
const today = () => new Date().toISOString().slice(0, 10);

for (const dialect of DIALECTS)
  for (const mode of MODES) {
    describe(`drafts and finalizing on ${dialect} with ${mode} keys`, () => {
      let t: TestApp;

      beforeAll(async () => {
        t = await buildTestApp(dialect);
      });
      afterAll(async () => t.close());

      async function company() {
        const { companyId, key } = await t.tenant(undefined, { mode });
        const buyer = (
          await t.post('/organization', { name: 'Draft Buyer', isCustomer: true, vatId: 'DE811907980' }, key)
        ).json().data;
        const send = (method: 'PATCH' | 'DELETE' | 'POST', path: string, body?: Body) =>
          t.request({
            method,
            url: `${BASE_PATH}${path}`,
            headers: { 'x-api-key': key },
            ...(body ? { payload: body } : {}),
          });
        const draft = async (body: Body = {}) => {
          const res = await t.post(
            '/invoice',
            { organizationId: buyer.id, status: 'draft', lines: [LINE], ...body },
            key,
          );
          expect(res.statusCode, res.body).toBe(201);
          return res.json().data;
        };
        const issue = async (body: Body = {}) => {
          const res = await t.post('/invoice', { organizationId: buyer.id, lines: [LINE], ...body }, key);
          expect(res.statusCode, res.body).toBe(201);
          return res.json().data;
        };
        const finalize = (id: string) => send('POST', `/invoice/${id}/finalize`);
        return { companyId, key, buyer, send, draft, issue, finalize };
      }

      it('creates a draft without a number, with its totals, and takes no number for it', async () => {
        const c = await company();
        const draft = await c.draft({ issueDate: null });
        expect(draft).toMatchObject({
          status: 'draft',
          number: null,
          issueDate: null,
          dueDate: null,
          amountDue: '119.00',
          isOverdue: false,
        });
        expect(draft.totals).toMatchObject({ taxExclusive: '100.00', taxTotal: '19.00', payable: '119.00' });
        expect(draft.statusTransitions).toEqual({ finalizedAt: null, paidAt: null, voidedAt: null });
        expect((await c.issue()).number).toBe(`${numberPrefix(mode)}${today().slice(0, 4)}-00001`);
      });

      it('shows a draft with its buyer as the organization is now, and issues it with the snapshot of that moment', async () => {
        const c = await company();
        const draft = await c.draft();
        await c.send('PATCH', `/organization/${c.buyer.id}`, { name: 'Renamed Buyer' });
        expect((await t.get(`/invoice/${draft.id}`, c.key)).json().data.buyer.name).toBe('Renamed Buyer');
        const issued = (await c.finalize(draft.id)).json().data;
        expect(issued.buyer.name).toBe('Renamed Buyer');
        await c.send('PATCH', `/organization/${c.buyer.id}`, { name: 'Renamed Again' });
        expect((await t.get(`/invoice/${draft.id}`, c.key)).json().data.buyer.name).toBe('Renamed Buyer');
      });

      it('edits a draft: sent fields replace, lines replace all lines, totals follow, null clears', async () => {
        const c = await company();
        const draft = await c.draft({ dueDate: '2030-01-31', note: 'first' });
        const res = await c.send('PATCH', `/invoice/${draft.id}`, {
          lines: [
            { ...LINE, quantity: '1' },
            { name: 'Travel', quantity: '1', unitPrice: '10', vatRate: '7' },
          ],
          dueDate: null,
        });
        expect(res.statusCode, res.body).toBe(200);
        const edited = res.json().data;
        expect(edited.lines.map((l: { name: string }) => l.name)).toEqual(['Consulting', 'Travel']);
        expect(edited.totals).toMatchObject({ taxExclusive: '60.00', taxTotal: '10.20', payable: '70.20' });
        expect(edited.dueDate).toBeNull();
        expect(edited.note).toBe('first');
        expect((await t.get(`/invoice/${draft.id}`, c.key)).json().data).toEqual(edited);
      });

      it('refuses to edit with invalid content, naming the field, and keeps the draft as it was', async () => {
        const c = await company();
        const draft = await c.draft({ issueDate: '2030-02-01' });
        const res = await c.send('PATCH', `/invoice/${draft.id}`, {
          dueDate: '2030-01-01',
          lines: [{ ...LINE, unitPrice: '-1' }],
        });
        expect(res.statusCode).toBe(400);
        expect(
          res
            .json()
            .error.details.map((d: { field: string }) => d.field)
            .sort(),
        ).toEqual(['dueDate', 'lines[0].unitPrice']);
        expect((await t.get(`/invoice/${draft.id}`, c.key)).json().data).toEqual(draft);
      });

      it('never edits or deletes an issued invoice: 409 INVOICE_NOT_DRAFT', async () => {
        const c = await company();
        const issued = await c.issue();
        const patch = await c.send('PATCH', `/invoice/${issued.id}`, { note: 'changed' });
        expect(patch.statusCode).toBe(409);
        expect(patch.json().error.code).toBe('INVOICE_NOT_DRAFT');
        const remove = await c.send('DELETE', `/invoice/${issued.id}`);
        expect(remove.json().error.code).toBe('INVOICE_NOT_DRAFT');
        expect((await c.finalize(issued.id)).json().error.code).toBe('INVOICE_NOT_DRAFT');
        expect((await t.get(`/invoice/${issued.id}`, c.key)).json().data).toEqual(issued);
      });

      it('deletes a draft: 200 with { id, deleted: true }, then 404', async () => {
        const c = await company();
        const draft = await c.draft();
        const res = await c.send('DELETE', `/invoice/${draft.id}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual({ id: draft.id, deleted: true });
        expect((await t.get(`/invoice/${draft.id}`, c.key)).statusCode).toBe(404);
        expect((await c.send('DELETE', `/invoice/${draft.id}`)).statusCode).toBe(404);
      });

      it('finalizes a draft: the next number, today as issue date, the default due date, finalizedAt', async () => {
        const c = await company();
        const draft = await c.draft();
        const res = await c.finalize(draft.id);
        expect(res.statusCode, res.body).toBe(200);
        const issued = res.json().data;
        const due = new Date(Date.parse(today()) + 30 * 86_400_000).toISOString().slice(0, 10);
        expect(issued).toMatchObject({
          status: 'issued',
          number: `${numberPrefix(mode)}${today().slice(0, 4)}-00001`,
          issueDate: today(),
          dueDate: due,
        });
        expect(Date.parse(issued.statusTransitions.finalizedAt)).toBeGreaterThan(Date.now() - 60_000);
        expect(issued.totals).toEqual(draft.totals);
        expect(issued.lines).toEqual(draft.lines);
      });

      it("issues a draft's own number, checked only when it is finalized", async () => {
        const c = await company();
        const first = await c.draft({ number: 'OWN-1', issueDate: '2030-05-01' });
        const second = await c.draft({ number: 'OWN-1', issueDate: '2030-05-01' });
        expect([first.number, second.number]).toEqual(['OWN-1', 'OWN-1']);
        expect((await c.finalize(first.id)).json().data.number).toBe('OWN-1');
        const conflict = await c.finalize(second.id);
        expect(conflict.statusCode).toBe(409);
        expect(conflict.json().error.code).toBe('INVOICE_NUMBER_CONFLICT');
        expect((await t.get(`/invoice/${second.id}`, c.key)).json().data.status).toBe('draft');
        // The refused finalize gave its sequence number back: none was taken.
        expect((await c.issue({ issueDate: '2030-05-02' })).number).toBe(`${numberPrefix(mode)}2030-00001`);
      });

      it('refuses to finalize a draft whose due date is now before today', async () => {
        const c = await company();
        const draft = await c.draft({ dueDate: '2001-01-01' });
        const res = await c.finalize(draft.id);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details).toEqual([
          { field: 'dueDate', code: 'before_issue_date', message: expect.any(String) },
        ]);
      });

      it('lets exactly one of ten concurrent finalizes of one draft succeed; the others find it issued', async () => {
        const c = await company();
        const draft = await c.draft();
        const answers = await Promise.all(Array.from({ length: 10 }, () => c.finalize(draft.id)));
        expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
        expect(
          answers.filter((a) => a.statusCode === 409).every((a) => a.json().error.code === 'INVOICE_NOT_DRAFT'),
        ).toBe(true);
        expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(9);
        const list = (await t.get('/invoice?status=issued', c.key)).json().data.items;
        expect(list.map((i: { number: string }) => i.number)).toEqual([
          `${numberPrefix(mode)}${today().slice(0, 4)}-00001`,
        ]);
      });

      it('gives 50 parallel finalizes 00001 to 00050 while drafts are created and deleted in between', async () => {
        const c = await company();
        const drafts = await Promise.all(Array.from({ length: 50 }, () => c.draft({ issueDate: '2031-03-01' })));
        const noise = Array.from({ length: 20 }, async () => {
          const extra = await c.draft({ issueDate: '2031-03-01' });
          await c.send('DELETE', `/invoice/${extra.id}`);
        });
        const finals = await Promise.all([...drafts.map((d) => c.finalize(d.id)), ...noise]);
        const numbers = finals
          .slice(0, 50)
          .map((r) => (r as Awaited<ReturnType<typeof c.finalize>>).json().data.number as string)
          .sort();
        expect(numbers).toEqual(
          Array.from({ length: 50 }, (_, i) => `${numberPrefix(mode)}2031-${String(i + 1).padStart(5, '0')}`),
        );
      });

      it('refuses a draft or an invoice for an archived organization, and finalizing a draft whose buyer was archived since', async () => {
        const c = await company();
        const draft = await c.draft();
        expect((await c.send('PATCH', `/organization/${c.buyer.id}`, { archived: true })).statusCode).toBe(200);
        for (const body of [{}, { status: 'draft' }]) {
          const res = await t.post('/invoice', { organizationId: c.buyer.id, lines: [LINE], ...body }, c.key);
          expect(res.statusCode).toBe(400);
          expect(res.json().error.code).toBe('ORGANIZATION_ARCHIVED');
        }
        expect((await c.finalize(draft.id)).json().error.code).toBe('ORGANIZATION_ARCHIVED');
        await c.send('PATCH', `/organization/${c.buyer.id}`, { archived: false });
        expect((await c.finalize(draft.id)).statusCode).toBe(200);
      });

      it("answers 404 for another company's draft on every draft route", async () => {
        const owner = await company();
        const other = await company();
        const draft = await owner.draft();
        expect((await other.send('PATCH', `/invoice/${draft.id}`, { note: 'x' })).statusCode).toBe(404);
        expect((await other.send('DELETE', `/invoice/${draft.id}`)).statusCode).toBe(404);
        expect((await other.finalize(draft.id)).statusCode).toBe(404);
        expect((await t.get(`/invoice/${draft.id}`, owner.key)).json().data.status).toBe('draft');
      });

      it('replays a finalize sent again with the same Idempotency-Key, and refuses the key for another draft', async () => {
        const c = await company();
        const [a, b] = [await c.draft(), await c.draft()];
        const send = (id: string, key: string) =>
          t.request({
            method: 'POST',
            url: `${BASE_PATH}/invoice/${id}/finalize`,
            headers: { 'x-api-key': c.key, 'idempotency-key': key },
          });
        const first = await send(a.id, 'fin-1');
        const again = await send(a.id, 'fin-1');
        expect(again.statusCode).toBe(200);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json().data).toEqual(first.json().data);
        const other = await send(b.id, 'fin-1');
        expect(other.statusCode).toBe(422);
        expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      });

      it('lists drafts and issued invoices by status', async () => {
        const c = await company();
        const draft = await c.draft();
        const issued = await c.issue();
        const ids = async (query: string) =>
          (await t.get(`/invoice?${query}`, c.key)).json().data.items.map((i: { id: string }) => i.id);
        expect(await ids('status=draft')).toEqual([draft.id]);
        expect(await ids('status=issued')).toEqual([issued.id]);
        expect(await ids('')).toEqual([issued.id, draft.id]);
      });
    });
  }
