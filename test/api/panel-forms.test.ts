import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/panel/html.js';
import { FirstRunSetup } from '../../src/panel/setup.js';
import { companyInputProblems } from '../../src/services/company-service.js';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, PanelClient } from '../helpers/panel-client.js';

// Every panel form answers all its problems in one answer, each under its field.

/** The ids of the field errors on a page, in page order. */
function fieldErrors(body: string): string[] {
  return [...body.matchAll(/<small id="([\w-]+)-error" class="field-error">/g)].map((m) => m[1]!);
}

for (const dialect of DIALECTS) {
  describe(`panel forms report every error at once on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    it('answers every problem of the setup form at once and keeps the link usable', async () => {
      const setup = new FirstRunSetup(t.storage.db, t.container.repositories);
      const token = (await setup.issueToken())!;
      const client = new PanelClient(t.app);
      await client.get(`/panel/setup?token=${token}`);
      const res = await client.post('/panel/setup', {
        token,
        companyName: ' ',
        currency: 'EURO',
        email: 'not-an-email',
        password: 'short',
        passwordConfirm: 'other',
      });
      expect(res.statusCode).toBe(400);
      expect(fieldErrors(res.body)).toEqual(['companyName', 'currency', 'email', 'password', 'passwordConfirm']);
      expect(res.body).toContain('5 fields need attention.');
      // The company's rules are the company service's, shown in its words.
      for (const problem of companyInputProblems({ name: ' ', currency: 'EURO' })) {
        const field = problem.field === 'name' ? 'companyName' : problem.field;
        expect(res.body).toContain(
          `<small id="${field}-error" class="field-error">${escapeHtml(problem.message)}</small>`,
        );
      }
      expect(res.body).toMatch(
        /<input id="companyName"[^>]*aria-invalid="true"[^>]*aria-describedby="companyName-error"[^>]*autofocus/,
      );
      expect(await setup.isValid(token)).toBe(true);
      expect(await t.storage.db.selectFrom('users').selectAll().execute()).toHaveLength(0);
    });

    it('answers both empty fields of the sign-in form at once', async () => {
      ({ owner } = await claimInstance(t.app));
      const client = new PanelClient(t.app);
      await client.get('/panel/sign-in');
      const res = await client.post('/panel/sign-in', { email: '', password: '' });
      expect(res.statusCode).toBe(401);
      expect(fieldErrors(res.body)).toEqual(['email', 'password']);
    });

    it('answers a bad email, an unknown role and a short password of a new user at once, and adds nobody', async () => {
      await owner.get('/panel/users');
      const res = await owner.post('/panel/users', { email: 'nope', role: 'superuser', password: 'short' });
      expect(res.statusCode).toBe(400);
      expect(fieldErrors(res.body)).toEqual(['email', 'role', 'password']);
      expect(res.body).toContain('3 fields need attention.');
      expect(res.body).toContain('Choose a role from the list.');
      expect(res.body).toContain('value="nope"');
      expect(await t.storage.db.selectFrom('users').selectAll().where('email', '=', 'nope').execute()).toHaveLength(0);
    });

    it('answers a refused address together with missing event types on the Webhooks form', async () => {
      await owner.get('/panel/webhooks');
      const res = await owner.post('/panel/webhooks', { url: 'http://127.0.0.1/hook', description: 'x'.repeat(501) });
      expect(res.statusCode).toBe(400);
      expect(fieldErrors(res.body)).toEqual(['url', 'events', 'description']);
      expect(await t.storage.db.selectFrom('webhook_endpoints').selectAll().execute()).toHaveLength(0);
    });

    it('puts the test-data confirmation error under its field', async () => {
      await owner.get('/panel/test-data');
      const res = await owner.post('/panel/test-data/reset', { confirm: 'delete' });
      expect(res.statusCode).toBe(400);
      expect(fieldErrors(res.body)).toEqual(['confirm']);
      expect(res.body).toMatch(/<input id="confirm" name="confirm"[^>]*aria-invalid="true"/);
    });
  });
}
