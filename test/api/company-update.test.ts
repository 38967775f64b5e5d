import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { EU_VAT_ID_FORMATS, checkVatId } from '../../src/documents/vat-ids.js';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { claimInstance, type PanelClient } from '../helpers/panel-client.js';

// PATCH /company: the seller profile through the API, with the one validation the panel and the
// CLI use (VAT ids in each EU state's format among its checks), the same audit entry, and
// Idempotency-Key.

const EU_STATES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'EL',
  'ES',
  'FI',
  'FR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
];

describe('VAT id formats', () => {
  it('has a format for each of the 27 member states (EL for Greece) and Northern Ireland, whose example passes', () => {
    expect(Object.keys(EU_VAT_ID_FORMATS).sort()).toEqual([...EU_STATES, 'XI'].sort());
    for (const [prefix, format] of Object.entries(EU_VAT_ID_FORMATS)) {
      expect(format.example.startsWith(prefix), prefix).toBe(true);
      expect(checkVatId(format.example), prefix).toEqual({ ok: true, value: format.example });
    }
  });

  it.each([
    ['DE12345678', 'A VAT id of Germany is DE + 9 digits, e.g. DE123456789.'],
    ['DE1234567890', 'A VAT id of Germany is DE + 9 digits, e.g. DE123456789.'],
    [
      'FR1234567890',
      'A VAT id of France is FR + 2 characters (digits, or letters other than I and O) + 9 digits, e.g. FR12345678901.',
    ],
    ['NL123456789', 'A VAT id of Netherlands is NL + 9 digits + B + 2 digits, e.g. NL123456789B01.'],
    ['AT12345678', 'A VAT id of Austria is AT + U + 8 digits, e.g. ATU12345678.'],
    ['GR123456789', 'A Greek VAT id starts with EL, not GR: EL + 9 digits, e.g. EL123456789.'],
    ['SE123456789012', 'A VAT id of Sweden is SE + 12 digits, the last two 01, e.g. SE123456789701.'],
    ['BE2123456789', 'A VAT id of Belgium is BE + 10 digits, the first 0 or 1, e.g. BE0123456789.'],
  ])('refuses %s, naming the expected format', (raw, message) => {
    expect(checkVatId(raw)).toEqual({ ok: false, message });
  });

  it('stores EU ids upper-cased without spaces, and takes ids of other countries as given', () => {
    expect(checkVatId('de 123 456 789')).toEqual({ ok: true, value: 'DE123456789' });
    expect(checkVatId('IE1234567FA')).toEqual({ ok: true, value: 'IE1234567FA' });
    expect(checkVatId('ESX1234567L')).toEqual({ ok: true, value: 'ESX1234567L' });
    for (const foreign of ['CHE-123.456.789 MWST', 'GB123456789', 'NO123456789MVA', 'T1234567890123'])
      expect(checkVatId(foreign)).toEqual({ ok: true, value: foreign });
  });
});

