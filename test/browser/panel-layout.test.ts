/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import axe from 'axe-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_NAMES } from '../../src/auth/permissions.js';
import { tokenHash } from '../../src/panel/sessions.js';
import { FirstRunSetup, setupPath } from '../../src/panel/setup.js';
import { UserService } from '../../src/panel/users.js';
import { ALL_PERMISSIONS, buildTestApp, type TestApp } from '../helpers/build.js';
import { BROWSER_MISSING, launchChromium } from '../helpers/browser.js';
import { addEndpoint } from '../helpers/panel-webhooks.js';
import { claimInstance, PASSWORD, type PanelClient } from '../helpers/panel-client.js';

// The panel as a finished product, at a phone's width (390 px) and a laptop's (1280 px): every
// page passes axe-core with no violation and never scrolls sideways; wide tables scroll inside a
// focusable region instead; forms answer every error at once; an expired session leads back to
// the form with what was typed; amounts and codes read well.

const ARTIFACTS = 'test-artifacts';
const WIDTHS = [390, 1280] as const;
/** A test that walks several pages (the keyboard tour of the tables): a time limit, not a measure. */
const PAGE_TOUR_MS = 120_000;
const OWNER = 'owner@example.com';

interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** axe-core's violations on the current page (WCAG 2.x A and AA, and best practices). */
async function axeViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (no inline script) does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
}

/** The texts among `locator`'s elements that wrap onto more than one line: their rectangles' distinct tops. */
async function textsOnSeveralLines(locator: Locator): Promise<(string | null)[]> {
  return locator.evaluateAll((els) =>
    els
      .filter((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return (
          new Set(
            Array.from(range.getClientRects())
              .filter((r) => r.width > 1 && r.height > 1)
              .map((r) => Math.round(r.top)),
          ).size > 1
        );
      })
      .map((el) => el.textContent),
  );
}

