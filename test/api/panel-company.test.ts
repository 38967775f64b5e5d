import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, PanelClient, signedInAs } from '../helpers/panel-client.js';

// The panel's Company page: the seller profile, its edit form for owners and admins, and the
// audit list of its changes, on both databases.

/** A complete form, as a browser sends it (every field, empty ones included). */
const PROFILE: Record<string, string> = {
  legalName: 'Owner Company GmbH',
  line1: 'Friedrichstr. 100',
  line2: '',
  postalCode: '10117',
  city: 'Berlin',
  countryCode: 'de',
  vatId: 'DE123456789',
  taxNumber: '12/345/67890',
  legalRegistrationId: 'HRB 4711',
  easScheme: '9930',
  easIdentifier: 'DE123456789',
  contactName: 'Ada Seller',
  contactPhone: '+49 30 987654',
  contactEmail: 'billing@owner.example',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  accountName: '',
  paymentTerms: 'Payable within 30 days.',
  creditorId: 'DE98ZZZ09999999999',
};

const text = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

interface AuditEntry {
  who: string;
  changes: Record<string, [string, string]>;
  ibanMarked: boolean;
}

/** The audit list of a Company page, newest first: who, and each changed field before and after. */
function auditList(body: string): AuditEntry[] {
  return body
    .split('<tbody class="profile-event"')
    .slice(1)
    .map((chunk) => {
      const part = chunk.slice(0, chunk.indexOf('</tbody>'));
      const spanned = [...part.matchAll(/<td rowspan="\d+">([\s\S]*?)<\/td>/g)].map((m) => text(m[1]!));
      const rows = [
        ...part.matchAll(
          /<th scope="row">([\s\S]*?)<\/th>\s*<td class="change-value">([\s\S]*?)<\/td>\s*<td class="change-value">([\s\S]*?)<\/td>/g,
        ),
      ];
      const changes = Object.fromEntries(
        rows.map((m) => [
          text(m[1]!.replace(/<span class="badge[\s\S]*$/, '')),
          [text(m[2]!), text(m[3]!)] as [string, string],
        ]),
      );
      return {
        who: spanned[1] ?? '',
        changes,
        ibanMarked:
          /<tr class="iban-change">\s*(?:<td rowspan[\s\S]*?)?<th scope="row">IBAN <span class="badge badge-alert"/.test(
            part,
          ),
      };
    });
}

for (const dialect of DIALECTS) {
  describe(`panel Company page on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    async function save(client: PanelClient, fields: Record<string, string>) {
      await client.get('/panel/company');
      return client.post('/panel/company', fields);
    }
    const companyRow = () =>
      t.storage.db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirstOrThrow();
    const eventCount = async () =>
      (await t.storage.db.selectFrom('company_events').select('id').where('company_id', '=', companyId).execute())
        .length;
    async function apiCompany() {
      const { key } = await t.createKey(companyId, ['company.read']);
      const res = await t.get('/company', key);
      expect(res.statusCode).toBe(200);
      return res.json().data;
    }

    it('shows the owner the empty profile with the edit form, the notice, and Company in the navigation', async () => {
      const page = await owner.get('/panel/company');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<a href="/panel/company" aria-current="page">Company</a>');
      expect(page.body).toContain('<form method="post" action="/panel/company"');
      expect(page.body).toContain('<button type="submit">Save profile</button>');
      expect(page.body).toContain('Issued invoices and credit notes keep the profile they were issued with');
      expect(page.body).toContain('A changed bank account is marked');
      expect(page.body).toContain('The profile has not been changed yet.');
      expect(page.body).toContain('<option value="9930">9930 — Germany VAT number</option>');
      expect(page.body).toContain('<dd>Owner Co <small class="muted">(set when the company was created)</small></dd>');
      expect((await owner.get('/panel/keys')).body).toContain('<a href="/panel/company">Company</a>');
    });

    it("saves the owner's profile; the page and GET /company show it, and the audit list shows who changed what, before and after", async () => {
      const res = await save(owner, PROFILE);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/company?done=saved');

      const page = await owner.get('/panel/company?done=saved');
      expect(page.body).toContain('The profile is saved.');
      expect(page.body).toContain('id="legalName" name="legalName" type="text" value="Owner Company GmbH"');
      // The IBAN is shown in groups of four, as banks print it, so a changed digit is easier to see.
      expect(page.body).toContain('id="iban" name="iban" type="text" value="DE89 3704 0044 0532 0130 00"');
      expect(page.body).toContain('id="countryCode" name="countryCode" type="text" value="DE"');
      expect(page.body).toContain('<option value="9930" selected>');
      expect(page.body).toContain('Payable within 30 days.</textarea>');

      expect(await apiCompany()).toMatchObject({
        id: companyId,
        name: 'Owner Co',
        legalName: 'Owner Company GmbH',
        address: { line1: 'Friedrichstr. 100', line2: null, city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
        vatId: 'DE123456789',
        taxNumber: '12/345/67890',
        legalRegistrationId: 'HRB 4711',
        electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
        contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@owner.example' },
        bankAccount: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountName: null },
        paymentTerms: 'Payable within 30 days.',
        creditorId: 'DE98ZZZ09999999999',
      });

      const [entry] = auditList(page.body);
      expect(entry!.who).toBe('owner@example.com');
      expect(entry!.changes).toMatchObject({
        'Legal name': ['empty', 'Owner Company GmbH'],
        City: ['empty', 'Berlin'],
        Country: ['empty', 'DE'],
        'Electronic address scheme': ['empty', '9930 (Germany VAT number)'],
        IBAN: ['empty', 'DE89 3704 0044 0532 0130 00'],
      });
      // Fields left empty were empty before: no change to record.
      expect(entry!.changes).not.toHaveProperty('Address line 2');
      // The first IBAN entered replaces no account: nothing to warn about.
      expect(entry!.ibanMarked).toBe(false);
      expect(page.body).not.toContain('bank account changed');
      const events = await t.storage.db
        .selectFrom('company_events')
        .selectAll()
        .where('company_id', '=', companyId)
        .execute();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actor_label: 'owner@example.com' });
      expect(events[0]!.actor_user_id).toMatch(/^usr_/);
    });

    it('says nothing changed when the form matches the profile, and records nothing', async () => {
      const before = await eventCount();
      const res = await save(owner, PROFILE);
      expect(res.headers.location).toBe('/panel/company?done=unchanged');
      expect((await owner.get('/panel/company?done=unchanged')).body).toContain('Nothing was changed');
      expect(await eventCount()).toBe(before);
    });

    it("lets an admin change the IBAN, recorded under the admin's email with the old and new account, and marked", async () => {
      const admin = await signedInAs(t.app, companyId, 'admin@example.com', 'admin');
      const res = await save(admin, { ...PROFILE, iban: 'DE02120300000000202051', city: 'Potsdam' });
      expect(res.statusCode).toBe(303);
      expect((await apiCompany()).bankAccount.iban).toBe('DE02120300000000202051');

      const list = auditList((await owner.get('/panel/company')).body);
      expect(list).toHaveLength(2);
      expect(list[0]).toEqual({
        who: 'admin@example.com',
        changes: { City: ['Berlin', 'Potsdam'], IBAN: ['DE89 3704 0044 0532 0130 00', 'DE02 1203 0000 0000 2020 51'] },
        ibanMarked: true,
      });
      expect(list[1]!.who).toBe('owner@example.com');
    });

    it('shows a change made with the CLI as made by cli, and a change without the IBAN unmarked', async () => {
      const result = await t.container.companyProfiles.update(
        companyId,
        { contactPhone: '+49 30 111' },
        { userId: null, label: 'cli' },
      );
      expect(result.ok).toBe(true);
      const [entry] = auditList((await owner.get('/panel/company')).body);
      expect(entry).toEqual({
        who: 'cli (command line)',
        changes: { 'Contact phone': ['+49 30 987654', '+49 30 111'] },
        ibanMarked: false,
      });
    });

    it('answers every invalid field at once next to it, keeps what was typed, and saves nothing', async () => {
      const row = await companyRow();
      const events = await eventCount();
      const res = await save(owner, {
        ...PROFILE,
        legalName: 'Typed But Not Saved',
        iban: 'DE89370400440532013001',
        countryCode: 'XX',
        easScheme: '1234',
        contactEmail: 'not an email',
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('4 fields need attention.');
      expect(res.body).toMatch(/id="countryCode-error"[^>]*>Must be an ISO 3166-1 alpha-2 country code/);
      expect(res.body).toMatch(/id="easScheme-error"[^>]*>Choose a scheme from the EAS code list\./);
      expect(res.body).toMatch(/id="contactEmail-error"[^>]*>Must be an email address\./);
      expect(res.body).toMatch(/id="iban-error"[^>]*>Must be an IBAN with a valid checksum\./);
      expect(res.body).toMatch(/id="iban" name="iban" type="text" value="DE89370400440532013001" aria-invalid="true"/);
      expect(res.body).toContain('id="countryCode" name="countryCode" type="text" value="XX"');
      expect(res.body).toContain('value="not an email"');
      expect(res.body).toContain('value="Typed But Not Saved"');
      // Focus goes to the first invalid field of the form, the country.
      expect(res.body).toMatch(/id="countryCode"[^>]* autofocus>/);
      expect(res.body.match(/ autofocus/g)).toHaveLength(1);

      expect(await companyRow()).toEqual(row);
      expect(await eventCount()).toBe(events);
    });

    it('refuses half an electronic address and a BIC without an IBAN, next to the field, and saves nothing', async () => {
      const row = await companyRow();
      const res = await save(owner, {
        ...PROFILE,
        legalName: 'Not saved either',
        easScheme: '0088',
        easIdentifier: '',
        iban: '',
        bic: 'COBADEFFXXX',
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/id="easIdentifier-error"[^>]*>Enter the identifier, or choose no scheme\./);
      expect(res.body).toMatch(
        /id="iban-error"[^>]*>Enter the IBAN: a BIC or account name belongs to a bank account\./,
      );
      expect(res.body).toContain('<option value="0088" selected>');
      const other = await save(owner, { ...PROFILE, easScheme: '', easIdentifier: '4000001123452' });
      expect(other.body).toMatch(/id="easScheme-error"[^>]*>Choose the scheme of this identifier\./);
      expect(await companyRow()).toEqual(row);
    });

    it('shows a member the profile without a form, and refuses a forged member post with 403 and changes nothing', async () => {
      const member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
      const page = await member.get('/panel/company');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<a href="/panel/company" aria-current="page">Company</a>');
      expect(page.body).not.toContain('action="/panel/company"');
      expect(page.body).not.toContain('Save profile');
      expect(page.body).not.toContain('name="iban"');
      expect(page.body).toContain('<dt>IBAN</dt><dd>DE02 1203 0000 0000 2020 51</dd>');
      expect(page.body).toContain('<dt>Scheme</dt><dd>9930 — Germany VAT number</dd>');
      expect(page.body).toContain('<dt>Account name</dt><dd><span class="muted">not set</span></dd>');
      expect(auditList(page.body)[0]!.who).toBe('cli (command line)');

      const row = await companyRow();
      const events = await eventCount();
      const forged = await member.post('/panel/company', { ...PROFILE, iban: 'GB33BUKB20201555555555' });
      expect(forged.statusCode).toBe(403);
      expect(forged.headers['content-type']).toMatch(/text\/html/);
      expect(forged.body).toContain('Owners and admins change the company profile.');
      expect(await companyRow()).toEqual(row);
      expect(await eventCount()).toBe(events);
    });

    it('refuses a post without the CSRF token or with a wrong one, and changes nothing', async () => {
      const row = await companyRow();
      await owner.get('/panel/company');
      expect(
        (await owner.post('/panel/company', { ...PROFILE, iban: 'GB33BUKB20201555555555' }, { csrf: false }))
          .statusCode,
      ).toBe(403);
      expect(
        (await owner.post('/panel/company', { ...PROFILE, iban: 'GB33BUKB20201555555555' }, { csrf: 'abc-def' }))
          .statusCode,
      ).toBe(403);
      expect(await companyRow()).toEqual(row);
    });

    it('sends an anonymous post to the sign-in page and changes nothing', async () => {
      const row = await companyRow();
      const anonymous = new PanelClient(t.app);
      await anonymous.get('/panel/sign-in');
      const res = await anonymous.post('/panel/company', { ...PROFILE, iban: 'GB33BUKB20201555555555' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/sign-in');
      expect((await anonymous.get('/panel/company')).headers.location).toBe('/panel/sign-in?return=%2Fpanel%2Fcompany');
      expect(await companyRow()).toEqual(row);
    });

    it('escapes user-supplied text in the form, the read-only profile, the audit list and a refused form', async () => {
      const script = '<script>alert(1)</script>';
      const breakout = '"><img src=x onerror=alert(2)>';
      const res = await save(owner, {
        ...PROFILE,
        legalName: script,
        paymentTerms: breakout,
        contactName: 'Ada & "Co"',
      });
      expect(res.statusCode).toBe(303);

      const member = new PanelClient(t.app);
      await member.signIn('member@example.com');
      for (const page of [await owner.get('/panel/company'), await member.get('/panel/company')]) {
        expect(page.body).not.toContain('<script>alert');
        expect(page.body).not.toContain('<img src=x');
        expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
        expect(page.body).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
        expect(page.body).toContain('Ada &amp; &quot;Co&quot;');
        expect(auditList(page.body)[0]!.changes['Legal name']).toEqual([
          'Owner Company GmbH',
          '&lt;script&gt;alert(1)&lt;/script&gt;',
        ]);
      }
      const refused = await save(owner, { ...PROFILE, legalName: script, iban: breakout });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).not.toContain('<script>alert');
      expect(refused.body).not.toContain('<img src=x');
      expect(refused.body).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"');
    });

    it("never shows another company's profile or its changes, and a post cannot reach it", async () => {
      const other = await t.tenant(['company.read']);
      const secret = {
        legalName: 'Other Secret Holding AG',
        iban: 'GB33BUKB20201555555555',
        contactEmail: 'secret@other.example',
      };
      expect(
        (
          await t.container.companyProfiles.update(other.companyId, secret, {
            userId: null,
            label: 'someone@other.example',
          })
        ).ok,
      ).toBe(true);
      const otherBefore = await t.storage.db
        .selectFrom('companies')
        .selectAll()
        .where('id', '=', other.companyId)
        .executeTakeFirstOrThrow();

      await save(owner, { ...PROFILE, legalName: 'Owner Company GmbH' });
      const forged = await owner.post('/panel/company', {
        ...PROFILE,
        companyId: other.companyId,
        legalName: 'Hijacked',
      });
      expect(forged.statusCode).toBe(400);
      for (const client of [owner, await signedInAs(t.app, companyId, 'member2@example.com', 'member')]) {
        const page = await client.get('/panel/company');
        for (const value of [...Object.values(secret), 'someone@other.example', other.companyId])
          expect(page.body).not.toContain(value);
      }
      expect(
        await t.storage.db
          .selectFrom('companies')
          .selectAll()
          .where('id', '=', other.companyId)
          .executeTakeFirstOrThrow(),
      ).toEqual(otherBefore);
      expect((await t.get('/company', other.key)).json().data.legalName).toBe('Other Secret Holding AG');
      expect((await apiCompany()).legalName).toBe('Owner Company GmbH');
    });
  });
}
