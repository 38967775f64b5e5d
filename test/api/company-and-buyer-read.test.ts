import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// A write that names a buyer reads the company and the buyer in one statement
// (OrganizationRepository.findWithCompany): it must answer exactly what the two reads answer,
// and nothing of another company or mode.

describe.each(DIALECTS)('the company and its buyer in one read (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  const live = (companyId: string) => ({ companyId, livemode: true, requestId: null });
  const test = (companyId: string) => ({ companyId, livemode: false, requestId: null });

  it('answers the very rows the company read and the organization read answer, every column with its type', async () => {
    const { companyId, key } = await t.tenant();
    const created = await t.post(
      '/organization',
      {
        name: 'Both Reads GmbH',
        isCustomer: true,
        vatId: 'DE811907980',
        email: 'ap@example.com',
        address: { line1: 'Weg 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
        electronicAddress: { scheme: '0088', identifier: '4000001123452' },
      },
      key,
    );
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    const { companies, organizations } = t.container.repositories;
    const both = await organizations.findWithCompany(live(companyId), id);
    expect(both).toEqual({
      company: await companies.findById(companyId),
      organization: await organizations.findById(live(companyId), id),
    });
    expect(both.organization?.electronic_address_id).toBe('4000001123452');
    expect(Object.keys(both.organization!).sort()).toEqual(
      Object.keys((await organizations.findById(live(companyId), id))!).sort(),
    );
  });

  it("finds no organization of another company or of the other mode, and nothing for a company that doesn't exist", async () => {
    const { companyId, key } = await t.tenant();
    const { companyId: otherId } = await t.tenant();
    const id = (await t.post('/organization', { name: 'Only Live', isCustomer: true }, key)).json().data.id as string;
    const { companies, organizations } = t.container.repositories;
    const company = await companies.findById(otherId);
    expect(await organizations.findWithCompany(live(otherId), id)).toEqual({ company, organization: undefined });
    expect(await organizations.findWithCompany(test(companyId), id)).toEqual({
      company: await companies.findById(companyId),
      organization: undefined,
    });
    expect(await organizations.findWithCompany(live('cmp_missing'), id)).toEqual({
      company: undefined,
      organization: undefined,
    });
  });
});