async function pageOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    // The innermost elements that stick out on the right, to say what widened the page.
    const out = Array.from(document.body.querySelectorAll('*')).filter(
      (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !el.closest('.table-scroll'),
    );
    const innermost = out.filter((el) => !out.some((other) => other !== el && el.contains(other)));
    const culprits = innermost
      .slice(0, 4)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} (${Math.round(el.getBoundingClientRect().right)} px)`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, culprits };
  });
}

/** What is wrong with the page as it stands: axe violations, and a page wider than the window. */
async function pageProblems(page: Page, label: string): Promise<string[]> {
  const problems = (await axeViolations(page)).map(
    (v) => `${label}: ${v.id} (${v.impact}) ${v.help} at ${v.targets.join(', ')}`,
  );
  const { scrollWidth, innerWidth, culprits } = await pageOverflow(page);
  if (scrollWidth > innerWidth)
    problems.push(
      `${label}: the page is ${scrollWidth} px wide in a ${innerWidth} px window, widened by ${culprits.join(', ')}`,
    );
  return problems;
}

describe.skipIf(BROWSER_MISSING)('the finished panel in Chromium at 390 and 1280 px', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let owner: PanelClient;
  let companyId: string;
  const ids: Record<string, string> = {};
  const setupProblems: Record<number, string[]> = {};

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    t = await buildTestApp('sqlite', { webhookAllowPrivateUrls: true });
    origin = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    browser = await launchChromium();
    // The setup page exists only while the instance is unclaimed: it is checked before the claim.
    const token = (await new FirstRunSetup(t.storage.db, t.container.repositories).issueToken())!;
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${origin}${setupPath(token)}`);
      setupProblems[width] = await pageProblems(page, 'setup');
      await page.getByRole('button', { name: 'Create company and owner' }).click();
      setupProblems[width]!.push(...(await pageProblems(page, 'setup with errors')));
      await context.close();
    }
    ({ owner, companyId } = await claimInstance(t.app, OWNER));

    // Five keys with long names and many permissions: the table that used to be cut at 1280 px.
    await owner.get('/panel/keys');
    for (let i = 1; i <= 5; i++) {
      const res = await owner.post('/panel/keys', {
        name: `ERP synchronisation for subsidiary number ${i} (production)`,
        permissions: PERMISSION_NAMES.slice(0, 3 + i * 2),
        mode: i % 2 ? 'live' : 'test',
      });
      expect(res.statusCode, res.body).toBe(303);
      await owner.get(String(res.headers.location));
    }
    ids.key = (
      await t.storage.db
        .selectFrom('api_keys')
        .select('id')
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
    ).id;
    // Made as the CLI makes them, so that they sign in straight to the panel (a user added on the
    // Users page first chooses a password: panel-keys-users-webhooks.test.ts walks that).
    for (const [email, role] of [
      ['a.very.long.email.address.for.an.admin@subsidiary.example.com', 'admin'],
      ['member@example.com', 'member'],
    ] as const) {
      expect(
        (
          await new UserService(t.storage.db, t.container.repositories).create({
            companyId,
            email,
            role,
            password: PASSWORD,
          })
        ).ok,
      ).toBe(true);
    }
    await owner.get('/panel/company');
    expect(
      (
        await owner.post('/panel/company', {
          legalName: 'Acme Trading GmbH',
          line1: 'Friedrichstr. 100',
          postalCode: '10117',
          city: 'Berlin',
          countryCode: 'DE',
          vatId: 'DE123456789',
          iban: 'DE89 3704 0044 0532 0130 00',
        })
      ).statusCode,
    ).toBe(303);
    ids.endpoint = (
      await addEndpoint(owner, {
        url: 'http://127.0.0.1:9/hooks/invoicing/a-rather-long-path-for-the-receiver',
        description: 'ERP (staging)',
      })
    ).id;

    const { key } = await t.createKey(companyId, ALL_PERMISSIONS);
    const post = async (path: string, body: unknown, status = 201) => {
      const res = await t.post(path, body, key);
      expect(res.statusCode, res.body).toBe(status);
      return res.json().data as { id: string; number: string };
    };
    const org = await post('/organization', {
      name: 'Großhandel Süd-West Beteiligungs GmbH & Co. KG',
      isCustomer: true,
      email: 'ap@example.com',
      vatId: 'DE811111111',
      address: { line1: 'Marktplatz 3', postalCode: '80331', city: 'München', countryCode: 'DE' },
    });
    ids.organization = org.id;
    const invoice = await post('/invoice', {
      organizationId: org.id,
      issueDate: '2026-05-01',
      dueDate: '2026-05-31',
      lines: [
        {
          name: 'Consulting',
          description: 'Architecture review, May',
          quantity: '1000000',
          unitCode: 'HUR',
          unitPrice: '1242.13',
          vatRate: '19',
        },
        { name: 'Export goods', quantity: '12', unitCode: 'C62', unitPrice: '5.5', vatRate: '0', vatCategory: 'G' },
        {
          name: 'Reverse-charge service',
          quantity: '3',
          unitCode: 'DAY',
          unitPrice: '800',
          vatRate: '0',
          vatCategory: 'AE',
          exemptionReason: 'Reverse charge',
        },
      ],
    });
    ids.invoice = invoice.id;
    await post(`/invoice/${invoice.id}/payment`, {
      amount: '100000.00',
      method: 'credit_transfer',
      reference: 'Bank 4711',
      date: '2026-05-04',
    });
    ids.creditNote = (
      await post('/credit-note', {
        invoiceId: invoice.id,
        reason: 'Two days were not needed',
        lines: [
          {
            name: 'Reverse-charge service',
            quantity: '2',
            unitCode: 'DAY',
            unitPrice: '800',
            vatRate: '0',
            vatCategory: 'AE',
            exemptionReason: 'Reverse charge',
          },
        ],
      })
    ).id;
    ids.recurring = (
      await post('/recurring-invoice', {
        template: {
          organizationId: org.id,
          lines: [{ name: 'Maintenance retainer', quantity: '1', unitPrice: '450', vatRate: '19' }],
        },
        schedule: { interval: 'month', anchorDate: '2027-01-31', timeZone: 'Europe/Berlin' },
      })
    ).id;
    await t.container.recurring.runDue(new Date('2027-03-31T12:00:00Z'), undefined, { companyId });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedInPage(
    width: number,
    email = OWNER,
    password = PASSWORD,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${origin}/panel/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/panel/keys');
    return { context, page };
  }

  /** Every page of the panel, named as the test names it; the path is made once the ids exist. */
  const PAGES: [string, () => string][] = [
    ['/panel/keys', () => '/panel/keys'],
    ['/panel/keys/new', () => '/panel/keys/new'],
    ['/panel/keys/:id/revoke', () => `/panel/keys/${ids.key}/revoke`],
    ['/panel/users', () => '/panel/users'],
    ['/panel/company', () => '/panel/company'],
    ['/panel/company/reminders', () => '/panel/company/reminders'],
    ['/panel/webhooks', () => '/panel/webhooks'],
    ['/panel/webhooks/:id', () => `/panel/webhooks/${ids.endpoint}`],
    ['/panel/webhooks/:id/secret', () => `/panel/webhooks/${ids.endpoint}/secret`],
    ['/panel/webhooks/:id/rotate', () => `/panel/webhooks/${ids.endpoint}/rotate`],
    ['/panel/webhooks/:id/delete', () => `/panel/webhooks/${ids.endpoint}/delete`],
    ['/panel/organizations', () => '/panel/organizations'],
    ['/panel/organizations/:id', () => `/panel/organizations/${ids.organization}`],
    ['/panel/invoices', () => '/panel/invoices'],
    ['/panel/invoices/:id', () => `/panel/invoices/${ids.invoice}`],
    ['/panel/credit-notes', () => '/panel/credit-notes'],
    ['/panel/credit-notes/:id', () => `/panel/credit-notes/${ids.creditNote}`],
    ['/panel/recurring', () => '/panel/recurring'],
    ['/panel/recurring/:id', () => `/panel/recurring/${ids.recurring}`],
    ['/panel/test-data', () => '/panel/test-data'],
    ['/panel/account', () => '/panel/account'],
    ['/panel/no-such-page', () => '/panel/no-such-page'],
  ];
  /** The pages a visitor who is not signed in sees. */
  const ANONYMOUS_PAGES = [
    '/panel/sign-in',
    '/panel/sign-in?return=%2Fpanel%2Fusers&expired=1',
    '/panel/setup?token=dead',
  ];

  it('has an axe check that does find violations and overflow when they are there', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = await context.newPage();
    await page.setContent('<html><body><img src="x.png"><div style="width: 600px">wide</div></body></html>');
    const problems = await pageProblems(page, 'broken');
    expect(problems.some((p) => p.includes('image-alt'))).toBe(true);
    expect(problems.some((p) => p.includes('the page is 6'))).toBe(true);
    await context.close();
  });

  // One test per page and width, in one signed-in browser per width: a page that fails is named,
  // and no test holds twenty axe runs against one time limit.
  for (const width of WIDTHS) {
    describe(`every page at ${width} px passes axe-core with no violation and never scrolls sideways`, () => {
      let tour: { context: BrowserContext; page: Page };
      let anonymous: BrowserContext;
      let visitor: Page;
      beforeAll(async () => {
        tour = await signedInPage(width);
        anonymous = await browser.newContext({ viewport: { width, height: 900 } });
        visitor = await anonymous.newPage();
      });
      afterAll(async () => {
        await tour?.context.close();
        await anonymous?.close();
      });

      it('the first-run setup page, empty and with every error', () => {
        expect(setupProblems[width]).toEqual([]);
      });

      it.each(PAGES)('%s', async (label, path) => {
        await tour.page.goto(`${origin}${path()}`);
        const problems = await pageProblems(tour.page, label);
        if (label === '/panel/invoices/:id')
          await tour.page.screenshot({ path: `${ARTIFACTS}/panel-layout-invoice-${width}.png`, fullPage: true });
        expect(problems).toEqual([]);
      });

      it('the Sales menu, opened, and the recurring invoices page it leads to', async () => {
        const { page } = tour;
        await page.goto(`${origin}/panel/invoices`);
        const nav = page.getByRole('navigation', { name: 'Main' });
        await nav.getByText('Sales', { exact: true }).click();
        const problems = await pageProblems(page, 'Sales menu open');
        await nav.getByRole('link', { name: 'Recurring' }).click();
        await page.waitForURL('**/panel/recurring');
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Recurring invoices');
        expect(problems).toEqual([]);
      });

      it('the users form with every error showing', async () => {
        const { page } = tour;
        await page.goto(`${origin}/panel/users`);
        await page.getByRole('button', { name: 'Add user' }).click();
        expect(await pageProblems(page, 'users form with errors')).toEqual([]);
      });

      it('the account form with every error showing', async () => {
        const { page } = tour;
        await page.goto(`${origin}/panel/account`);
        await page.getByRole('button', { name: 'Change password' }).click();
        expect(await pageProblems(page, 'account form with errors')).toEqual([]);
      });

      it('the company form with every error showing, and the invoices in test mode', async () => {
        const { page } = tour;
        await page.goto(`${origin}/panel/company`);
        await page.getByLabel('IBAN').fill('DE02 1203 0000 0000 2020 52');
        await page.getByLabel('Country').fill('Germany');
        await page.getByRole('button', { name: 'Save profile' }).click();
        const problems = await pageProblems(page, 'company form with errors');
        await page.getByRole('button', { name: 'Live data is shown: switch to test data' }).click();
        await page.goto(`${origin}/panel/invoices`);
        problems.push(...(await pageProblems(page, 'invoices in test mode')));
        await page.getByRole('button', { name: 'Test data is shown: switch to live data' }).click();
        expect(problems).toEqual([]);
      });

      it.each(ANONYMOUS_PAGES)('%s, signed out', async (path) => {
        await visitor.goto(`${origin}${path}`);
        expect(await pageProblems(visitor, path)).toEqual([]);
      });

      it('the sign-in form with every error showing', async () => {
        await visitor.goto(`${origin}/panel/sign-in`);
        await visitor.getByRole('button', { name: 'Sign in' }).click();
        expect(await pageProblems(visitor, 'sign-in with errors')).toEqual([]);
      });
    });
  }

  for (const width of WIDTHS) {
    it(
      `puts every wide table in a named, focusable region that the keyboard scrolls at ${width} px`,
      async () => {
        const { context, page } = await signedInPage(width);
        for (const path of ['/panel/keys', '/panel/users', `/panel/invoices/${ids.invoice}`, '/panel/invoices']) {
          await page.goto(`${origin}${path}`);
          const regions = await page.locator('table').evaluateAll((tables) =>
            tables
              .filter((t) => t.closest('.table-scroll'))
              .map((t) => {
                const region = t.closest('.table-scroll') as HTMLElement;
                return {
                  role: region.getAttribute('role'),
                  tabindex: region.getAttribute('tabindex'),
                  label: region.getAttribute('aria-label'),
                  scrolls: region.scrollWidth > region.clientWidth,
                };
              }),
          );
          expect(regions.length, path).toBeGreaterThan(0);
          for (const r of regions)
            expect(r, path).toMatchObject({ role: 'region', tabindex: '0', label: expect.stringMatching(/\w/) });
          // A table too wide for the screen scrolls with the arrow keys once its region has focus.
          const wide = page.locator('.table-scroll').filter({ has: page.locator('table') });
          for (let i = 0; i < (await wide.count()); i++) {
            const region = wide.nth(i);
            const size = await region.evaluate((el) => ({
              scrollWidth: el.scrollWidth,
              clientWidth: el.clientWidth,
              label: el.getAttribute('aria-label'),
            }));
            if (size.scrollWidth <= size.clientWidth) continue;
            await region.focus();
            for (let k = 0; k < 10; k++) await page.keyboard.press('ArrowRight');
            // Keyboard scrolling is animated: give it a moment to move.
            const moved = await page
              .waitForFunction((el) => el.scrollLeft > 0, await region.elementHandle(), { timeout: 3000 })
              .then(
                () => true,
                () => false,
              );
            expect(moved, `${path} ${JSON.stringify(size)}`).toBe(true);
          }
        }
        await page.goto(`${origin}/panel/keys`);
        const keys = page.getByRole('region', { name: 'API keys' });
        await page.screenshot({ path: `${ARTIFACTS}/panel-layout-keys-${width}.png`, fullPage: true });
        if (width === 1280) {
          // Five keys fit a laptop: no column is cut, Revoke included.
          expect(await keys.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        }
        // …and fitting is not bought by squeezing: prefixes, column titles and actions stay on one line.
        const squeezed = await textsOnSeveralLines(keys.locator('td code, th[scope=col], a'));
        expect(squeezed).toEqual([]);
        // The last Revoke link is reached with Tab and is on screen when it has focus.
        const revoke = page.getByRole('link', { name: /^Revoke/ }).last();
        await page.locator('body').focus();
        let reached = false;
        for (let k = 0; k < 120 && !reached; k++) {
          await page.keyboard.press('Tab');
          reached = await revoke.evaluate((el) => el === document.activeElement);
        }
        expect(reached).toBe(true);
        const box = (await revoke.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        await context.close();
      },
      PAGE_TOUR_MS,
    );

    it(`shows amounts with separators and currency, codes with names, and numbers and dates on one line at ${width} px`, async () => {
      const { context, page } = await signedInPage(width);
      await page.goto(`${origin}/panel/invoices/${ids.invoice}`);
      const payable = (await page.locator('.totals tr').last().locator('.amount').textContent())!;
      expect(payable).toMatch(/^\d{1,3}(,\d{3})+\.\d\d EUR$/);
      expect(await page.locator('abbr[data-unit="HUR"]').first().getAttribute('title')).toBe('hour (code HUR)');
      expect(await page.locator('abbr[data-vat-category="AE"]').first().getAttribute('title')).toBe(
        'VAT reverse charge',
      );
      expect(await page.locator('.code-legend').textContent()).toContain('h: hour (HUR)');
      // Nothing that must stay whole breaks over two lines.
      const broken = await textsOnSeveralLines(page.locator('.amount, .doc-number, time, td.nowrap, th.nowrap'));
      expect(broken).toEqual([]);
      await page.goto(`${origin}/panel/invoices`);
      const numberCell = page.locator('table.invoices tbody th').first();
      expect(await numberCell.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('nowrap');
      await context.close();
    });

    it(`shows every error of a form at once, each next to its field, at ${width} px`, async () => {
      const { context, page } = await signedInPage(width);
      await page.goto(`${origin}/panel/users`);
      await page.getByLabel('Email', { exact: true }).fill('not an email');
      await page.getByRole('button', { name: 'Add user' }).click();
      expect(await page.locator('.field-error').evaluateAll((els) => els.map((e) => e.id))).toEqual([
        'email-error',
        'password-error',
      ]);
      expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-describedby')).toBe('email-error');
      expect(await page.getByRole('alert').first().textContent()).toContain('2 fields need attention.');
      await context.close();
    });
  }

  it('brings a user whose session expired back to the form with what they typed, after sign-in', async () => {
    const { context, page } = await signedInPage(390);
    await page.goto(`${origin}/panel/users`);
    await page.getByLabel('Email', { exact: true }).fill('typed.before@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByLabel('Initial password').fill(PASSWORD);
    const cookie = (await context.cookies()).find((c) => c.name === 'invoicing_session')!;
    await t.storage.db
      .updateTable('user_sessions')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('token_hash', '=', tokenHash(cookie.value))
      .execute();

    await page.getByRole('button', { name: 'Add user' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    expect(await page.getByRole('status').textContent()).toBe('Your session expired; sign in again.');
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/panel/users?restored=1**');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('typed.before@example.com');
    expect(await page.getByLabel('Role', { exact: true }).inputValue()).toBe('admin');
    expect(await page.getByLabel('Initial password').inputValue()).toBe('');
    expect(await page.getByRole('status').textContent()).toContain(
      'What you typed before your session expired is back',
    );
    expect(await axeViolations(page)).toEqual([]);

    // A page asked for after expiry comes back after sign-in too.
    const again = (await context.cookies()).find((c) => c.name === 'invoicing_session')!;
    await t.storage.db
      .updateTable('user_sessions')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('token_hash', '=', tokenHash(again.value))
      .execute();
    await page.goto(`${origin}/panel/invoices/${ids.invoice}`);
    await page.waitForURL('**/panel/sign-in?**');
    expect(await page.getByRole('status').textContent()).toBe('Your session expired; sign in again.');
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/panel/invoices/${ids.invoice}`);
    await context.close();
  });

  it('lets a member change their own password from the account page; their other browser is signed out', async () => {
    const first = await signedInPage(1280, 'member@example.com');
    const second = await signedInPage(390, 'member@example.com');
    await second.page.getByRole('link', { name: 'member@example.com' }).click();
    await second.page.waitForURL('**/panel/account');
    await second.page.getByLabel('Current password').fill(PASSWORD);
    await second.page.getByLabel('New password', { exact: true }).fill('a fresh member passphrase');
    await second.page.getByLabel('Repeat the new password').fill('a fresh member passphrase');
    await second.page.getByRole('button', { name: 'Change password' }).click();
    await second.page.waitForURL('**/panel/account?done=password');
    expect(await second.page.getByRole('status').textContent()).toContain('Your password is changed.');
    await first.page.goto(`${origin}/panel/keys`);
    await first.page.waitForURL('**/panel/sign-in?**');
    expect(await first.page.getByRole('status').textContent()).toBe('Your session expired; sign in again.');
    await first.context.close();
    await second.context.close();
  });
});
