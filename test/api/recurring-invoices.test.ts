import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { runCli } from '../../src/cli/main.js';
import { resetTestData } from '../../src/services/test-data.js';

// Recurring invoices through the API, with the scheduler's passes run as of chosen instants
// (container.recurring.runDue, what `invoicing schedules run --as-of` calls): month ends from the
// anchor, local days across daylight-saving changes, catch-up and skip, pause, resume, edit and
// end, failed runs, and the refusals of bad input.

type Body = Record<string, unknown>;

const LINES = [{ name: 'Maintenance', quantity: '1', unitPrice: '100', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`recurring invoices on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      // The passes are run by the tests, as of the instants they choose.
      t = await buildTestApp(dialect, { recurringIntervalMs: 0 });
    });
    afterAll(async () => t.close());

    // A pass over one company's templates: the tests share the app, and each its own company.
    let current = '';
    const pass = (at: string) => t.container.recurring.runDue(new Date(at), undefined, { companyId: current });

    async function company(options: { mode?: 'live' | 'test' } = {}) {
      const { companyId, key } = await t.tenant(undefined, options);
      current = companyId;
      const buyer = (await t.post('/organization', { name: 'Subscriber AG', isCustomer: true }, key)).json().data;
      const send = (method: 'POST' | 'PATCH', path: string, body?: Body) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key },
          ...(body ? { payload: body } : {}),
        });
      const create = async (schedule: Body, extra: Body = {}, template: Body = {}) => {
        const res = await t.post(
          '/recurring-invoice',
          {
            template: { organizationId: buyer.id, lines: LINES, ...template },
            schedule: { interval: 'month', timeZone: 'Europe/Berlin', ...schedule },
            ...extra,
          },
          key,
        );
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data;
      };
      const read = async (id: string) => (await t.get(`/recurring-invoice/${id}`, key)).json().data;
      const invoice = async (id: string) => (await t.get(`/invoice/${id}`, key)).json().data;
      const events = async (type: string) =>
        (await t.get(`/event?type=${encodeURIComponent(type)}&limit=100`, key)).json().data.items;
      return { companyId, key, buyer, send, create, read, invoice, events };
    }

    it('runs a monthly template anchored on 31 January on 28 February, 31 March and 30 April, one invoice each with its period', async () => {
      const c = await company();
      const r = await c.create({ anchorDate: '2027-01-31' }, {}, { dueDays: 14 });
      expect(r.nextRun).toEqual({
        date: '2027-01-31',
        at: '2027-01-30T23:00:00.000Z',
        period: { start: '2027-01-31', end: '2027-02-27' },
      });
      // Each run date, as of the first minute of its Berlin day, after a pass the evening before made nothing.
      for (const [dayBefore, due] of [
        ['2027-01-30T22:59:00Z', '2027-01-30T23:00:00Z'],
        ['2027-02-27T22:59:00Z', '2027-02-27T23:00:00Z'],
        ['2027-03-30T21:59:00Z', '2027-03-30T22:00:00Z'],
        ['2027-04-29T21:59:00Z', '2027-04-29T22:00:00Z'],
      ] as const) {
        expect((await pass(dayBefore)).made).toBe(0);
        expect((await pass(due)).made).toBe(1);
        expect((await pass(due)).made).toBe(0);
      }
      const read = await c.read(r.id);
      const runs = [...read.runs].reverse();
      expect(runs.map((run: Body) => [run.runDate, run.period, run.status])).toEqual([
        ['2027-01-31', { start: '2027-01-31', end: '2027-02-27' }, 'made'],
        ['2027-02-28', { start: '2027-02-28', end: '2027-03-30' }, 'made'],
        ['2027-03-31', { start: '2027-03-31', end: '2027-04-29' }, 'made'],
        ['2027-04-30', { start: '2027-04-30', end: '2027-05-30' }, 'made'],
      ]);
      const invoices = await Promise.all(runs.map((run: Body) => c.invoice(run.invoiceId as string)));
      expect(invoices.map((i) => [i.status, i.number, i.issueDate, i.dueDate, i.invoicePeriod])).toEqual([
        ['issued', '2027-00001', '2027-01-31', '2027-02-14', { start: '2027-01-31', end: '2027-02-27' }],
        ['issued', '2027-00002', '2027-02-28', '2027-03-14', { start: '2027-02-28', end: '2027-03-30' }],
        ['issued', '2027-00003', '2027-03-31', '2027-04-14', { start: '2027-03-31', end: '2027-04-29' }],
        ['issued', '2027-00004', '2027-04-30', '2027-05-14', { start: '2027-04-30', end: '2027-05-30' }],
      ]);
      expect(read.nextRun).toMatchObject({ date: '2027-05-31', at: '2027-05-30T22:00:00.000Z' });
      expect(await c.events('recurring_invoice.run')).toHaveLength(4);
      expect(await c.events('recurring_invoice.created')).toHaveLength(1);
    });

    it('runs on 29 February in a leap year', async () => {
      const c = await company();
      const r = await c.create({ anchorDate: '2028-01-31', timeZone: 'UTC' });
      await pass('2028-01-31T00:00:00Z');
      expect((await pass('2028-02-28T23:59:59Z')).made).toBe(0);
      expect((await pass('2028-02-29T00:00:00Z')).made).toBe(1);
      expect((await c.read(r.id)).runs[0].runDate).toBe('2028-02-29');
    });

    it('neither skips nor doubles a run when Berlin changes its clocks in March and October', async () => {
      const c = await company();
      // Weekly on Sundays: 28 March 2027 loses an hour, 31 October 2027 repeats one.
      const spring = await c.create({ interval: 'week', anchorDate: '2027-03-21' });
      const autumn = await c.create({ interval: 'week', anchorDate: '2027-10-24' });
      const hourly = async (from: string, to: string) => {
        for (let at = Date.parse(from); at <= Date.parse(to); at += 30 * 60_000) await pass(new Date(at).toISOString());
      };
      await hourly('2027-03-20T22:00:00Z', '2027-03-21T01:00:00Z');
      expect((await pass('2027-03-27T22:59:00Z')).made).toBe(0);
      await hourly('2027-03-27T23:00:00Z', '2027-03-29T01:00:00Z');
      const springRuns = (await c.read(spring.id)).runs.map((run: Body) => run.runDate);
      expect(springRuns).toEqual(['2027-03-28', '2027-03-21']);
      expect((await c.read(spring.id)).nextRun).toMatchObject({ date: '2027-04-04', at: '2027-04-03T22:00:00.000Z' });
      await c.send('POST', `/recurring-invoice/${spring.id}/end`);
      await hourly('2027-10-23T21:00:00Z', '2027-10-24T01:00:00Z');
      expect((await pass('2027-10-30T21:59:00Z')).made).toBe(0);
      await hourly('2027-10-30T22:00:00Z', '2027-11-01T02:00:00Z');
      const autumnRuns = (await c.read(autumn.id)).runs.map((run: Body) => run.runDate);
      expect(autumnRuns).toEqual(['2027-10-31', '2027-10-24']);
      expect((await c.read(autumn.id)).nextRun).toMatchObject({ date: '2027-11-07', at: '2027-11-06T23:00:00.000Z' });
    });

    it('catches up missed periods in order, or skips to the latest, as each template chooses', async () => {
      const c = await company();
      const catchUp = await c.create({ anchorDate: '2027-01-15', timeZone: 'UTC' });
      const skip = await c.create({ anchorDate: '2027-01-15', timeZone: 'UTC', missedPeriods: 'skip' });
      // Down from before the first run until after the fourth.
      await pass('2027-04-20T12:00:00Z');
      const caught = [...(await c.read(catchUp.id)).runs].reverse();
      expect(caught.map((run: Body) => (run.period as Body).start)).toEqual([
        '2027-01-15',
        '2027-02-15',
        '2027-03-15',
        '2027-04-15',
      ]);
      // Made late, each is issued on the day it was made, for the period it covers.
      const first = await c.invoice(caught[0].invoiceId);
      expect([first.issueDate, first.invoicePeriod]).toEqual([
        '2027-04-20',
        { start: '2027-01-15', end: '2027-02-14' },
      ]);
      const numbers = await Promise.all(
        caught.map(async (run: Body) => (await c.invoice(run.invoiceId as string)).number),
      );
      expect(numbers).toEqual([...numbers].sort());
      const skipped = (await c.read(skip.id)).runs;
      expect(skipped.map((run: Body) => run.period)).toEqual([{ start: '2027-04-15', end: '2027-05-14' }]);
      expect((await c.read(skip.id)).nextRun.date).toBe('2027-05-15');
      expect((await c.read(catchUp.id)).nextRun.date).toBe('2027-05-15');
    });

    it('pauses, resumes without invoicing the paused periods, changes from the next run and ends', async () => {
      const c = await company();
      const r = await c.create({ anchorDate: '2027-01-10', timeZone: 'UTC' });
      await pass('2027-01-10T00:00:00Z');
      const paused = (await c.send('POST', `/recurring-invoice/${r.id}/pause`)).json().data;
      expect(paused).toMatchObject({ status: 'paused', nextRun: null });
      expect(paused.pausedAt).not.toBeNull();
      expect((await c.send('POST', `/recurring-invoice/${r.id}/pause`)).statusCode).toBe(200);
      expect((await pass('2027-03-01T00:00:00Z')).made).toBe(0);
      // Resumed on 5 March: February's and March's... only from 10 March on.
      const resumed = await t.container.recurring.setState(
        { companyId: c.companyId, livemode: true, requestId: null },
        r.id,
        'resume',
        new Date('2027-03-05T09:00:00Z'),
      );
      expect(resumed.ok && resumed.value.nextRun).toMatchObject({ date: '2027-03-10' });
      // Changed lines apply from the next run; the invoice made before keeps its own.
      const changed = await c.send('PATCH', `/recurring-invoice/${r.id}`, {
        template: { organizationId: c.buyer.id, lines: [{ ...LINES[0], unitPrice: '120' }] },
        invoiceStatus: 'draft',
      });
      expect(changed.statusCode, changed.body).toBe(200);
      await pass('2027-03-10T00:00:00Z');
      const runs = (await c.read(r.id)).runs;
      expect(runs.map((run: Body) => run.runDate)).toEqual(['2027-03-10', '2027-01-10']);
      const [march, january] = await Promise.all(runs.map((run: Body) => c.invoice(run.invoiceId as string)));
      expect([march.status, march.totals.lineNetTotal]).toEqual(['draft', '120.00']);
      expect([january.status, january.totals.lineNetTotal]).toEqual(['issued', '100.00']);
      const ended = (await c.send('POST', `/recurring-invoice/${r.id}/end`)).json().data;
      expect(ended).toMatchObject({ status: 'ended', nextRun: null });
      expect((await pass('2027-06-10T00:00:00Z')).made).toBe(0);
      for (const [method, path, body] of [
        ['POST', 'pause', undefined],
        ['POST', 'resume', undefined],
        ['POST', 'end', undefined],
        ['PATCH', '', { invoiceStatus: 'issued' }],
      ] as const) {
        const res = await c.send(method, `/recurring-invoice/${r.id}${path ? `/${path}` : ''}`, body);
        expect([res.statusCode, res.json().error?.code]).toEqual([409, 'RECURRING_INVOICE_ENDED']);
      }
      expect(await c.events('recurring_invoice.ended')).toHaveLength(1);
    });

    it('ends after its count or end date, with an ended event', async () => {
      const c = await company();
      const counted = await c.create({ interval: 'quarter', anchorDate: '2027-01-01', count: 2, timeZone: 'UTC' });
      const dated = await c.create({ anchorDate: '2027-01-01', endDate: '2027-02-15', timeZone: 'UTC' });
      await pass('2027-12-31T00:00:00Z');
      expect((await c.read(counted.id)).runs.map((run: Body) => run.runDate)).toEqual(['2027-04-01', '2027-01-01']);
      expect((await c.read(dated.id)).runs.map((run: Body) => run.runDate)).toEqual(['2027-02-01', '2027-01-01']);
      expect((await c.read(counted.id)).status).toBe('ended');
      expect((await c.read(dated.id)).status).toBe('ended');
      expect(await c.events('recurring_invoice.ended')).toHaveLength(2);
    });

    it('bills in arrears when each run covers the previous period', async () => {
      const c = await company();
      const r = await c.create({ anchorDate: '2027-02-01', timeZone: 'UTC', invoicePeriod: 'previous' });
      await pass('2027-02-01T00:00:00Z');
      const run = (await c.read(r.id)).runs[0];
      expect(run.period).toEqual({ start: '2027-01-01', end: '2027-01-31' });
      expect((await c.invoice(run.invoiceId)).invoicePeriod).toEqual({ start: '2027-01-01', end: '2027-01-31' });
    });

    it('records a failed run with its reason when the buyer was archived, and runs the other templates', async () => {
      const c = await company();
      const other = (await t.post('/organization', { name: 'Still Here Ltd', isCustomer: true }, c.key)).json().data;
      const failing = await c.create({ anchorDate: '2027-05-05', timeZone: 'UTC' });
      const running = await c.create({ anchorDate: '2027-05-05', timeZone: 'UTC' }, {}, { organizationId: other.id });
      expect((await c.send('PATCH', `/organization/${c.buyer.id}`, { archived: true })).statusCode).toBe(200);
      const summary = await pass('2027-05-05T08:00:00Z');
      expect(summary).toMatchObject({ made: 1, failed: 1 });
      const failed = (await c.read(failing.id)).runs[0];
      expect(failed).toMatchObject({ status: 'failed', invoiceId: null, failure: { code: 'ORGANIZATION_ARCHIVED' } });
      expect(failed.failure.message).toMatch(/archived/);
      expect((await c.read(running.id)).runs[0]).toMatchObject({ status: 'made' });
      const events = await c.events('recurring_invoice.failed');
      expect(events).toHaveLength(1);
      expect(events[0].data.object.runs[0].failure.code).toBe('ORGANIZATION_ARCHIVED');
      // The failed period is not retried; the next one is due as usual.
      expect((await c.read(failing.id)).nextRun.date).toBe('2027-06-05');
      expect((await pass('2027-05-06T08:00:00Z')).failed).toBe(0);
    });

    it('records why an issued run could not be sent when sending is asked for without SMTP', async () => {
      const c = await company();
      const r = await c.create({ anchorDate: '2027-07-01', timeZone: 'UTC' }, { send: { to: ['ap@buyer.example'] } });
      await pass('2027-07-01T06:00:00Z');
      const run = (await c.read(r.id)).runs[0];
      expect(run).toMatchObject({ status: 'made', deliveryId: null });
      expect(run.sendError).toMatch(/EMAIL_NOT_CONFIGURED/);
    });

    it('runs test-mode templates into test invoices, and deletes them with the test data', async () => {
      const c = await company({ mode: 'test' });
      const r = await c.create({ anchorDate: '2027-09-15', timeZone: 'UTC' });
      expect(r.livemode).toBe(false);
      await pass('2027-09-15T00:00:00Z');
      const run = (await c.read(r.id)).runs[0];
      expect((await c.invoice(run.invoiceId)).number).toMatch(/^TEST-/);
      await resetTestData(t.container.repositories.testData, c.companyId);
      expect((await t.get('/recurring-invoice', c.key)).json().data.items).toEqual([]);
    });

    it('lists recurring invoices newest first with cursor paging', async () => {
      const c = await company();
      const made = [];
      for (const day of ['01', '02', '03']) made.push(await c.create({ anchorDate: `2027-08-${day}` }));
      const first = (await t.get('/recurring-invoice?limit=2', c.key)).json().data;
      expect(first.items.map((r: Body) => r.id)).toEqual([made[2].id, made[1].id]);
      const second = (await t.get(`/recurring-invoice?limit=2&cursor=${first.nextCursor}`, c.key)).json().data;
      expect(second.items.map((r: Body) => r.id)).toEqual([made[0].id]);
      expect(second.nextCursor).toBeNull();
      await c.send('POST', `/recurring-invoice/${made[0].id}/pause`);
      const paused = (await t.get('/recurring-invoice?status=paused', c.key)).json().data;
      expect(paused.items.map((r: Body) => r.id)).toEqual([made[0].id]);
    });

    it('runs one pass with invoicing schedules run --as-of, as text or one JSON object', async () => {
      const c = await company();
      const r = await c.create({ anchorDate: '2027-10-01', timeZone: 'Europe/Berlin' });
      const cli = async (args: string[]) => {
        const stdout: string[] = [];
        const stderr: string[] = [];
        const code = await runCli(args, {
          stdout: (text) => stdout.push(text),
          stderr: (text) => stderr.push(text),
          env: {
            DATABASE_URL: t.database.url,
            ...(dialect === 'postgres' ? { DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY } : {}),
          },
        });
        return { code, stdout: stdout.join(''), stderr: stderr.join('') };
      };
      const early = await cli(['schedules', 'run', '--as-of', '2027-09-30T21:59:00Z', '--company', c.companyId]);
      expect([early.code, early.stdout]).toEqual([
        0,
        'Pass as of 2027-09-30T21:59:00.000Z: 0 invoices made, 0 runs failed, 0 recurring invoices ended, 0 messages queued.\n',
      ]);
      const due = await cli([
        'schedules',
        'run',
        '--as-of',
        '2027-10-01T00:00+02:00',
        '--company',
        c.companyId,
        '--json',
      ]);
      expect(due.code, due.stderr).toBe(0);
      expect(JSON.parse(due.stdout)).toEqual({
        asOf: '2027-09-30T22:00:00.000Z',
        made: 1,
        failed: 0,
        ended: 0,
        sent: 0,
      });
      expect((await c.read(r.id)).runs).toHaveLength(1);
      const again = await cli([
        'schedules',
        'run',
        '--as-of',
        '2027-10-01T00:00+02:00',
        '--company',
        c.companyId,
        '--json',
      ]);
      expect(JSON.parse(again.stdout).made).toBe(0);
      const wrong = await cli(['schedules', 'run', '--as-of', 'tomorrow']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('--as-of must be an ISO 8601 date-time');
    });

    it('refuses bad input with 4xx and the field, and other companies with 404', async () => {
      const c = await company();
      const body = (schedule: Body, template: Body = {}, extra: Body = {}) => ({
        template: { organizationId: c.buyer.id, lines: LINES, ...template },
        schedule: { interval: 'month', anchorDate: '2027-01-31', timeZone: 'Europe/Berlin', ...schedule },
        ...extra,
      });
      const refused = async (payload: Body) => {
        const res = await t.post('/recurring-invoice', payload, c.key);
        return [res.statusCode, res.json().error.code, (res.json().error.details ?? []).map((d: Body) => d.field)];
      };
      expect(await refused(body({ timeZone: 'Mars/Olympus' }))).toEqual([
        400,
        'VALIDATION_ERROR',
        ['schedule.timeZone'],
      ]);
      expect(await refused(body({ endDate: '2027-01-01' }))).toEqual([400, 'VALIDATION_ERROR', ['schedule.endDate']]);
      expect(await refused(body({ anchorDate: '2027-02-30' }))).toEqual([
        400,
        'VALIDATION_ERROR',
        ['schedule.anchorDate'],
      ]);
      expect((await refused(body({ interval: 'fortnight' })))[0]).toBe(400);
      expect((await refused(body({ every: 0 })))[0]).toBe(400);
      expect(await refused(body({}, { lines: [{ ...LINES[0], vatRate: 'abc' }] }))).toEqual([
        400,
        'VALIDATION_ERROR',
        ['template.lines[0].vatRate'],
      ]);
      expect((await refused(body({}, { issueDate: '2027-01-01' })))[0]).toBe(400);
      expect((await refused({ template: { organizationId: c.buyer.id, lines: LINES } }))[0]).toBe(400);
      expect((await refused(body({}, { organizationId: 'org_nope' })))[1]).toBe('ORGANIZATION_NOT_FOUND');
      const r = await c.create({ anchorDate: '2027-09-01' });
      const cadence = await c.send('PATCH', `/recurring-invoice/${r.id}`, { schedule: { interval: 'week' } });
      expect(cadence.statusCode).toBe(400);
      const stranger = await t.tenant();
      current = c.companyId;
      expect((await t.get(`/recurring-invoice/${r.id}`, stranger.key)).statusCode).toBe(404);
      expect((await t.post(`/recurring-invoice/${r.id}/end`, undefined, stranger.key)).statusCode).toBe(404);
      const reader = await t.tenant(['invoice.read']);
      expect((await t.get('/recurring-invoice', reader.key)).statusCode).toBe(403);
    });
  });
}
