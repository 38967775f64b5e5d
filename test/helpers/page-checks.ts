/// <reference lib="dom" />
import axe from 'axe-core';
import type { Page } from 'playwright-core';

// What a browser test checks on every page it shows: axe-core finds no violation (WCAG 2.x A and
// AA, and best practices), and the page never scrolls sideways (wide tables scroll in their own
// region instead).

/** axe-core's violations on the current page, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (no inline script) does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v) =>
        `${v.id} (${v.impact}) ${v.help} at ${v.nodes
          .slice(0, 5)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
  });
}

/** Whether the page is wider than its window, and what sticks out. */
export async function horizontalOverflow(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return null;
    const out = Array.from(document.body.querySelectorAll('*')).filter(
      (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !el.closest('.table-scroll'),
    );
    const innermost = out.filter((el) => !out.some((other) => other !== el && el.contains(other)));
    const culprits = innermost
      .slice(0, 4)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} (${Math.round(el.getBoundingClientRect().right)} px)`,
      );
    return `the page is ${document.documentElement.scrollWidth} px wide in a ${window.innerWidth} px window, widened by ${culprits.join(', ')}`;
  });
}

/** Every problem of the page as it stands, each prefixed with `label`. */
export async function pageProblems(page: Page, label: string): Promise<string[]> {
  const problems = (await axeViolations(page)).map((v) => `${label}: ${v}`);
  const overflow = await horizontalOverflow(page);
  if (overflow) problems.push(`${label}: ${overflow}`);
  return problems;
}
