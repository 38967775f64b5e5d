import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// What a client sends is stored exactly, or refused with a 400 naming the field: numbers are
// never rounded by a float on the way in, and text is never changed by the database.

for (const dialect of DIALECTS) {
  describe(`exact input on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let buyerId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ key } = await t.tenant());
      buyerId = (await t.post('/organization', { name: 'Exact Buyer', isCustomer: true }, key)).json().data.id;
    });
    afterAll(async () => t.close());

    /** POSTs a raw JSON text, so that numbers reach the server exactly as written here. */
    const postRaw = (path: string, json: string) =>
      t.request({
        method: 'POST',
        url: `${BASE_PATH}${path}`,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        payload: json,
      });

    const invoiceJson = (line: string) =>
      `{"organizationId":"${buyerId}","issueDate":"2026-05-04","lines":[{"name":"Item","vatRate":19,${line}}]}`;

    it('stores a JSON number with more digits than a float holds exactly as written', async () => {
      const res = await postRaw('/invoice', invoiceJson('"quantity":1,"unitPrice":1234567890123.123456'));
      expect(res.statusCode, res.body).toBe(201);
      const line = res.json().data.lines[0];
      expect(line.unitPrice).toBe('1234567890123.123456');
      expect(line.netAmount).toBe('1234567890123.12');
      const read = await t.get(`/invoice/${res.json().data.id}`, key);
      expect(read.json().data.lines[0].unitPrice).toBe('1234567890123.123456');
    });

    it('refuses a JSON number with more decimals than the field allows, naming the field', async () => {
      const res = await postRaw(
        '/invoice',
        invoiceJson('"quantity":1,"unitPrice":0.1000000000000000000000000000000001'),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        { field: 'lines[0].unitPrice', code: 'too_many_decimals', message: expect.any(String) },
      ]);
    });

    it('reads 1.50 as 1.5 and refuses exponent notation as it does in strings', async () => {
      const ok = await postRaw('/invoice', invoiceJson('"quantity":1.50,"unitPrice":10'));
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().data.lines[0].quantity).toBe('1.5');
      const exponent = await postRaw('/invoice', invoiceJson('"quantity":1e2,"unitPrice":10'));
      expect(exponent.statusCode).toBe(400);
      expect(exponent.json().error.details).toEqual([
        { field: 'lines[0].quantity', code: 'invalid_decimal', message: expect.any(String) },
      ]);
    });

    it('refuses a number that a float cannot hold exactly in a field that is not a decimal, naming the field', async () => {
      const res = await postRaw(
        '/organization',
        '{"name":"Float Flag","isCustomer":true,"isSupplier":12345678901234567890}',
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        { field: 'isSupplier', code: 'invalid_type', message: expect.any(String) },
      ]);
    });

    it('refuses a lone surrogate in any text field of a body with 400 naming the field, and stores nothing', async () => {
      const org = await postRaw('/organization', '{"name":"Lone \\ud800 Surrogate","isCustomer":true}');
      expect(org.statusCode).toBe(400);
      expect(org.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'name', code: 'invalid_character' }],
      });
      const line = await postRaw(
        '/invoice',
        invoiceJson('"quantity":1,"unitPrice":10,"description":"trailing \\udfff"'),
      );
      expect(line.statusCode).toBe(400);
      expect(line.json().error.details).toEqual([
        { field: 'lines[0].description', code: 'invalid_character', message: expect.any(String) },
      ]);
      const listed = await t.get('/organization?name=Lone', key);
      expect(listed.json().data.items).toEqual([]);
    });

    it('refuses a query value that is not UTF-8 (an encoded surrogate) or holds NUL with 400 naming the parameter', async () => {
      // The UTF-8-like encoding of U+D800 is not UTF-8: it is refused, not guessed at.
      const surrogate = await t.get('/organization?name=a%ED%A0%80', key);
      expect(surrogate.statusCode).toBe(400);
      expect(surrogate.json().error.details).toEqual([
        { field: 'name', code: 'invalid_encoding', message: expect.any(String) },
      ]);
      const broken = await t.get('/organization?name=%E2%82', key);
      expect(broken.json().error.details).toEqual([
        { field: 'name', code: 'invalid_encoding', message: expect.any(String) },
      ]);
      const nul = await t.get('/organization?name=a%00b', key);
      expect(nul.statusCode).toBe(400);
      expect(nul.json().error.details).toEqual([
        { field: 'name', code: 'invalid_character', message: expect.any(String) },
      ]);
      expect((await t.get(`/organization?name=${encodeURIComponent('Exact B')}`, key)).json().data.items).toHaveLength(
        1,
      );
    });

    it('reads back every well-formed text exactly as it was sent', async () => {
      const text = fc
        .string({ unit: 'binary', minLength: 1, maxLength: 60 })
        .filter(
          (s) =>
            s.isWellFormed() && !s.includes('\u0000') && s.trim() !== '' && s.trim() === s && s.normalize('NFC') === s,
        );
      await fc.assert(
        fc.asyncProperty(text, text, async (name, description) => {
          const created = await t.post(
            '/organization',
            { name: `${name} ${Math.random()}`, isCustomer: true, address: { line1: description } },
            key,
          );
          expect(created.statusCode, created.body).toBe(201);
          const read = (await t.get(`/organization/${created.json().data.id}`, key)).json().data;
          expect(read.address.line1).toBe(description);
          expect(read.name).toBe(created.json().data.name);
          const invoice = await t.post(
            '/invoice',
            { organizationId: buyerId, lines: [{ name, description, quantity: '1', unitPrice: '1', vatRate: '19' }] },
            key,
          );
          expect(invoice.statusCode, invoice.body).toBe(201);
          const line = (await t.get(`/invoice/${invoice.json().data.id}`, key)).json().data.lines[0];
          expect([line.name, line.description]).toEqual([name, description]);
        }),
        { numRuns: 40 },
      );
    });
  });
}
