/// <reference lib="dom" />
import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../src/http/api-version.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { BROWSER_MISSING, launchChromium } from '../helpers/browser.js';

// The docs page in a real browser (Debian's Chromium via playwright-core, as the panel's browser
// tests): it must render every operation of the document from this host alone, for people:
// without the HEAD twins, with each operation's permission, under the product's name. Under
// CI=true a missing browser fails the run; elsewhere the test is skipped with the reason printed.
// Swagger UI renders 50 operations slowly on a busy machine: the page is loaded once per width.

const WIDTHS = [390, 1280] as const;
const SLOW = 180_000;

describe.skipIf(BROWSER_MISSING)('the docs page in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  const pages: Partial<Record<(typeof WIDTHS)[number], Page>> = {};
  const requested: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    origin = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    browser = await launchChromium();
    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      page.on('request', (request) => requested.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${origin}/docs`);
      await page.locator('.opblock').first().waitFor({ timeout: SLOW });
      pages[width] = page;
    }
  }, SLOW * 2);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'renders every operation of the document but the HEAD twins, loading nothing from another host and breaking no security policy',
    async () => {
      const document = (await (await fetch(`${origin}${BASE_PATH}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      // A path item also holds its description; only the methods are operations. The page leaves
      // out the HEAD twin of every GET, which the document keeps for tools.
      const methods = new Set(['get', 'post', 'put', 'patch', 'delete', 'options', 'trace']);
      const operations = Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => methods.has(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(Object.values(document.paths).some((item) => 'head' in item)).toBe(true);

      const page = pages[1280]!;
      await page
        .locator('.opblock')
        .nth(operations.length - 1)
        .waitFor({ timeout: SLOW });
      const shown = await page.locator('.opblock').evaluateAll((blocks) =>
        blocks.map((block) => {
          const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
          const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
          return `${method} ${path}`;
        }),
      );
      expect(shown.sort()).toEqual(operations.sort());
      expect(await page.locator('.info .title').textContent()).toContain('Invoicing API');

      expect(requested.length).toBeGreaterThan(3);
      for (const url of requested) expect(url.startsWith(origin) || url.startsWith('data:'), url).toBe(true);
      expect(problems).toEqual([]);
    },
    SLOW,
  );

  it(
    'shows each operation the permission its key needs, first',
    async () => {
      const page = pages[1280]!;
      const pdf = page.locator('.opblock-get').filter({ has: page.locator('[data-path="/invoice/{id}/pdf"]') });
      await pdf.locator('.opblock-summary-control').click({ timeout: SLOW });
      const description = pdf.locator('.opblock-description-wrapper');
      await description.waitFor({ timeout: SLOW });
      expect((await description.textContent())!.trim()).toMatch(/^Permission: invoice\.read/);
      expect(await description.locator('p').first().locator('code').textContent()).toBe('invoice.read');
    },
    SLOW,
  );

  for (const width of WIDTHS) {
    it(
      `names the product in the top bar instead of the generator's logo, with no axe violation there, at ${width} px`,
      async () => {
        const page = pages[width]!;
        const logo = page.getByRole('img', { name: 'Invoicing API' });
        await logo.waitFor({ timeout: SLOW });
        expect(
          await logo.evaluate(
            (img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.src.startsWith('data:image/svg+xml'),
          ),
        ).toBe(true);
        expect(atob((await logo.getAttribute('src'))!.split(',')[1]!)).toContain('>Invoicing API</text>');
        expect(await page.locator('.topbar a.link').getAttribute('href')).toBe('/docs');
        const box = (await logo.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        // Swagger UI's own body has violations of its own (contrast, nested controls); the top bar is ours.
        await page.evaluate(axe.source);
        const violations = await page.evaluate(async () => {
          const result = await (window as unknown as { axe: typeof axe }).axe.run(
            { include: [['.topbar']] },
            { resultTypes: ['violations'] },
          );
          return result.violations.map(
            (v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          );
        });
        expect(violations).toEqual([]);
      },
      SLOW,
    );
  }
});
