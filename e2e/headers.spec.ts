import { expect, test } from '@playwright/test';
import { signInWithDemoPortfolio } from './support/portfolio';

test('every page carries a nonce-based CSP and the other security headers, and works under them', async ({
  page,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (
      /Content Security Policy|Refused to (execute|load|apply)|Permissions.Policy|Unrecognized feature|Cross-Origin-Opener-Policy/i.test(
        message.text(),
      )
    )
      violations.push(message.text());
  });
  await signInWithDemoPortfolio(page);

  const nonces = new Set<string>();
  for (const path of ['/', '/connection', '/activity', '/portfolio/add']) {
    const response = await page.goto(path);
    const headers = response?.headers() ?? {};
    const policy = headers['content-security-policy'] ?? '';
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce, `nonce on ${path}`).toBeTruthy();
    nonces.add(nonce ?? '');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(headers['x-powered-by']).toBeUndefined();
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    const permissions = headers['permissions-policy'] ?? '';
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb'])
      expect(permissions).toContain(`${feature}=()`);
    expect(headers['cache-control']).toContain('no-store');
    // Next's own scripts carry the nonce, so the page hydrates: client navigation works.
    await expect(page.locator(`script[nonce]`).first()).toBeAttached();
  }
  expect(nonces.size).toBe(4);
  await page.getByRole('link', { name: 'Connection' }).click();
  await expect(page.getByRole('heading', { name: 'Service connection' })).toBeVisible();
  expect(violations).toEqual([]);
});
