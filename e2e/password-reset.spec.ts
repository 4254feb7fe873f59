import { type Browser, expect, type Page, test } from '@playwright/test';
import { startSmtpServer, type TestSmtpServer } from '../tests/support/smtp';
import { MANAGER } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { noticeKeyOf } from './support/notice';
import {
  type AppInstance,
  deploymentSecrets,
  extraPort,
  runOperatorCommand,
  setUpManager,
  startApp,
  tearDown,
} from './support/stack';

/**
 * Issue 35, item 11: a way back into an account. On a stack of its own (its database, and an
 * SMTP server started here that receives what the app sends): "Forgot password?" emails a link
 * that works once and signs the account out everywhere; the request says the same for every
 * email; the new password meets the policy; both forms work without JavaScript; and where email
 * is off, the operator's `npm run password:reset` prints a link instead.
 */

test.describe.configure({ mode: 'serial' });

const PORT = extraPort(30);
const APP = `http://127.0.0.1:${PORT}`;
const SERVICE_URL = 'http://127.0.0.1:9'; // never called: nothing here connects
const secrets = deploymentSecrets();
const deployment = (smtpUrl?: string) => ({
  port: PORT,
  publicUrl: APP,
  serviceUrl: SERVICE_URL,
  env: { ...secrets, ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}) },
});

const PASSWORDS = {
  first: 'a brand new staple for the horse',
  second: 'quiet radiators hum in winter',
  third: 'the boiler room key is blue',
};
const SENT_ANSWER = /If that email belongs to an account here, a message is on its way/;

let smtp: TestSmtpServer;
let app: AppInstance | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtpServer();
  app = await startApp(deployment(smtp.url));
});
test.afterAll(() => tearDown([() => app?.stop(), () => smtp?.close()]));

/** The reset link of the newest message, waiting for `count` messages in all. */
async function linkInMail(count: number): Promise<string> {
  const mail = (await smtp.waitFor(count))[count - 1];
  const link = mail?.text?.match(/https?:\/\/\S+\/sign-in\/reset-password\/[\w-]+/)?.[0];
  if (!link) throw new Error(`no reset link in: ${mail?.text}`);
  return link;
}

async function newPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext({ baseURL: APP, ...options });
  return context.newPage();
}

