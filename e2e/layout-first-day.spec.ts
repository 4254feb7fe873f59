import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { noJavaScript } from './support/building-table';
import { demoPortfolio, demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';
import { sandboxControl } from './support/sandbox';

// A newcomer's first day on a phone and a laptop (issue 35, items 8, 14 and 15): result tables
// that keep every column of a row in view on a phone, a phone's navigation that opens every
// section (without JavaScript too), each page marking its own section, "Change selected…" with
// nothing ticked, and one heat–cool gap rule for one thermostat and for many. Demo building
// "Harbor View Apartments"; nothing is sent to a thermostat.

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1440, height: 900 };
const HARBOR = 'Harbor View Apartments';

/** Whether the element lies across the window's width, nothing of it off to either side. */
async function fitsAcross(locator: Locator, page: Page) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not laid out');
  const width = page.viewportSize()?.width ?? 0;
  return box.x >= 0 && box.x + box.width <= width + 0.5;
}

/**
 * The result tables of the page (components/ui/result-table.tsx, which names its role) that
 * scroll sideways in their frame, by caption. A building's own table keeps its unit column in
 * view while it scrolls, and is not one of them.
 */
async function sidewaysTables(page: Page) {
  return page.locator('table[role="table"]').evaluateAll((tables) =>
    tables
      .filter((table) => {
        const frame = table.parentElement;
        return frame !== null && frame.scrollWidth > frame.clientWidth + 1;
      })
      .map((table) => table.querySelector('caption')?.textContent ?? '(no caption)'),
  );
}

/** The label a cell shows before its value (CSS generated content), or null for none. */
const labelOf = (cell: Locator) =>
  cell.evaluate((element) => {
    const content = getComputedStyle(element, '::before').content;
    return content === 'none' || content === 'normal' ? null : content.replace(/^"|"$/g, '');
  });

/** The section the main navigation marks as the page's own. */
const currentSection = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).locator('[aria-current=page]');

test('on a phone a result table is a card per row: the import’s building and the activity’s “What” in view', async ({
  page,
}) => {
  await signInWithDemoPortfolio(page);
  const { thermostats } = await demoThermostatsIn(HARBOR);
  const known = thermostats[0];
  if (!known) throw new Error('demo building empty');
  await page.setViewportSize(PHONE);

  // An import's line says where the thermostat is, all of it on the screen.
  await page.goto('/portfolio/add');
  await page.getByLabel('Thermostat ids').fill(known.thermostatId);
  await page.getByRole('button', { name: 'Add thermostats' }).click();
  const report = page.getByRole('table', { name: 'Result for each thermostat' });
  // Already there, or added again if a spec before took it out: either way, it names the building.
  const where = report.getByText(new RegExp(`(Already in the portfolio, in|Added to) ${HARBOR}`));
  await expect(where).toBeVisible();
  expect(await fitsAcross(where, page), 'the import’s building on a phone').toBe(true);
  // Each value under its column's heading; the thermostat names the card.
  await expect(
    report.getByRole('rowheader', { name: new RegExp(known.thermostatId) }),
  ).toBeVisible();
  expect(await labelOf(report.locator('td[data-label="Detail"]').first())).toBe('Detail');
  expect(await sidewaysTables(page)).toEqual([]);

  // The activity log: every entry's What (and the rest of its row) across the screen.
  await page.goto('/activity');
  const log = page.getByRole('table', { name: 'Activity log' });
  const what = log.locator('td[data-label="What"]');
  await expect(what.first()).toBeVisible();
  for (const cell of (await what.all()).slice(0, 5)) {
    expect(await fitsAcross(cell, page), 'an activity entry’s What on a phone').toBe(true);
  }
  expect(await labelOf(what.first())).toBe('What');
  expect(await sidewaysTables(page)).toEqual([]);
  await expectNoAxeViolations(page);

  // Recent bulk runs and the delivery log, where there are any: no table scrolls sideways.
  for (const path of ['/bulk', '/notifications']) {
    await page.goto(path);
    expect(await sidewaysTables(page), path).toEqual([]);
  }

  // On a laptop it is a table again: headings in their row, no labels in the cells.
  await page.setViewportSize(LAPTOP);
  await page.goto('/activity');
  await expect(log.getByRole('columnheader', { name: 'What' })).toBeVisible();
  expect(await labelOf(what.first())).toBe(null);
});

