import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../../helpers/build.js';
import { DIALECTS } from '../../helpers/dialects.js';
import { receive, supplierDocument } from '../../helpers/purchase-documents.js';

// Whom a received document is from (its seller matched to an organization by electronic
// address, VAT id or legal registration id, in that order, or created as a supplier), and that
// the same supplier's document of one kind and number is received once: a second one, even 19
// racing ones, is 409 DUPLICATE_DOCUMENT naming the first; the same bytes with the same
// Idempotency-Key are a replay.

type Json = Record<string, unknown>;

for (const dialect of DIALECTS) {
  describe(`suppliers and duplicates on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    const send = (key: string, method: 'GET' | 'POST', path: string, body?: Json) =>
      t.request({
        method,
        url: `${BASE_PATH}${path}`,
        headers: { 'x-api-key': key },
        ...(body ? { payload: body } : {}),
      });
    const organization = async (key: string, body: Json) => {
      const res = await send(key, 'POST', '/organization', body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as Json & { id: string };
    };

    it('creates an unknown seller as a supplier from what the document says of it, and matches it by its identity after that', async () => {
      const { key } = await t.tenant();
      const first = (await receive(t, key, supplierDocument({ number: 'A-1' }))).json().data;
      expect(first.supplier).toMatchObject({ name: 'Nordlicht Bürobedarf GmbH', matchedBy: 'created' });
      const created = (await send(key, 'GET', `/organization/${first.supplier.organizationId}`)).json().data;
      expect(created).toMatchObject({
        name: 'Nordlicht Bürobedarf GmbH',
        isSupplier: true,
        isCustomer: false,
        vatId: 'DE811907980',
        electronicAddress: { scheme: '0088', identifier: '4000001123452' },
        legalRegistrationId: 'HRB 4711',
        address: { line1: 'Hauptstraße 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
      });
      const second = (
        await receive(t, key, supplierDocument({ number: 'A-2', sellerName: 'Nordlicht GmbH (renamed)' }))
      ).json().data;
      expect(second.supplier).toEqual({
        organizationId: first.supplier.organizationId,
        name: 'Nordlicht GmbH (renamed)',
        matchedBy: 'electronicAddress',
      });
      const events = (await send(key, 'GET', '/event?type=organization.created')).json().data.items;
      expect(events).toHaveLength(1);
    });

    it('matches by electronic address first, then VAT id, then legal registration id', async () => {
      const { key } = await t.tenant();
      const byAddress = await organization(key, {
        name: 'By address',
        isCustomer: true,
        electronicAddress: { scheme: '0088', identifier: '4000001000005' },
      });
      const byVat = await organization(key, { name: 'By VAT', isSupplier: true, vatId: 'DE 811 907 980' });
      const byLegal = await organization(key, {
        name: 'By register',
        isSupplier: true,
        legalRegistrationId: '0106:12345678',
      });
      const cases: [Parameters<typeof supplierDocument>[0], string, string][] = [
        [
          {
            number: 'M-1',
            endpoint: { id: '4000001000005', schemeId: '0088' },
            vatId: 'DE811907980',
            legalId: { id: '12345678', schemeId: '0106' },
          },
          byAddress.id,
          'electronicAddress',
        ],
        [
          {
            number: 'M-2',
            endpoint: { id: '4000001999999', schemeId: '0088' },
            vatId: 'DE811907980',
            legalId: { id: '12345678', schemeId: '0106' },
          },
          byVat.id,
          'vatId',
        ],
        [
          {
            number: 'M-3',
            endpoint: { id: '4000001999999', schemeId: '0088' },
            vatId: 'DE999999999',
            legalId: { id: '12345678', schemeId: '0106' },
          },
          byLegal.id,
          'legalRegistrationId',
        ],
      ];
      for (const [document, organizationId, matchedBy] of cases) {
        const res = await receive(t, key, supplierDocument(document));
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().data.supplier, matchedBy).toMatchObject({ organizationId, matchedBy });
      }
      // A customer that sends an invoice is a supplier too now.
      expect((await send(key, 'GET', `/organization/${byAddress.id}`)).json().data).toMatchObject({
        isCustomer: true,
        isSupplier: true,
      });
    });

    it('names a new supplier "<name> (<VAT id>)" when another organization has its name, and keeps the two apart', async () => {
      const { key } = await t.tenant();
      const namesake = await organization(key, {
        name: 'Nordlicht Bürobedarf GmbH',
        isCustomer: true,
        vatId: 'DE123456789',
      });
      const res = await receive(t, key, supplierDocument({ number: 'N-1' }));
      expect(res.statusCode, res.body).toBe(201);
      const supplier = (await send(key, 'GET', `/organization/${res.json().data.supplier.organizationId}`)).json().data;
      expect(supplier.id).not.toBe(namesake.id);
      expect(supplier).toMatchObject({
        name: 'Nordlicht Bürobedarf GmbH (DE811907980)',
        isSupplier: true,
        vatId: 'DE811907980',
      });
      // The next document of that seller goes to the suffixed supplier, by its identity.
      expect((await receive(t, key, supplierDocument({ number: 'N-2' }))).json().data.supplier.organizationId).toBe(
        supplier.id,
      );
    });

    it("refuses the same supplier's document of one kind and number a second time with 409 DUPLICATE_DOCUMENT naming the first", async () => {
      const { key } = await t.tenant();
      const first = (await receive(t, key, supplierDocument({ number: 'D-1' }))).json().data;
      // Another rendering of the same document (CII instead of UBL): still the same document.
      const again = await receive(t, key, supplierDocument({ number: 'D-1', syntax: 'cii' }));
      expect(again.statusCode).toBe(409);
      const error = again.json().error;
      expect(error).toMatchObject({
        code: 'DUPLICATE_DOCUMENT',
        details: [{ field: 'number', code: 'duplicate_document', existingId: first.id }],
      });
      expect(error.message).toContain(first.id);
      // A credit note of that number is another kind; another supplier's D-1 is another document.
      expect((await receive(t, key, supplierDocument({ number: 'D-1', corrects: 'D-0' }))).statusCode).toBe(201);
      expect(
        (
          await receive(
            t,
            key,
            supplierDocument({
              number: 'D-1',
              vatId: 'DE999999999',
              endpoint: { id: '4000001000005', schemeId: '0088' },
              legalId: null,
              sellerName: 'Other GmbH',
            }),
          )
        ).statusCode,
      ).toBe(201);
      expect((await send(key, 'GET', '/purchase-invoice?number=D-1&kind=invoice')).json().data.items).toHaveLength(2);
    });

    it('receives one of 20 parallel uploads of a document from a new supplier: one 201, nineteen 409s naming it, one supplier', async () => {
      const { key } = await t.tenant();
      const xml = supplierDocument({
        number: 'P-20',
        sellerName: 'Parallel Papier AG',
        vatId: 'DE287654321',
        endpoint: { id: '4000001000012', schemeId: '0088' },
      });
      const answers = await Promise.all(Array.from({ length: 20 }, () => receive(t, key, xml)));
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
      const created = answers.find((a) => a.statusCode === 201)!.json().data;
      for (const answer of answers.filter((a) => a.statusCode === 409))
        expect(answer.json().error.details[0].existingId).toBe(created.id);
      expect((await send(key, 'GET', '/purchase-invoice')).json().data.items).toHaveLength(1);
      const suppliers = (await send(key, 'GET', '/organization?isSupplier=true')).json().data.items;
      expect(suppliers.map((o: { name: string }) => o.name)).toEqual(['Parallel Papier AG']);
    }, 60_000);

    it('answers the same bytes with the same Idempotency-Key as a replay, and other bytes with that key as a reused key', async () => {
      const { key } = await t.tenant();
      const xml = supplierDocument({ number: 'I-1' });
      const headers = { 'idempotency-key': 'receive-I-1' };
      const first = await receive(t, key, xml, { headers });
      expect(first.statusCode).toBe(201);
      const replay = await receive(t, key, xml, { headers, contentType: 'text/xml' });
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json().data).toEqual(first.json().data);
      const other = await receive(t, key, supplierDocument({ number: 'I-2' }), { headers });
      expect(other.statusCode).toBe(422);
      expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      // ?require=valid is part of the request: with it, the same bytes are another request.
      expect((await receive(t, key, xml, { headers, query: 'require=valid' })).json().error.code).toBe(
        'IDEMPOTENCY_KEY_REUSED',
      );
      // Without a key, the same bytes are a duplicate.
      expect((await receive(t, key, xml)).statusCode).toBe(409);
    });
  });
}
