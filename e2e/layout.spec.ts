import { expect, type Locator, type Page, test } from '@playwright/test';
import { NAV_ITEMS } from '@/components/shell/nav-items';
import { demoThermostatsIn, signInWithDemoPortfolio } from './support/portfolio';

// Layout on a phone and a laptop: nothing wider than the window, forms that keep their fields
// in their cards and in line, a navigation whose every section is in reach. Demo building
// "Harbor View Apartments", read only.

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1440, height: 900 };
const TABS = ['', '/schedule', '/comfort-settings', '/configuration', '/access-control', '/alerts'];

async function overflow(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Signed in, with one of the demo building's thermostats to look at. */
async function signedInWithUnit(page: Page) {
  await signInWithDemoPortfolio(page);
  const { thermostats } = await demoThermostatsIn('Harbor View Apartments');
  const unit = thermostats[2];
  if (!unit) throw new Error('demo building too small');
  return unit;
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
}

test('every thermostat page fits a phone and a laptop, and the phone’s navigation is a menu of every section', async ({
  page,
}) => {
  const unit = await signedInWithUnit(page);
  for (const size of [PHONE, LAPTOP]) {
    await page.setViewportSize(size);
    for (const tab of TABS) {
      await page.goto(`/thermostats/${unit.thermostatId}${tab}`);
      await expect(page.getByRole('navigation', { name: 'Thermostat sections' })).toBeVisible();
      expect(await overflow(page), `${tab || '/'} at ${size.width} px`).toBeLessThanOrEqual(0);
    }
  }

  // On the phone the sections do not fit a row: a menu opens every one of them, all in view,
  // rather than a row that hides most of them off to the side.
  await page.setViewportSize(PHONE);
  await page.goto('/');
  const menu = page.locator('summary', { hasText: /^\s*Menu\s*$/ });
  await expect(menu).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeHidden();
  await menu.click();
  for (const item of NAV_ITEMS) {
    await expect(nav.getByRole('link', { name: item.label, exact: true })).toBeInViewport({
      ratio: 1,
    });
  }
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  // On a laptop they are a row of their own, every one in view, and no menu.
  await page.setViewportSize(LAPTOP);
  await expect(menu).toBeHidden();
  for (const item of NAV_ITEMS) {
    await expect(nav.getByRole('link', { name: item.label, exact: true })).toBeInViewport({
      ratio: 1,
    });
  }
});

test('links prefetch a page once they are pointed at, not when they come into view', async ({
  page,
}) => {
  await signInWithDemoPortfolio(page);
  await page.waitForLoadState('networkidle');
  // Every page is dynamic: a prefetch is a server render. RSC requests carry `_rsc` in the URL.
  const rendered: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.searchParams.has('_rsc')) rendered.push(url.pathname);
  });
  // The overview links to every building, to needs attention and to adding thermostats: none of
  // them is rendered for a view of it (a refresh of the overview itself would be no prefetch).
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(rendered.filter((path) => path !== '/')).toEqual([]);
  await page.goto('/activity');
  await page.waitForLoadState('networkidle');
  const sections: string[] = NAV_ITEMS.map((item) => item.href);
  expect(rendered.filter((path) => sections.includes(path) && path !== '/')).toEqual([]);
  const members = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Members' });
  await members.hover();
  await expect.poll(() => rendered).toContain('/members');
  await members.click();
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
});

test('the status card ends with its content, and the comfort form keeps Heat and Cool inside its card and in line', async ({
  page,
}) => {
  const unit = await signedInWithUnit(page);
  await page.setViewportSize(LAPTOP);
  await page.goto(`/thermostats/${unit.thermostatId}`);
  // The card beside the taller column does not stretch into empty space below its last line.
  const card = page
    .locator('div')
    .filter({ has: page.getByRole('heading', { name: 'Status', level: 2 }) })
    .last();
  const last = card.locator('> *').last();
  const [cardBox, lastBox] = [await box(card), await box(last)];
  expect(cardBox.y + cardBox.height - (lastBox.y + lastBox.height)).toBeLessThan(40);

  for (const size of [PHONE, LAPTOP]) {
    await page.setViewportSize(size);
    await page.goto(`/thermostats/${unit.thermostatId}/comfort-settings`);
    const form = page.getByRole('form', { name: 'New comfort setting' });
    // An error under one field does not push the other out of line.
    await form.getByLabel('Name').fill('Layout check');
    await form.getByLabel(/Heat setpoint/).fill('200');
    await form.getByLabel(/Cool setpoint/).fill('80');
    await form.getByRole('button', { name: /create|add/i }).click();
    await expect(form.getByLabel(/Heat setpoint/)).toHaveAttribute('aria-invalid', 'true');
    const heat = await box(form.getByLabel(/Heat setpoint/));
    const cool = await box(form.getByLabel(/Cool setpoint/));
    const formBox = await box(form);
    expect(cool.x + cool.width, `Cool inside the form at ${size.width} px`).toBeLessThanOrEqual(
      formBox.x + formBox.width,
    );
    if (size === LAPTOP) expect(Math.abs(cool.y - heat.y), 'Heat and Cool in line').toBeLessThan(2);
  }
});