test('a phone’s navigation is a menu of every section, with JavaScript and without', async ({
  page,
  browser,
}) => {
  await signInWithDemoPortfolio(page);
  await page.setViewportSize(PHONE);
  await page.goto('/');
  const menu = page.locator('summary', { hasText: /^\s*Menu\s*$/ });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeHidden();
  await menu.click();
  await expect(nav.getByRole('link', { name: 'Connection', exact: true })).toBeInViewport({
    ratio: 1,
  });
  await expectNoAxeViolations(page);
  // Escape closes it, back on its button.
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
  // A section followed from it: the new page, its section marked, the menu closed.
  await menu.click();
  await nav.getByRole('link', { name: 'Members', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  await expect(nav).toBeHidden();
  await menu.click();
  await expect(currentSection(page)).toHaveText('Members');

  const plain = await noJavaScript(browser, page);
  try {
    await plain.page.setViewportSize(PHONE);
    await plain.page.goto('/');
    const plainMenu = plain.page.locator('summary', { hasText: /^\s*Menu\s*$/ });
    await plainMenu.click();
    const plainNav = plain.page.getByRole('navigation', { name: 'Main' });
    await plainNav.getByRole('link', { name: 'Activity', exact: true }).click();
    await expect(plain.page).toHaveURL(/\/activity$/);
    await expect(plain.page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
    await plainMenu.click();
    await expect(currentSection(plain.page)).toHaveText('Activity');
  } finally {
    await plain.context.close();
  }
});

test('every page marks its own section: a template’s plan is the template’s, a building the overview’s', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInWithDemoPortfolio(page);
  const { building, thermostats } = await demoThermostatsIn(HARBOR);
  const unit = thermostats[1];
  if (!unit) throw new Error('demo building too small');
  await page.setViewportSize(LAPTOP);

  for (const [path, section] of [
    ['/', 'Overview'],
    [`/buildings/${building.buildingId}`, 'Overview'],
    [`/thermostats/${unit.thermostatId}/schedule`, 'Overview'],
    ['/portfolio/add', 'Overview'],
    ['/attention', 'Needs attention'],
    ['/bulk', 'Bulk changes'],
    ['/bulk/change', 'Bulk changes'],
    ['/templates', 'Templates'],
    ['/templates/new', 'Templates'],
    ['/activity', 'Activity'],
  ] as const) {
    await page.goto(path);
    await expect(currentSection(page), path).toHaveText(section);
    await expect(currentSection(page), path).toHaveCount(1);
  }

  // A template planned on one thermostat: its plan's page is among Templates, not Bulk changes.
  const name = `Fan only ${Date.now()}`;
  await page.goto('/templates/new');
  const form = page.getByRole('form', { name: 'New template' });
  await form.getByLabel('Template name').fill(name);
  await form.getByLabel('Include configuration').check();
  await form.getByLabel('Fan minimum on-time (minutes per hour)').fill('15');
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(currentSection(page)).toHaveText('Templates');
  const templatePath = new URL(page.url()).pathname;
  await page.goto(`${templatePath}/plan?ids=${unit.thermostatId}`);
  await expect(currentSection(page)).toHaveText('Templates');
  await page.getByRole('button', { name: 'Plan on the selected thermostats' }).click();
  await expect(page).toHaveURL(/\/bulk\/template-runs\/[0-9a-f-]{36}$/);
  await expect(currentSection(page)).toHaveText('Templates');
  await expect(page.getByRole('link', { name: '← Templates' })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'The plan: nothing has been sent yet' }),
  ).toBeVisible({ timeout: 60_000 });
  await expect(currentSection(page)).toHaveText('Templates');
  // An older address of the run (the activity log's, a notification's) comes to the same page.
  const runId = new URL(page.url()).pathname.split('/').at(-1);
  await page.goto(`/bulk/runs/${runId}`);
  await expect(page).toHaveURL(new RegExp(`/bulk/template-runs/${runId}$`));
  await expect(currentSection(page)).toHaveText('Templates');
  // Discarded: nothing was sent, and nothing is left planned.
  await page.getByRole('link', { name: 'Discard the plan…' }).click();
  await page.getByRole('button', { name: 'Discard the plan' }).click();
  await expect(page.getByRole('link', { name: 'Discard the plan…' })).toHaveCount(0);
  await expect(currentSection(page)).toHaveText('Templates');
});

