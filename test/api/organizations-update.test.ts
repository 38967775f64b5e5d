import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// PATCH /organization/{id}: merged with the stored organization, then the spec's rules in their
// order on the merged result, then NAME_CONFLICT for a rename onto another organization's name.
// Archived organizations leave the default list and cannot be invoiced.

for (const dialect of DIALECTS) {
  describe(`editing organizations on ${dialect}`, () => {
    let t: TestApp;
    let key: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ key } = await t.tenant());
    });
    afterAll(async () => t.close());

    const create = async (body: Record<string, unknown>) => (await t.post('/organization', body, key)).json().data;
    const patch = (id: string, body: unknown) =>
      t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/organization/${id}`,
        headers: { 'x-api-key': key },
        payload: body as Record<string, unknown>,
      });

    it('merges the sent fields, clears the ones sent as null and merges the address field by field', async () => {
      const org = await create({
        name: 'Merge Co',
        isCustomer: true,
        email: 'a@merge.example',
        phone: '+49 1',
        address: { city: 'Berlin', countryCode: 'DE' },
      });
      const res = await patch(org.id, { phone: null, address: { postalCode: '10115' }, isSupplier: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        name: 'Merge Co',
        email: 'a@merge.example',
        phone: null,
        isCustomer: true,
        isSupplier: true,
        address: { city: 'Berlin', postalCode: '10115', countryCode: 'DE', line1: null, line2: null },
        archived: false,
      });
      expect((await t.get(`/organization/${org.id}`, key)).json().data).toEqual(res.json().data);
    });

    it("checks the spec's rules on the merged result, in the spec's order, before the schema", async () => {
      const org = await create({ name: 'Rules Co', isCustomer: true });
      const cases: [unknown, string][] = [
        [{ name: '  ', typeCode: 'F', isCustomer: false }, 'NAME_REQUIRED'],
        [{ typeCode: 'F', isCustomer: false }, 'NAME_FIELDS_REQUIRED'],
        [{ isCustomer: false, email: 'not an email' }, 'ORG_TYPE_REQUIRED'],
        [{ email: 'not an email' }, 'VALIDATION_ERROR'],
      ];
      for (const [body, code] of cases) {
        const res = await patch(org.id, body);
        expect(res.json().error.code, JSON.stringify(body)).toBe(code);
      }
      expect((await patch(org.id, { typeCode: 'F', firstName: 'Ada', lastName: 'Lovelace' })).statusCode).toBe(200);
    });

    it('refuses a rename onto another organization (case- and space-insensitively) with 409 NAME_CONFLICT', async () => {
      await create({ name: 'Taken Name GmbH', isCustomer: true });
      const org = await create({ name: 'Free Name', isCustomer: true });
      const res = await patch(org.id, { name: '  taken name gmbh ' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('NAME_CONFLICT');
      expect((await patch(org.id, { name: 'FREE NAME' })).json().data.name).toBe('FREE NAME');
    });

    it('archives and restores: archived ones leave the default list and are listed with archived=true', async () => {
      const org = await create({ name: 'Archive Me', isCustomer: true });
      expect((await patch(org.id, { archived: true })).json().data.archived).toBe(true);
      const names = async (query: string) =>
        (await t.get(`/organization?${query}`, key)).json().data.items.map((o: { name: string }) => o.name);
      expect(await names('limit=100')).not.toContain('Archive Me');
      expect(await names('archived=true')).toEqual(['Archive Me']);
      expect((await t.get(`/organization/${org.id}`, key)).json().data.archived).toBe(true);
      expect((await patch(org.id, { archived: false })).json().data.archived).toBe(false);
      expect(await names('limit=100')).toContain('Archive Me');
    });

    it("answers 404 for another company's organization and for an unknown id", async () => {
      const org = await create({ name: 'Mine', isCustomer: true });
      const other = await t.tenant();
      const res = await t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/organization/${org.id}`,
        headers: { 'x-api-key': other.key },
        payload: { name: 'Stolen' },
      });
      expect(res.statusCode).toBe(404);
      expect((await patch('org_nope', { name: 'x' })).statusCode).toBe(404);
      expect((await t.get(`/organization/${org.id}`, key)).json().data.name).toBe('Mine');
    });
  });
}
