import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export type Theme = 'light' | 'dark';

/** For a contrast failure, the colours and ratios axe measured: what a fix has to change. */
function contrastOf(node: { any: { id: string; data: unknown }[] }): string {
  const check = node.any.find((item) => item.id === 'color-contrast');
  const data = check?.data as
    | { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string }
    | undefined;
  if (!data?.fgColor) return '';
  return ` (${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}:1, needs ${data.expectedContrastRatio})`;
}

/**
 * The one accessibility check of the e2e suite: axe over the page as it is now, in each theme
 * (the app follows the system's `prefers-color-scheme`, emulated here), with every violation
 * named by theme, rule and element so a failure says exactly what to fix. The page is left in
 * the light theme.
 */
export async function expectNoAxeViolations(
  page: Page,
  options: { themes?: Theme[] } = {},
): Promise<void> {
  const themes = options.themes ?? ['light', 'dark'];
  const found: string[] = [];
  // After a client-side navigation Next.js streams the new page's metadata behind its body: for
  // a moment the document has no title. Axe samples the page once the title is there (a page
  // that never gets one still fails, on axe's document-title rule).
  await page
    .waitForFunction(() => document.title.trim() !== '', undefined, { timeout: 5000 })
    .catch(() => undefined);
  try {
    for (const theme of themes) {
      await page.emulateMedia({ colorScheme: theme });
      // Styles follow the media change on the next frame, and a control whose colours
      // transition (a button's) reaches them only when its transition ends: axe once sampled a
      // button half-way to dark and reported its contrast.
      await page.evaluate(async () => {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const transitions = document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition);
        await Promise.all(transitions.map((transition) => transition.finished.catch(() => null)));
      });
      const { violations } = await new AxeBuilder({ page }).analyze();
      for (const violation of violations) {
        for (const node of violation.nodes) {
          const html = node.html.replace(/\s+/g, ' ').slice(0, 100);
          found.push(
            `${theme}: ${violation.id}: ${node.target.join(' ')}${contrastOf(node)} ${html}`,
          );
        }
      }
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
  expect(found, `axe violations on ${page.url()}`).toEqual([]);
}
