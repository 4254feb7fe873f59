import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The suite runs the production build (`npm run build` first) against the sandbox, each run on a
// fresh embedded database so that first-run setup is really the first run.
// Overridable so that two runs (say, two engineers' worktrees) do not collide.
const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4110);
export const APP_URL = `http://127.0.0.1:${APP_PORT}`;
export const SANDBOX_URL = `http://127.0.0.1:${SANDBOX_PORT}`;

// Playwright loads this file in every worker too; the parent's values are inherited so that
// all workers agree with the servers started once.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'setpoint-e2e-'));
process.env.E2E_AUTH_SECRET ??= randomBytes(32).toString('base64url');
process.env.E2E_TOKEN_KEYS ??= `1:${randomBytes(32).toString('base64url')}`;

// The suite calls the service faster than a deployment does (the generated battery alone makes
// hundreds of reads a minute), so the app's call budget is set tenfold for the minute and hour;
// the shared stack's sandbox enforces no rate limit. The budget at the service's real limits is
// tested on its own (tests/unit/budget.test.ts, e2e/fault-soak.spec.ts).
const E2E_RATE_LIMIT = JSON.stringify({ perSecond: 50, perMinute: 5000, perHour: 100_000 });

// Specs that start their own sandbox and app (each on its own ports, e2e/support/stack.ts's
// extraPort, and its own database), so they run beside the shared stack's.
const OWN_STACKS =
  /(attention|attention-first-day|building-table-fleet|bulk-restart|fault-soak|password-reset|scale-out|sign-in-abuse|teams)\.spec\.ts$/;

// The deployment as an operator runs it (two production servers and a worker): alone, after both
// lanes, since beside them it starves a fleet-sized spec of the machine's two cores.
const DEPLOY = /deploy\.spec\.ts$/;

const chromium = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  // Lanes: the specs on the shared stack below, one at a time (they share its database and
  // sandbox), and beside them two at a time the specs that start stacks of their own (see
  // OWN_STACKS); those mostly wait on their servers and sandboxes.
  workers: 3,
  retries: 0,
  // Two cores carry the browser, three lanes' servers and their sandboxes: a page-heavy test
  // that takes 25 s alone takes longer beside the other lanes.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]]
    : [['list'], ['json', { outputFile: 'test-results/e2e.json' }], ['html', { open: 'never' }]],
  use: {
    baseURL: APP_URL,
    // A failed test keeps its trace (actions, console, network, errors) and a screenshot, but not
    // the DOM snapshot of every step: recording those took a fifth of the suite's CPU on two
    // cores. For snapshots, run the failing spec again with `--trace on`.
    trace: { mode: 'retain-on-failure', snapshots: false, screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: chromium ? { executablePath: chromium } : {},
  },
  projects: [
    { name: 'first-run', testMatch: /first-run\.setup\.ts/, use: { ...devices['Desktop Chrome'] } },
    // A member of each role in the manager's organisation, signed in for e2e/support/fixtures.ts.
    {
      name: 'members',
      dependencies: ['first-run'],
      testMatch: /members\.setup\.ts/,
      use: { ...devices['Desktop Chrome'] },
    },
    {
      name: 'chromium',
      dependencies: ['members'],
      testIgnore: [/\.setup\.ts$/, OWN_STACKS, DEPLOY],
      workers: 1,
      use: { ...devices['Desktop Chrome'] },
    },
    {
      // After the setup projects (Playwright runs dependencies as phases before what follows),
      // so that this lane and the shared stack's run side by side.
      name: 'own-stacks',
      dependencies: ['members'],
      testMatch: OWN_STACKS,
      workers: 2,
      use: { ...devices['Desktop Chrome'] },
    },
    {
      name: 'deploy',
      dependencies: ['chromium', 'own-stacks'],
      testMatch: DEPLOY,
      workers: 1,
      use: { ...devices['Desktop Chrome'] },
    },
  ],
  webServer: [
    {
      command: 'npm run sandbox',
      url: `${SANDBOX_URL}/_sandbox/clock`,
      reuseExistingServer: false,
      // Two cores carry the browser, three lanes' servers and their sandboxes: a page-heavy test
      // that takes 25 s alone takes longer beside the other lanes.
      timeout: 60_000,
      env: {
        SANDBOX_PORT: String(SANDBOX_PORT),
        SANDBOX_CONTROL: '1',
        SANDBOX_ALLOW_REDIRECT_PORTS: '1',
        SANDBOX_MODE_CHANGE_DELAY_MS: '1500',
        SANDBOX_CLIENTS: JSON.stringify([
          { clientId: 'setpoint-local', redirectUris: [`${APP_URL}/api/connect/callback`] },
        ]),
      },
    },
    {
      // `npm start` (server.ts), as in production: client addresses come from the socket.
      command: `npm start -- -p ${APP_PORT} -H 127.0.0.1`,
      url: `${APP_URL}/sign-in`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      env: {
        NODE_ENV: 'production',
        NEXTAUTH_URL: APP_URL,
        AUTH_SECRET: process.env.E2E_AUTH_SECRET,
        DATA_DIR: process.env.E2E_DATA_DIR,
        TOKEN_KEYS: process.env.E2E_TOKEN_KEYS,
        SERVICE_BASE_URL: SANDBOX_URL,
        // The app listens on a port, so its redirect URI has one; the sandbox allows it.
        SERVICE_ALLOW_REDIRECT_PORT: 'true',
        // No background polling: specs count the service's calls. Pages read what they show.
        READINGS_TARGET_MINUTES: '0',
        SERVICE_RATE_LIMIT: E2E_RATE_LIMIT,
        // e2e/notifications.spec.ts sends webhooks to a receiver on 127.0.0.1.
        WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true',
      },
    },
  ],
});