async function signInWith(page: Page, password: string) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(MANAGER.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function chooseNewPassword(page: Page, password: string) {
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Save new password' }).click();
}

test('a locked-out owner gets back in by email: once, and signed out everywhere', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The owner is signed in on another computer.
  const elsewhere = await newPage(browser);
  await setUpManager(elsewhere);

  // Here they have forgotten the password.
  const page = await newPage(browser);
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel('Email').fill(MANAGER.email);
  await page.getByRole('button', { name: 'Send me a reset link' }).click();
  await expect(page.getByText(SENT_ANSWER)).toBeVisible();
  const link = await linkInMail(1);
  const mail = smtp.inbox[0];
  expect(mail?.subject).toBe('Choose a new password for Setpoint');
  expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe(MANAGER.email);

  // An email with no account gets the very same answer, and nothing is sent.
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByRole('button', { name: 'Send me a reset link' }).click();
  await expect(page.getByText(SENT_ANSWER)).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('nobody@example.com');
  await page.waitForTimeout(1500);
  expect(smtp.inbox).toHaveLength(1);

  // The link: the new password must meet the policy.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByText(MANAGER.email)).toBeVisible();
  await expectNoAxeViolations(page);
  await chooseNewPassword(page, 'password1234');
  await expect(page.getByText('Use at least 15 characters.')).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await chooseNewPassword(page, 'Password12345678');
  await expect(page.getByText(/one of the most common passwords/)).toBeVisible();
  await chooseNewPassword(page, `${MANAGER.organization} 2026`);
  await expect(
    page.getByText('Leave your organisation’s name out of your password.'),
  ).toBeVisible();
  await chooseNewPassword(page, PASSWORDS.first);
  await expect(page).toHaveURL(/\/sign-in\?notice=/);
  expect(noticeKeyOf(page.url())).toBe('passwordChanged');
  await expect(page.getByText(/Your new password is saved/)).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(MANAGER.email);

  // Every session of the account ended: the other computer is signed out.
  await elsewhere.reload();
  await expect(elsewhere).toHaveURL(/\/sign-in/);

  // The old password no longer works; the new one does, and the activity log says what happened.
  await signInWith(page, MANAGER.password);
  await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  await signInWith(page, PASSWORDS.first);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto('/activity');
  await expect(
    page
      .getByText(/chose a new password with a reset link; its one session was signed out/)
      .first(),
  ).toBeVisible();

  // The link worked once; a made-up one is not valid. Each says so plainly.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
  await expect(page.getByText(/This reset link has already been used/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save new password' })).toHaveCount(0);
  await page.goto('/sign-in/reset-password/made-up-token-that-is-long-enough');
  await expect(page.getByText(/This reset link is not valid/)).toBeVisible();
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await elsewhere.context().close();
  await page.context().close();
});

test('without JavaScript, on a phone, both forms work', async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await newPage(browser, {
    javaScriptEnabled: false,
    viewport: { width: 390, height: 844 },
  });
  const fitsTheScreen = async () =>
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
  await page.goto('/sign-in/forgot-password');
  await fitsTheScreen();
  await page.getByLabel('Email').fill(MANAGER.email);
  await page.getByRole('button', { name: 'Send me a reset link' }).click();
  await expect(page.getByText(SENT_ANSWER)).toBeVisible();
  const link = await linkInMail(2);

  await page.goto(link);
  await fitsTheScreen();
  await chooseNewPassword(page, 'short');
  await expect(page.getByText('Use at least 15 characters.')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(PASSWORDS.second);
  await page.getByLabel('Confirm new password').fill('not the same at all, no');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('The passwords do not match.')).toBeVisible();
  await chooseNewPassword(page, PASSWORDS.second);
  await expect(page).toHaveURL(/\/sign-in\?notice=/);
  expect(noticeKeyOf(page.url())).toBe('passwordChanged');
  await signInWith(page, PASSWORDS.second);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.context().close();
});

/** The operator's `npm run password:reset` against this deployment (email off). */
const resetWithCli = (email: string) =>
  runOperatorCommand(deployment(), 'password:reset', ['--email', email]);

test('without email, the operator’s command prints a link that works the same', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  // The embedded database takes one process at a time: the app stops for the command, and
  // comes back without email.
  await app?.stop();
  app = undefined;
  const unknown = await resetWithCli('nobody@example.com');
  expect(unknown.code).toBe(1);
  expect(unknown.output).toContain('nobody@example.com is not a member of any organisation here.');
  const issued = await resetWithCli(MANAGER.email);
  expect(issued.code, issued.output).toBe(0);
  const link = issued.output.match(/^https?:\/\/\S+\/sign-in\/reset-password\/[\w-]+$/m)?.[0];
  expect(link, issued.output).toBeDefined();
  app = await startApp(deployment());

  const page = await newPage(browser);
  // Email is off: the request form says who can help instead of offering to send.
  await page.goto('/sign-in/forgot-password');
  await expect(page.getByText(/This Setpoint does not send email/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send me a reset link' })).toHaveCount(0);

  await page.goto(link ?? '/');
  await chooseNewPassword(page, PASSWORDS.third);
  await expect(page).toHaveURL(/\/sign-in\?notice=/);
  expect(noticeKeyOf(page.url())).toBe('passwordChanged');
  await signInWith(page, PASSWORDS.third);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto('/activity');
  await expect(
    page.getByText(/The operator of this Setpoint issued a password reset link for/).first(),
  ).toBeVisible();
  await page.context().close();
});
