import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { MODES } from '../helpers/modes.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';

for (const dialect of DIALECTS)
  for (const mode of MODES) {
    describe(`POST /organization on ${dialect} with ${mode} keys`, () => {
      let t: TestApp;
      let key: string;
      let companyId: string;

      beforeAll(async () => {
        t = await buildTestApp(dialect);
        ({ key, companyId } = await t.tenant(['organization.create'], { mode }));
      });
      afterAll(async () => t.close());

      it('creates an organization with every field and answers 201 with it', async () => {
        const body = {
          name: '  Acme Trading GmbH ',
          typeCode: 'P',
          isCustomer: true,
          isSupplier: false,
          email: 'billing@acme.example',
          phone: '+49 30 123456',
          vatId: 'DE811907980',
          taxNumber: '12/345/67890',
          address: { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
        };
        const res = await t.post('/organization', body, key);
        expect(res.statusCode).toBe(201);
        const json = res.json();
        expect(json.success).toBe(true);
        expect(json.message).toEqual(expect.any(String));
        expect(json.data).toMatchObject({
          name: 'Acme Trading GmbH',
          typeCode: 'P',
          firstName: null,
          lastName: null,
          isCustomer: true,
          isSupplier: false,
          email: 'billing@acme.example',
          phone: '+49 30 123456',
          vatId: 'DE811907980',
          taxNumber: '12/345/67890',
          address: { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
        });
        expect(json.data.id).toMatch(/^org_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(new Date(json.data.createdAt).toISOString()).toBe(json.data.createdAt);
        expect(json.meta.requestId).toBe(res.headers['x-request-id']);

        const row = await t.storage.db
          .selectFrom('organizations')
          .selectAll()
          .where('id', '=', json.data.id)
          .executeTakeFirstOrThrow();
        expect(row.company_id).toBe(companyId);
        expect(row.name).toBe('Acme Trading GmbH');
      });

      it('creates a natural person with first and last name and defaults typeCode to P otherwise', async () => {
        const person = await t.post(
          '/organization',
          { name: 'Jane Doe', typeCode: 'F', firstName: 'Jane', lastName: 'Doe', isSupplier: true },
          key,
        );
        expect(person.statusCode).toBe(201);
        expect(person.json().data).toMatchObject({
          typeCode: 'F',
          firstName: 'Jane',
          lastName: 'Doe',
          isSupplier: true,
          isCustomer: false,
          address: null,
        });
        const entity = await t.post('/organization', { name: 'Entity Ltd', isCustomer: true }, key);
        expect(entity.json().data.typeCode).toBe('P');
      });

      it('gives ids that are neither sequential nor alike', async () => {
        const a = (await t.post('/organization', { name: 'Id A', isCustomer: true }, key)).json().data.id as string;
        const b = (await t.post('/organization', { name: 'Id B', isCustomer: true }, key)).json().data.id as string;
        expect(a).not.toBe(b);
        expect(a.slice(-12)).not.toBe(b.slice(-12));
      });
    });
  }
