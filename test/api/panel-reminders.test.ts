import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { claimInstance, PanelClient, signedInAs } from '../helpers/panel-client.js';

// Reminders in the panel: the company's reminder policy is read by every role, saved by owners
// and admins through the API's service (the same checks, shown under the row's field), and
// previewed level by level in a chosen language; an issued invoice's reminders are paused (also
// as a dispute) and resumed from its page, as POST /invoice/{id}/reminders/pause and /resume do.

const LINES = [{ name: 'Consulting', quantity: '3', unitCode: 'HUR', unitPrice: '80', vatRate: '19' }];

/** The form's rows: days, fee and interest per level, empty beyond the given ones. */
function policyForm(levels: [string, string, string][], enabled = true): Record<string, string> {
  const fields: Record<string, string> = enabled ? { enabled: 'on' } : {};
  for (let i = 0; i < 6; i++) {
    const [days, fee, interest] = levels[i] ?? ['', '', ''];
    fields[`days${i}`] = days;
    fields[`fee${i}`] = fee;
    fields[`interest${i}`] = interest;
  }
  return fields;
}

for (const dialect of DIALECTS) {
  describe(`reminders in the panel on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let member: PanelClient;
    let key: string;
    let invoiceId: string;

    const api = async (method: 'GET' | 'POST', path: string) => {
      const res = await t.request({ method, url: `${BASE_PATH}${path}`, headers: { 'x-api-key': key } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      let companyId: string;
      ({ owner, companyId } = await claimInstance(t.app));
      member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
      ({ key } = await t.createKey(companyId, [
        'company.read',
        'organization.create',
        'invoice.create',
        'invoice.read',
        'invoice.update',
      ]));
      const buyer = await t.post('/organization', { name: 'Buyer AG', isCustomer: true }, key);
      expect(buyer.statusCode, buyer.body).toBe(201);
      const invoice = await t.post('/invoice', { organizationId: buyer.json().data.id, lines: LINES }, key);
      expect(invoice.statusCode, invoice.body).toBe(201);
      invoiceId = invoice.json().data.id;
    });
    afterAll(() => t.close());

    it('shows the default policy with its levels and a preview of each message in the chosen language', async () => {
      const page = await owner.get('/panel/company/reminders?language=de');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('The default policy');
      const policy = await api('GET', '/company/reminder-policy');
      for (const [i, level] of (policy.levels as { days: number }[]).entries())
        expect(page.body).toContain(`name="days${i}" value="${level.days}"`);
      const preview = await api('GET', '/company/reminder-policy/preview?language=de');
      expect(preview.length).toBe(policy.levels.length);
      for (const p of preview as { subject: string }[]) expect(page.body).toContain(p.subject.replace(/&/g, '&amp;'));
      expect(page.body).toMatch(/<option value="de" selected>/);
    });

    it('saves a policy an owner enters, as the API then answers it, with an audit entry on the company', async () => {
      await owner.get('/panel/company/reminders');
      const saved = await owner.post(
        '/panel/company/reminders',
        policyForm([
          ['14', '5.00', '9'],
          ['0', '', ''],
          ['-3', '', ''],
        ]),
      );
      expect(saved.statusCode, saved.body).toBe(303);
      expect(saved.headers.location).toBe('/panel/company/reminders?done=saved');
      const policy = await api('GET', '/company/reminder-policy');
      expect(policy.custom).toBe(true);
      expect(policy.enabled).toBe(true);
      expect(
        policy.levels.map((l: { days: number; fee: string | null; interestRatePercent: string | null }) => [
          l.days,
          l.fee,
          l.interestRatePercent,
        ]),
      ).toEqual([
        [-3, null, null],
        [0, null, null],
        [14, '5', '9'],
      ]);
      const page = await owner.get('/panel/company/reminders?done=saved');
      expect(page.body).toContain('The reminder policy is saved.');
      expect(page.body).toContain('Your own policy');
      const company = await owner.get('/panel/company');
      expect(company.body).toContain('reminderPolicy');
    });

    it("refuses a fee before the due date with the service's words under that row's field, and changes nothing", async () => {
      const before = await api('GET', '/company/reminder-policy');
      await owner.get('/panel/company/reminders');
      const refused = await owner.post(
        '/panel/company/reminders',
        policyForm([
          ['-3', '', ''],
          ['7', '', ''],
          ['0', '2.50', ''],
        ]),
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('id="fee2-error"');
      expect(refused.body).toContain('A fee applies only to a level after the due date');
      expect(refused.body).toContain('name="fee2" value="2.50"');
      expect(await api('GET', '/company/reminder-policy')).toEqual(before);
    });

    it('refuses days that are not a whole number, and a row with a fee but no days, before asking the service', async () => {
      await owner.get('/panel/company/reminders');
      const refused = await owner.post(
        '/panel/company/reminders',
        policyForm([
          ['seven', '', ''],
          ['', '5', ''],
        ]),
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('id="days0-error"');
      expect(refused.body).toContain('id="days1-error"');
    });

    it('lets a member read the policy but not change it', async () => {
      const page = await member.get('/panel/company/reminders');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Owners and admins change the policy.');
      expect(page.body).not.toContain('Save the policy');
      const before = await api('GET', '/company/reminder-policy');
      const refused = await member.post('/panel/company/reminders', policyForm([['7', '', '']]));
      expect(refused.statusCode).toBe(403);
      expect(await api('GET', '/company/reminder-policy')).toEqual(before);
    });

    it("lists a template per level of the policy and language, and previews a reminder template's typed text filled in for a sample before it is saved", async () => {
      const policy = await api('GET', '/company/reminder-policy');
      const list = await owner.get('/panel/company/email-templates');
      expect(list.statusCode).toBe(200);
      const reminderRows = list.body.split('<table class="striped reminder-templates">')[1]!.split('</table>')[0]!;
      expect(reminderRows.match(/<tr><th scope="row"/g)?.length).toBe(policy.levels.length * 3);
      expect(reminderRows).toContain(`/panel/company/email-templates/reminder-${policy.levels.length}/de`);
      expect(reminderRows).not.toContain(`reminder-${policy.levels.length + 1}/`);
      expect(
        (await owner.get(`/panel/company/email-templates/reminder-${policy.levels.length + 1}/en`)).statusCode,
      ).toBe(404);

      await owner.get('/panel/company/email-templates/reminder-1/en');
      const previewed = await owner.post('/panel/company/email-templates/reminder-1/en', {
        subject: 'Soon due: {{number}}',
        body: 'Please pay {{amount}} {{currency}} by {{dueDate}} (level {{level}}).',
        action: 'preview',
      });
      expect(previewed.statusCode).toBe(200);
      expect(previewed.body).toContain('Soon due: RE-2026-00042');
      expect(previewed.body).toContain('Please pay 1190.00 EUR by 2026-03-31 (level 1).');
      const before = await api('GET', '/company/reminder-policy/preview?language=en');
      expect(before[0].subject).not.toContain('Soon due');

      const saved = await owner.post('/panel/company/email-templates/reminder-1/en', {
        subject: 'Soon due: {{number}}',
        body: 'Please pay {{amount}} {{currency}} by {{dueDate}} (level {{level}}).',
        action: 'save',
      });
      expect(saved.statusCode).toBe(303);
      const after = await api('GET', '/company/reminder-policy/preview?language=en');
      expect(after[0]).toMatchObject({ custom: true, subject: 'Soon due: RE-2026-00042' });

      await owner.get('/panel/company/email-templates/reminder-1/en');
      const reset = await owner.post('/panel/company/email-templates/reminder-1/en/reset');
      expect(reset.statusCode).toBe(303);
      expect(await api('GET', '/company/reminder-policy/preview?language=en')).toEqual(before);
    });

    it("pauses an invoice's reminders as a dispute from its page and resumes them, as the API then says", async () => {
      const page = await owner.get(`/panel/invoices/${invoiceId}`);
      expect(page.body).toContain('Pause reminders');
      const paused = await owner.post(`/panel/invoices/${invoiceId}/reminders`, {
        action: 'pause',
        reason: 'dispute',
        note: 'Quantity contested',
      });
      expect(paused.statusCode, paused.body).toBe(303);
      const state = await api('GET', `/invoice/${invoiceId}/reminders`);
      expect(state).toMatchObject({ paused: true, pauseReason: 'dispute', pauseNote: 'Quantity contested' });
      const after = await owner.get(`/panel/invoices/${invoiceId}`);
      expect(after.body).toContain('the buyer disputes the invoice');
      expect(after.body).toContain('Resume reminders');

      const resumed = await owner.post(`/panel/invoices/${invoiceId}/reminders`, { action: 'resume' });
      expect(resumed.statusCode).toBe(303);
      expect(await api('GET', `/invoice/${invoiceId}/reminders`)).toMatchObject({ paused: false });
    });

    it('refuses a pause from a member and a forged pause without the form token', async () => {
      const page = await member.get(`/panel/invoices/${invoiceId}`);
      expect(page.body).not.toContain('Pause reminders');
      expect((await member.post(`/panel/invoices/${invoiceId}/reminders`, { action: 'pause' })).statusCode).toBe(403);
      await owner.get(`/panel/invoices/${invoiceId}`);
      const forged = await owner.post(`/panel/invoices/${invoiceId}/reminders`, { action: 'pause' }, { csrf: false });
      expect(forged.statusCode).toBe(403);
      expect(await api('GET', `/invoice/${invoiceId}/reminders`)).toMatchObject({ paused: false });
    });
  });
}
