import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationNameKey } from '../../src/services/organization-rules.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

describe('organization name keys', () => {
  it('fold case, trim and normalise so that look-alike names collide', () => {
    expect(organizationNameKey(' ACME ')).toBe(organizationNameKey('Acme'));
    expect(organizationNameKey('Straße')).toBe(organizationNameKey('STRASSE'));
    expect(organizationNameKey('Cafe\u0301')).toBe(organizationNameKey('Café'));
    expect(organizationNameKey('Acme')).not.toBe(organizationNameKey('Acme Inc'));
  });
});

for (const dialect of DIALECTS) {
  describe(`organization validation on ${dialect}`, () => {
    let t: TestApp;
    let key: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ key } = await t.tenant(['organization.create']));
      expect((await t.post('/organization', { name: 'Taken Name', isCustomer: true }, key)).statusCode).toBe(201);
    });
    afterAll(async () => t.close());

    const cases: [string, unknown, number, string][] = [
      ['an empty body', {}, 400, 'NAME_REQUIRED'],
      ['a null name', { name: null, isCustomer: true }, 400, 'NAME_REQUIRED'],
      ['an empty name', { name: '', isCustomer: true }, 400, 'NAME_REQUIRED'],
      ['a blank name', { name: ' \t ', isCustomer: true }, 400, 'NAME_REQUIRED'],
      ['a missing name with every other rule broken too', { typeCode: 'F', unknown: 1 }, 400, 'NAME_REQUIRED'],
      ['a person without names', { name: 'P', typeCode: 'F', isCustomer: true }, 400, 'NAME_FIELDS_REQUIRED'],
      [
        'a person without last name',
        { name: 'P', typeCode: 'F', firstName: 'A', isCustomer: true },
        400,
        'NAME_FIELDS_REQUIRED',
      ],
      [
        'a person with a blank first name',
        { name: 'P', typeCode: 'F', firstName: ' ', lastName: 'B', isCustomer: true },
        400,
        'NAME_FIELDS_REQUIRED',
      ],
      ['a person without names and without flags', { name: 'P', typeCode: 'F' }, 400, 'NAME_FIELDS_REQUIRED'],
      ['no flag', { name: 'Flagless' }, 400, 'ORG_TYPE_REQUIRED'],
      ['both flags false', { name: 'Flagless', isCustomer: false, isSupplier: false }, 400, 'ORG_TYPE_REQUIRED'],
      ['a flag that is the string "true"', { name: 'Flagless', isCustomer: 'true' }, 400, 'ORG_TYPE_REQUIRED'],
      ['no flag and a taken name', { name: 'Taken Name' }, 400, 'ORG_TYPE_REQUIRED'],
      ['a taken name', { name: 'taken name', isSupplier: true }, 409, 'NAME_CONFLICT'],
      ['a taken name with other spacing and case', { name: '  TAKEN NAME  ', isSupplier: true }, 409, 'NAME_CONFLICT'],
      ['an unknown field', { name: 'X1', isCustomer: true, colour: 'red' }, 400, 'VALIDATION_ERROR'],
      ['a name that is a number', { name: 42, isCustomer: true }, 400, 'VALIDATION_ERROR'],
      ['a name over 200 characters', { name: 'x'.repeat(201), isCustomer: true }, 400, 'VALIDATION_ERROR'],
      ['an unknown type code', { name: 'X2', typeCode: 'Q', isCustomer: true }, 400, 'VALIDATION_ERROR'],
      ['a bad email', { name: 'X3', isCustomer: true, email: 'nope' }, 400, 'VALIDATION_ERROR'],
      [
        'a bad country code',
        { name: 'X4', isCustomer: true, address: { countryCode: 'Germany' } },
        400,
        'VALIDATION_ERROR',
      ],
      ['a second flag of the wrong type', { name: 'X5', isCustomer: true, isSupplier: 'no' }, 400, 'VALIDATION_ERROR'],
      ['an array body', [{ name: 'X6' }], 400, 'VALIDATION_ERROR'],
    ];
    for (const [what, body, status, code] of cases) {
      it(`answers ${status} ${code} to ${what}`, async () => {
        const res = await t.post('/organization', body, key);
        expect(res.statusCode).toBe(status);
        expect(res.json()).toMatchObject({ success: false, error: { code } });
      });
    }

    it('names every offending field in the details of a validation error', async () => {
      const res = await t.post(
        '/organization',
        { name: 'Y', isCustomer: true, colour: 'red', email: 5, address: { countryCode: 'de', zip: 1 } },
        key,
      );
      expect(res.statusCode).toBe(400);
      const fields = res
        .json()
        .error.details.map((d: { field: string }) => d.field)
        .sort();
      expect(fields).toEqual(['address.countryCode', 'address.zip', 'colour', 'email']);
      for (const detail of res.json().error.details)
        expect(detail).toEqual({ field: expect.any(String), code: expect.any(String), message: expect.any(String) });
    });

    it('writes nothing when it refuses a body', async () => {
      const count = async () =>
        Number(
          (
            await t.storage.db
              .selectFrom('organizations')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      await t.post('/organization', { name: 'Nope', isCustomer: true, colour: 'red' }, key);
      await t.post('/organization', { name: 'Nope' }, key);
      expect(await count()).toBe(before);
    });

    it('lets exactly one of many concurrent creates of one name win', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.post('/organization', { name: i % 2 ? 'Race Ltd' : ' race ltd', isCustomer: true }, key),
        ),
      );
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    });

    it('allows the same name in another company', async () => {
      const other = await t.tenant(['organization.create']);
      expect((await t.post('/organization', { name: 'Taken Name', isCustomer: true }, other.key)).statusCode).toBe(201);
    });
  });
}