test('“Change selected…” with nothing ticked says to tick thermostats first, with JavaScript and without', async ({
  page,
  browser,
}) => {
  await signInWithDemoPortfolio(page);
  const { building } = await demoThermostatsIn(HARBOR);
  const path = `/buildings/${building.buildingId}`;
  await page.goto(path);
  const table = page.getByRole('table', { name: 'Thermostats and their live status' });
  await expect(
    table.getByRole('checkbox', { name: 'Select every thermostat on this page' }),
  ).toBeEnabled();
  await expect(page.getByText('None selected')).toBeVisible();
  await page.getByRole('button', { name: 'Change selected…' }).click();
  await expect(
    page.getByText('Nothing is ticked: tick the thermostats to change first.'),
  ).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(path);

  const plain = await noJavaScript(browser, page);
  try {
    await plain.page.goto(path);
    await plain.page.getByRole('button', { name: 'Change selected…' }).click();
    await expect(plain.page).toHaveURL(/\/bulk\?/);
    await expect(
      plain.page.getByText(
        'No thermostat was ticked on the building’s page, so none is selected. Tick the thermostats to change there first, or choose them below.',
      ),
    ).toBeVisible();
    // A visit of its own says nothing of the kind.
    await plain.page.goto('/bulk');
    await expect(plain.page.getByText(/No thermostat was ticked/)).toHaveCount(0);
  } finally {
    await plain.context.close();
  }
});

test('a bulk change keeps each thermostat’s own heat–cool gap, the one its page shows, and says whose', async ({
  page: signedIn,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInWithDemoPortfolio(signedIn);
  // Two online thermostats: one whose own gap is under the service's default of 5 °F, one at it.
  const { thermostats } = await demoPortfolio();
  let tight: { thermostatId: string; gap: number } | null = null;
  let usual: { thermostatId: string; gap: number } | null = null;
  for (const t of thermostats) {
    const device = await sandboxControl('GET', `/thermostats/${t.thermostatId}`);
    if (device.connected === false) continue;
    const gap = Number(device.heatCoolMinDelta);
    if (gap < 5 && (tight === null || gap < tight.gap))
      tight = { thermostatId: t.thermostatId, gap };
    if (gap === 5 && usual === null) usual = { thermostatId: t.thermostatId, gap };
  }
  if (!tight || !usual) throw new Error('the demo portfolio has no thermostat with a small gap');
  // Their pages read them, and show their own gap.
  for (const { thermostatId, gap } of [tight, usual]) {
    await signedIn.goto(`/thermostats/${thermostatId}`);
    const term = signedIn.getByText('Minimum heat–cool gap', { exact: true });
    await expect(term).toBeVisible();
    await expect(term.locator('xpath=following-sibling::dd[1]')).toHaveText(`${gap} °F`);
  }

  // Without JavaScript the server answers for the rule (the form's own check runs in the browser).
  const plain = await noJavaScript(browser, signedIn);
  const page = plain.page;
  const box = (thermostatId: string) =>
    page.getByRole('checkbox', { name: new RegExp(`\\(${thermostatId}\\)`) });
  try {
    await page.goto(`/bulk?ids=${tight.thermostatId}`);
    await expect(box(tight.thermostatId)).toBeChecked();
    // Ranges exactly the tight thermostat's gap apart.
    await page.getByLabel(/^Heat minimum/).fill(String(65 - tight.gap));
    await page.getByLabel(/^Heat maximum/).fill(String(75 - tight.gap));
    await page.getByLabel(/^Cool minimum/).fill('65');
    await page.getByLabel(/^Cool maximum/).fill('75');
    await page.getByRole('button', { name: 'Review the change…' }).click();
    await expect(page.getByRole('heading', { name: 'Apply to 1 thermostat?' })).toBeVisible();
    await expect(
      page.getByText(
        `Each cool limit stays at least ${tight.gap} °F above its heat limit. ${tight.gap} °F is the largest minimum heat–cool gap among the selected thermostats`,
      ),
    ).toBeVisible();

    // With the other one too, its larger gap is the one kept, and the form says whose it is.
    await page.getByRole('button', { name: 'Go back and change' }).click();
    await box(usual.thermostatId).check();
    await page.getByRole('button', { name: 'Review the change…' }).click();
    await expect(
      page
        .getByText(
          /Keep the cool minimum at least 5 °F above the heat minimum .*: 5 °F is the largest minimum heat–cool gap among the selected thermostats/,
        )
        .first(),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Apply to/ })).toHaveCount(0);
  } finally {
    await plain.context.close();
  }
});
