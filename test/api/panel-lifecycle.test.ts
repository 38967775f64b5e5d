import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { claimInstance, PanelClient, signedInAs } from '../helpers/panel-client.js';

// The invoice lifecycle in the panel: statuses, amounts, payments and credit notes on the invoice
// page and in the list, the credit-note pages and the organization page. The data is made through
// the API with a key of the panel user's own company, as an integration would.

type Body = Record<string, unknown>;

// 2 × 50 at 19 % and 3 × 10 at 7 %: 100 + 19 + 30 + 2.10 = 151.10
const LINES = [
  { name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' },
  { name: 'Books', quantity: '3', unitPrice: '10', vatRate: '7' },
];
const ONE_BOOK = [{ name: 'Books', quantity: '1', unitPrice: '10', vatRate: '7' }];
const year = new Date().toISOString().slice(0, 4);

/** The table row of `body` that holds `needle` (an id in a link), tags stripped, spaces collapsed. */
function rowText(body: string, needle: string): string {
  const at = body.indexOf(needle);
  if (at < 0) throw new Error(`no ${needle} in the page`);
  const start = body.lastIndexOf('<tr', at);
  const end = body.indexOf('</tr>', at);
  return body
    .slice(start, end)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The value beside a row heading of a two-column table (the amounts, the totals). */
function amountRow(body: string, label: string): string | undefined {
  const match = new RegExp(
    `<th scope="row">(?:<strong>)?${label}(?:</strong>)?</th><td class="num">(?:<strong>)?(?:<span class="amount">)?([^<]+)<`,
  ).exec(body);
  return match?.[1];
}

for (const dialect of DIALECTS) {
  describe(`the invoice lifecycle in the panel on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;
    let key: string;
    let buyerId: string;
    const ids = { draft: '', partial: '', paid: '', voided: '', overdue: '' };
    const numbers = { partial: '', paid: '', voided: '' };
    let creditNote: { id: string; number: string };
    let voidNote: { id: string; number: string };

    const api = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: Body, apiKey = key) =>
      t.request({
        method,
        url: `${BASE_PATH}${path}`,
        headers: { 'x-api-key': apiKey },
        ...(body ? { payload: body } : {}),
      });
    const issue = async (body: Body = {}, apiKey = key, organizationId = buyerId) => {
      const res = await t.post('/invoice', { organizationId, lines: LINES, ...body }, apiKey);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: string; number: string };
    };

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
      ({ key } = await t.createKey(companyId, ALL_PERMISSIONS));
      const buyer = await t.post(
        '/organization',
        {
          name: '<i>Lifecycle</i> Buyer & Co',
          isCustomer: true,
          email: 'ap@buyer.example',
          vatId: 'DE999999999',
          address: { line1: 'Hauptstraße 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
        },
        key,
      );
      expect(buyer.statusCode, buyer.body).toBe(201);
      buyerId = buyer.json().data.id;

      ids.draft = (await issue({ status: 'draft' })).id;
      const partial = await issue();
      [ids.partial, numbers.partial] = [partial.id, partial.number];
      expect(
        (
          await api('POST', `/invoice/${partial.id}/payment`, {
            amount: '100.10',
            method: 'card',
            reference: 'SEPA <1>',
            date: '2026-05-01',
          })
        ).statusCode,
      ).toBe(201);
      const credited = await api('POST', '/credit-note', {
        invoiceId: partial.id,
        reason: 'Returned <b>one</b> book',
        lines: ONE_BOOK,
      });
      expect(credited.statusCode, credited.body).toBe(201);
      creditNote = credited.json().data;
      const paid = await issue();
      [ids.paid, numbers.paid] = [paid.id, paid.number];
      expect((await api('POST', `/invoice/${paid.id}/payment`, { amount: '151.10' })).json().data.status).toBe('paid');
      const voided = await issue();
      [ids.voided, numbers.voided] = [voided.id, voided.number];
      const afterVoid = (await api('POST', `/invoice/${voided.id}/void`)).json().data;
      expect(afterVoid.status).toBe('void');
      voidNote = (await t.get(`/credit-note/${afterVoid.creditNoteIds[0]}`, key)).json().data;
      ids.overdue = (await issue({ issueDate: '2020-01-01', dueDate: '2020-01-31' })).id;
    });
    afterAll(async () => t.close());

    it('shows an issued invoice with a partial payment and a credit note: status, amounts, payment and a link to the credit note', async () => {
      const res = await owner.get(`/panel/invoices/${ids.partial}`);
      expect(res.statusCode).toBe(200);
      const body = res.body;
      expect(body).toContain(`<h1>Invoice <span class="doc-number">${numbers.partial}</span></h1>`);
      expect(body).toContain('<span class="badge badge-issued">Issued</span>');
      expect(body).not.toContain('badge-overdue');
      expect(amountRow(body, 'Payable')).toBe('151.10 EUR');
      expect(amountRow(body, 'Credited')).toBe('10.70 EUR');
      expect(amountRow(body, 'Paid')).toBe('100.10 EUR');
      expect(amountRow(body, 'Amount due')).toBe('40.30 EUR');

      expect(rowText(body, 'SEPA &lt;1&gt;')).toBe('2026-05-01 Card SEPA &lt;1&gt; 100.10 EUR');
      expect(body).not.toContain('SEPA <1>');
      const noteRow = rowText(body, `href="/panel/credit-notes/${creditNote.id}"`);
      expect(noteRow).toBe(
        `${creditNote.number} ${new Date().toISOString().slice(0, 10)} Returned &lt;b&gt;one&lt;/b&gt; book 10.70 EUR`,
      );
      expect(body).toMatch(/<dt>Issued<\/dt><dd><time datetime="\d{4}-\d\d-\d\dT/);
      expect(body).not.toContain('<dt>Paid</dt>');
      expect(body).toContain(`href="/panel/organizations/${buyerId}"`);
    });

    it('shows a draft as "Draft — no number yet", without payments or credit notes', async () => {
      const body = (await owner.get(`/panel/invoices/${ids.draft}`)).body;
      expect(body).toContain('<h1>Draft invoice</h1>');
      expect(body).toContain('Draft — no number yet');
      expect(body).toContain('<span class="badge badge-draft">Draft</span>');
      expect(body).toContain('Issue date set when finalized');
      expect(amountRow(body, 'Amount due')).toBe('151.10 EUR');
      expect(body).not.toContain('<h2>Payments</h2>');
      expect(body).not.toContain('<h2>Credit notes</h2>');
    });

    it('shows a draft that asked for its own number as to be issued under it, and lists it as a draft', async () => {
      const named = await issue({ status: 'draft', number: 'SPECIAL-<7>' });
      const body = (await owner.get(`/panel/invoices/${named.id}`)).body;
      expect(body).toContain('Draft — to be issued as SPECIAL-&lt;7&gt;');
      expect(rowText((await owner.get('/panel/invoices')).body, `href="/panel/invoices/${named.id}"`)).toMatch(
        /^Draft .* Draft — — /,
      );
      expect((await api('DELETE', `/invoice/${named.id}`)).statusCode).toBe(200);
    });

    it('shows a paid and a voided invoice with their badges, times and the voiding credit note', async () => {
      const paid = (await owner.get(`/panel/invoices/${ids.paid}`)).body;
      expect(paid).toContain('<span class="badge badge-paid">Paid</span>');
      expect(amountRow(paid, 'Amount due')).toBe('0.00 EUR');
      expect(paid).toMatch(/<dt>Paid<\/dt><dd><time /);
      expect(rowText(paid, '<td>Credit transfer</td>')).toMatch(/^\d{4}-\d\d-\d\d Credit transfer — 151\.10 EUR$/);
      expect(paid).toContain('No credit notes.');

      const voided = (await owner.get(`/panel/invoices/${ids.voided}`)).body;
      expect(voided).toContain('<span class="badge badge-void">Void</span>');
      expect(amountRow(voided, 'Credited')).toBe('151.10 EUR');
      expect(amountRow(voided, 'Amount due')).toBe('0.00 EUR');
      expect(voided).toMatch(/<dt>Voided<\/dt><dd><time /);
      expect(voided).toContain(`<a href="/panel/credit-notes/${voidNote.id}">${voidNote.number}</a>`);
      expect(voided).toContain('No payments recorded.');
    });

    it('lists every invoice with its status and amount due, drafts as "Draft", overdue ones flagged', async () => {
      const list = (await owner.get('/panel/invoices')).body;
      expect(list).toContain('5 invoices');
      const row = (id: string) => rowText(list, `href="/panel/invoices/${id}"`);
      expect(row(ids.draft)).toMatch(
        /^Draft &lt;i&gt;Lifecycle&lt;\/i&gt; Buyer &amp; Co Draft — — 151\.10 EUR 151\.10 EUR \d{4}-/,
      );
      expect(row(ids.partial)).toContain(`${numbers.partial} &lt;i&gt;Lifecycle&lt;/i&gt; Buyer &amp; Co Issued`);
      expect(row(ids.partial)).toMatch(/151\.10 EUR 40\.30 EUR/);
      expect(row(ids.paid)).toMatch(/ Paid .* 151\.10 EUR 0\.00 EUR/);
      expect(row(ids.voided)).toMatch(/ Void .* 151\.10 EUR 0\.00 EUR/);
      expect(row(ids.overdue)).toMatch(/ Issued Overdue 2020-01-01 2020-01-31 151\.10 EUR 151\.10 EUR/);
      expect(row(ids.partial)).not.toContain('Overdue');
      // Newest first: the overdue invoice was created last, the draft first.
      expect(list.indexOf(ids.overdue)).toBeLessThan(list.indexOf(ids.draft));
    });

    it('opens a credit note to its invoice, reason, parties, lines, VAT and totals', async () => {
      const res = await owner.get(`/panel/credit-notes/${creditNote.id}`);
      expect(res.statusCode).toBe(200);
      const body = res.body;
      expect(creditNote.number).toBe(`CN-${year}-00001`);
      expect(body).toContain(`<h1>Credit note <span class="doc-number">${creditNote.number}</span></h1>`);
      expect(body).toContain(
        `Credits invoice <a href="/panel/invoices/${ids.partial}" class="credited-invoice doc-number">${numbers.partial}</a>`,
      );
      expect(body).toContain('<dt>Reason</dt><dd>Returned &lt;b&gt;one&lt;/b&gt; book</dd>');
      expect(body).toContain('&lt;i&gt;Lifecycle&lt;/i&gt; Buyer &amp; Co');
      expect(body).not.toContain('<i>Lifecycle</i>');
      expect(body).toContain('Owner Co');
      expect(rowText(body, '<td>1</td>')).toBe('1 Books 1 pc 10.00 EUR — S 7 % 10.00 EUR');
      expect(rowText(body, 'data-vat-category="S">S</abbr></td><td class="num">7 %</td>')).toBe(
        'S 7 % 10.00 EUR 0.70 EUR',
      );
      expect(amountRow(body, 'Total credited')).toBe('10.70 EUR');
    });

    it('lists credit notes newest first, each linking to it and its invoice, searchable by either number', async () => {
      const list = (await owner.get('/panel/credit-notes')).body;
      expect(list).toContain('2 credit notes');
      expect(list.indexOf(voidNote.id)).toBeLessThan(list.indexOf(creditNote.id));
      expect(rowText(list, `href="/panel/credit-notes/${creditNote.id}"`)).toContain(
        `${creditNote.number} ${numbers.partial} &lt;i&gt;Lifecycle&lt;/i&gt; Buyer &amp; Co`,
      );
      expect(list).toContain(`href="/panel/invoices/${ids.voided}"`);
      const byInvoice = (await owner.get(`/panel/credit-notes?q=${encodeURIComponent(numbers.voided)}`)).body;
      expect(byInvoice).toContain('1 credit note<');
      expect(byInvoice).toContain(voidNote.id);
      expect((await owner.get(`/panel/credit-notes?q=${encodeURIComponent(creditNote.number)}`)).body).toContain(
        creditNote.id,
      );
      expect((await owner.get('/panel/credit-notes?q=zzz')).body).toContain('No credit notes match');
    });

    it('links an organization from the list to its page: its fields and its invoices, newest first, paginated', async () => {
      const list = (await owner.get('/panel/organizations')).body;
      expect(list).toContain(
        `<a href="/panel/organizations/${buyerId}">&lt;i&gt;Lifecycle&lt;/i&gt; Buyer &amp; Co</a>`,
      );
      const page = (await owner.get(`/panel/organizations/${buyerId}`)).body;
      expect(page).toContain('<h1>&lt;i&gt;Lifecycle&lt;/i&gt; Buyer &amp; Co</h1>');
      expect(page).toContain('<span class="badge badge-active">Active</span>');
      expect(page).toContain('<dt>Type</dt><dd>Legal entity</dd>');
      expect(page).toContain('<dt>Email</dt><dd>ap@buyer.example</dd>');
      expect(page).toContain('<dt>VAT ID</dt><dd>DE999999999</dd>');
      expect(page).toContain('<dt>Address</dt><dd>Hauptstraße 1 · 10115 Berlin · DE</dd>');
      expect(page).toContain('5 invoices, newest first');
      const order = [ids.overdue, ids.voided, ids.paid, ids.partial, ids.draft].map((id) =>
        page.indexOf(`href="/panel/invoices/${id}"`),
      );
      expect(order.every((at) => at > 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(rowText(page, `href="/panel/invoices/${ids.draft}"`)).toBe('Draft Draft — — 151.10 EUR 151.10 EUR');
      expect(rowText(page, `href="/panel/invoices/${ids.partial}"`)).toMatch(
        new RegExp(`^${numbers.partial} Issued \\d{4}-\\d\\d-\\d\\d \\d{4}-\\d\\d-\\d\\d 151\\.10 EUR 40\\.30 EUR$`),
      );

      // Another buyer with 21 invoices: two pages, each holding only that buyer's.
      const other = (await t.post('/organization', { name: 'Busy Buyer', isCustomer: true }, key)).json().data
        .id as string;
      const busy: string[] = [];
      for (let i = 0; i < 21; i++) busy.push((await issue({}, key, other)).id);
      const first = (await owner.get(`/panel/organizations/${other}`)).body;
      expect(first).toContain('21 invoices, newest first');
      expect(first).toContain('Page 1 of 2');
      expect(first).toContain(busy[20]);
      expect(first).not.toContain(busy[0]);
      expect(first).not.toContain(ids.partial);
      expect(first).toContain(`href="/panel/organizations/${other}?page=2"`);
      const second = (await owner.get(`/panel/organizations/${other}?page=2`)).body;
      expect(second).toContain(busy[0]);
      expect(second).not.toContain(busy[20]);
    });

    it('marks an archived organization on its page and in the list', async () => {
      const org = (await t.post('/organization', { name: 'Gone Ltd', isCustomer: true }, key)).json().data.id as string;
      expect((await api('PATCH', `/organization/${org}`, { archived: true })).statusCode).toBe(200);
      const page = (await owner.get(`/panel/organizations/${org}`)).body;
      expect(page).toContain('<span class="badge badge-archived">Archived</span> since');
      expect(page).toContain('No invoices for this organization yet.');
      expect(rowText((await owner.get('/panel/organizations')).body, `href="/panel/organizations/${org}"`)).toContain(
        'Gone Ltd Archived',
      );
    });

    it("answers the panel's 404 page for unknown ids and for another company's invoice, credit note and organization", async () => {
      const foreign = await t.tenant(ALL_PERMISSIONS);
      const foreignBuyer = (
        await t.post('/organization', { name: 'Foreign Buyer', isCustomer: true }, foreign.key)
      ).json().data.id as string;
      const foreignInvoice = await issue({}, foreign.key, foreignBuyer);
      const foreignNote = (
        await api('POST', '/credit-note', { invoiceId: foreignInvoice.id, reason: 'Foreign reason' }, foreign.key)
      ).json().data;
      for (const url of [
        `/panel/invoices/${foreignInvoice.id}`,
        `/panel/credit-notes/${foreignNote.id}`,
        `/panel/organizations/${foreignBuyer}`,
        '/panel/credit-notes/cn_unknown',
        '/panel/organizations/org_unknown',
      ]) {
        const res = await owner.get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.body).toContain('<h1>Not found</h1>');
        expect(res.body).not.toContain('Foreign');
      }
      expect((await owner.get('/panel/credit-notes')).body).not.toContain('Foreign reason');
      expect((await owner.get('/panel/organizations')).body).not.toContain('Foreign Buyer');
      const otherOwner = await signedInAs(t.app, await t.createCompany('Elsewhere'), 'elsewhere@example.com', 'owner');
      expect((await otherOwner.get(`/panel/credit-notes/${creditNote.id}`)).statusCode).toBe(404);
      expect((await otherOwner.get(`/panel/organizations/${buyerId}`)).statusCode).toBe(404);
      expect((await otherOwner.get('/panel/credit-notes')).body).toContain('No credit notes yet.');
    });

    it('lets a member read the invoice, credit-note and organization pages', async () => {
      const member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
      for (const url of [
        `/panel/invoices/${ids.partial}`,
        `/panel/credit-notes/${creditNote.id}`,
        '/panel/credit-notes',
        `/panel/organizations/${buyerId}`,
      ]) {
        const res = await member.get(url);
        expect(res.statusCode, url).toBe(200);
      }
      expect((await member.get(`/panel/invoices/${ids.partial}`)).body).toContain(creditNote.number);
    });
  });
}
