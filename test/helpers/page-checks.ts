/// <reference lib="dom" />
import axe from 'axe-core';
import type { Page } from 'playwright-core';

// What a browser test checks on every page it visits: axe-core's violations (WCAG 2.x A and AA,
// and best practices), and a page wider than its window.

/** axe-core's violations on the current page, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (no inline script) does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.impact}) ${v.help} at ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** What is wrong with the page as it stands: axe violations, and a page wider than the window. */
export async function pageProblems(page: Page, label: string): Promise<string[]> {
  const problems = (await axeViolations(page)).map((v) => `${label}: ${v}`);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  if (scrollWidth > innerWidth) problems.push(`${label}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
  return problems;
}