for (const dialect of DIALECTS) {
  describe(`PATCH /company on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let companyId: string;
    let owner: PanelClient;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
      key = (await t.createKey(companyId, ['company.read', 'company.update'])).key;
    });
    afterAll(async () => t.close());

    const patch = (body: unknown, headers: Record<string, string> = {}, withKey = key) =>
      t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/company`,
        headers: { 'x-api-key': withKey, ...headers },
        payload: body as object,
      });
    const cli = async (...args: string[]) => {
      const err: string[] = [];
      const code = await runCli(args, {
        stdout: () => {},
        stderr: (s) => err.push(s),
        env: { DATABASE_URL: t.database.url },
      });
      return { code, stderr: err.join('') };
    };

    it('sets the seller profile with the same shape GET /company answers, and records who changed what', async () => {
      const res = await patch({
        legalName: 'API Seller GmbH',
        address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'de' },
        vatId: 'DE 123 456 789',
        electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
        contact: { name: 'Ada Seller', email: 'billing@seller.example' },
        bankAccount: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'cobadeffxxx' },
        paymentTerms: 'Payable within 30 days.',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Company profile updated.');
      const company = res.json().data;
      expect(company).toMatchObject({
        legalName: 'API Seller GmbH',
        address: { line1: 'Friedrichstr. 100', line2: null, city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
        vatId: 'DE123456789',
        electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
        contact: { name: 'Ada Seller', phone: null, email: 'billing@seller.example' },
        bankAccount: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountName: null },
        paymentTerms: 'Payable within 30 days.',
      });
      expect((await t.get('/company', key)).json().data).toEqual(company);
      const history = await t.container.companyProfiles.history(companyId);
      const prefix = key.split('_')[2];
      expect(history[0]).toMatchObject({
        actor: `API key ${prefix}`,
        changes: { iban: { from: null, to: 'DE89370400440532013000' }, vat_id: { to: 'DE123456789' } },
      });
      // The panel's audit list shows the same entry.
      expect((await owner.get('/panel/company')).body).toContain(`API key ${prefix}`);
    });

    it('merges the address and contact field by field, replaces the bank account as a whole, and clears with null', async () => {
      await patch({
        address: { line1: 'Unter den Linden 1', city: 'Berlin', countryCode: 'DE' },
        contact: { name: 'Ada', phone: '+49 30 1' },
        bankAccount: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
      });
      const res = await patch({
        address: { city: 'Potsdam' },
        contact: { phone: null },
        bankAccount: { iban: 'DE02120300000000202051' },
      });
      expect(res.json().data).toMatchObject({
        address: { line1: 'Unter den Linden 1', city: 'Potsdam', countryCode: 'DE' },
        contact: { name: 'Ada', phone: null },
        bankAccount: { iban: 'DE02120300000000202051', bic: null, accountName: null },
      });
      expect((await patch({ bankAccount: null, electronicAddress: null })).json().data).toMatchObject({
        bankAccount: null,
        electronicAddress: null,
      });
    });

    it("refuses a VAT id that does not have its EU state's format, naming the format, and changes nothing", async () => {
      const before = (await t.get('/company', key)).json().data;
      const res = await patch({ vatId: 'FR1234567890', legalName: 'Changed GmbH' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'The request is not valid: check vatId.',
        details: [
          {
            field: 'vatId',
            code: 'invalid_vat_id',
            message:
              'A VAT id of France is FR + 2 characters (digits, or letters other than I and O) + 9 digits, e.g. FR12345678901.',
          },
        ],
      });
      expect((await t.get('/company', key)).json().data).toEqual(before);
    });

    it('answers every problem of a change under the field the body names', async () => {
      const res = await patch({
        address: { countryCode: 'XX' },
        contact: { email: 'not an email' },
        bankAccount: { iban: 'DE89370400440532013001', bic: 'NOPE' },
        electronicAddress: { scheme: '1234', identifier: 'x' },
        legalName: 'x'.repeat(201),
      });
      expect(res.statusCode).toBe(400);
      expect(
        res
          .json()
          .error.details.map((d: { field: string; code: string }) => `${d.field} ${d.code}`)
          .sort(),
      ).toEqual([
        'address.countryCode invalid_country',
        'bankAccount.bic invalid_bic',
        'bankAccount.iban invalid_iban',
        'contact.email invalid_email',
        'electronicAddress.scheme invalid_scheme',
        'legalName too_long',
      ]);
      expect((await patch({ name: 'Renamed' })).json().error.details).toEqual([
        { field: 'name', code: 'unknown_field', message: 'This field is not allowed.' },
      ]);
      expect((await patch({ electronicAddress: { scheme: '0088', identifier: ' ' } })).json().error.details).toEqual([
        { field: 'electronicAddress.identifier', code: 'required', message: 'Give the identifier.' },
      ]);
    });

    it('refuses the same VAT ids in the panel and the CLI, with the same message', async () => {
      const message = 'A VAT id of Germany is DE + 9 digits, e.g. DE123456789.';
      await owner.get('/panel/company');
      const form = await owner.post('/panel/company', { vatId: 'DE12345' });
      expect(form.statusCode).toBe(400);
      expect(form.body).toContain(message);
      const cli1 = await cli('company', 'update', companyId, '--vat-id', 'DE12345');
      expect(cli1.code).toBe(1);
      expect(cli1.stderr).toContain(`--vat-id: ${message}`);
    });

    it('refuses a BIC without an IBAN through every way in, as the panel always did', async () => {
      await patch({ bankAccount: null });
      const res = await cli('company', 'update', companyId, '--bic', 'COBADEFFXXX');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('--iban: Set the IBAN: a BIC or account name belongs to a bank account.');
      expect((await t.get('/company', key)).json().data.bankAccount).toBeNull();
    });

    it('answers a repeated change with the same Idempotency-Key from the first answer, and refuses the key for another change', async () => {
      const headers = { 'idempotency-key': 'profile-change-1' };
      const first = await patch({ paymentTerms: 'Payable within 14 days.' }, headers);
      const again = await patch({ paymentTerms: 'Payable within 14 days.' }, headers);
      expect(first.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data).toEqual(first.json().data);
      expect((await patch({ paymentTerms: 'Payable within 7 days.' }, headers)).json().error.code).toBe(
        'IDEMPOTENCY_KEY_REUSED',
      );
    });

    it('says so when nothing changed, and writes no audit entry', async () => {
      await patch({ taxNumber: '12/345/67890' });
      const count = (await t.container.companyProfiles.history(companyId)).length;
      const res = await patch({ taxNumber: '12/345/67890' });
      expect(res.json().message).toBe('Nothing changed: the profile already had these values.');
      expect(await t.container.companyProfiles.history(companyId)).toHaveLength(count);
    });

    it("needs company.update, a live key, and changes only the key's own company", async () => {
      const reader = (await t.createKey(companyId, ['company.read'])).key;
      expect((await patch({ legalName: 'Nope' }, {}, reader)).json().error.code).toBe('FORBIDDEN');
      const testKey = (await t.createKey(companyId, ['company.read', 'company.update'], { mode: 'test' })).key;
      const fromTest = await patch({ legalName: 'Nope' }, {}, testKey);
      expect(fromTest.statusCode).toBe(403);
      expect(fromTest.json().error.message).toBe(
        'A test key cannot change the seller profile: it is shared by live and test mode. Use a live key.',
      );
      const other = await t.tenant(['company.read', 'company.update']);
      await patch({ legalName: 'Other Tenant GmbH' }, {}, other.key);
      expect((await t.get('/company', key)).json().data.legalName).not.toBe('Other Tenant GmbH');
      expect((await t.get('/company', other.key)).json().data.legalName).toBe('Other Tenant GmbH');
    });
  });
}
