import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { SandboxOptions } from '@/sandbox/src/config';
import { type RunningSandbox, startSandbox } from '@/sandbox/src/server';
import { startProcess } from '@/scripts/processes';
import { MANAGER } from './accounts';
import { answerConsent } from './sandbox';

/**
 * A stack of its own for specs that must not disturb the shared one (fault injection, several
 * app instances): a sandbox in the test process and server processes (`npm start`) of the same
 * production build, each with its own database and its log kept for inspection.
 */

const APP_PORT = Number(process.env.E2E_APP_PORT ?? 3100);
/** Ports for extra app instances and proxies: the shared app's port plus 1, 2, ... */
export const extraPort = (offset: number) => APP_PORT + offset;

export async function startOwnSandbox(
  appOrigin: string,
  options: SandboxOptions = {},
): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    control: true,
    allowRedirectPorts: true,
    modeChangeDelayMs: 500,
    clients: [{ clientId: 'setpoint-local', redirectUris: [`${appOrigin}/api/connect/callback`] }],
    ...options,
  });
}

/** What every instance of one deployment shares: secrets and where its data lives. */
export function deploymentSecrets(database: { databaseUrl: string } | { dataDir?: string } = {}) {
  return {
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
    ...('databaseUrl' in database
      ? { DATABASE_URL: database.databaseUrl }
      : { DATA_DIR: database.dataDir ?? mkdtempSync(path.join(tmpdir(), 'setpoint-e2e-own-')) }),
  };
}

export interface AppInstance {
  url: string;
  /** Everything the server printed so far (stdout and stderr). */
  log(): string;
  stop(): Promise<void>;
  /** Ends it at once, as a crash or a power cut would: SIGKILL to its whole process group. */
  kill(): Promise<void>;
}

type DeploymentOptions = {
  /** The origin browsers use (a proxy's, when there is one). */
  publicUrl: string;
  serviceUrl: string;
  env: Record<string, string>;
};

/** The environment of one deployment's processes: its servers and its operator commands. */
function deploymentEnv(options: DeploymentOptions): Record<string, string> {
  return {
    NODE_ENV: 'production',
    NEXTAUTH_URL: options.publicUrl,
    SERVICE_BASE_URL: options.serviceUrl,
    SERVICE_ALLOW_REDIRECT_PORT: 'true',
    // No background polling: specs count the service's calls. Pages read what they show.
    READINGS_TARGET_MINUTES: '0',
    ...options.env,
  };
}

/**
 * One of the operator's `npm run` commands against a deployment (with its environment): its exit
 * code and everything it printed.
 */
export async function runOperatorCommand(
  deployment: DeploymentOptions,
  script: string,
  args: string[],
): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    env: { ...process.env, ...deploymentEnv(deployment) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

/**
 * The operator's `npm run org:create` against a deployment: adds an organisation and returns its
 * first owner's invitation link, as the command prints it.
 */
export async function createOrganizationWithCli(
  deployment: DeploymentOptions,
  organization: { name: string; owner: string },
): Promise<string> {
  const { code, output } = await runOperatorCommand(deployment, 'org:create', [
    '--name',
    organization.name,
    '--owner',
    organization.owner,
  ]);
  const link = output.match(/^https?:\/\/\S+\/invite\/[\w-]+$/m)?.[0];
  if (code !== 0 || !link) throw new Error(`org:create exited ${code}:\n${output}`);
  return link;
}

/** Starts the production server (`npm start`: server.ts) from the existing production build. */
export async function startApp(
  options: DeploymentOptions & { port: number },
): Promise<AppInstance> {
  const chunks: string[] = [];
  // Its own process group, stopped as a whole; should the test worker die, the group goes too.
  const server = startProcess(
    `app on ${options.port}`,
    process.execPath,
    ['server.ts', '-p', String(options.port), '-H', '127.0.0.1'],
    {
      env: deploymentEnv(options),
      // The whole log, not a tail: specs search all of it for secrets.
      onOutput: (chunk) => chunks.push(chunk),
    },
  );
  const url = `http://127.0.0.1:${options.port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`app exited early:\n${chunks.join('')}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > until) throw new Error(`app on ${url} did not come up:\n${chunks.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    log: () => chunks.join(''),
    stop: () => server.stop(),
    kill: async () => {
      process.kill(-server.pid, 'SIGKILL');
      await server.exited;
      await server.stop({ graceMs: 0 });
    },
  };
}

/** A round-robin HTTP proxy on loopback: a load balancer in front of several instances. */
export async function startProxy(port: number, targets: string[]) {
  let next = 0;
  const served = targets.map(() => 0);
  const server = createServer((incoming, outgoing) => {
    const index = next++ % targets.length;
    served[index] = (served[index] ?? 0) + 1;
    const target = new URL(targets[index] ?? '');
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, 'x-forwarded-for': incoming.socket.remoteAddress },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Requests forwarded to each target, in the order of `targets`. */
    served: () => [...served],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * First-run setup, sign-in and connection to the sandbox's demo user, through the pages, on an
 * app whose database is new. `page` must have `baseURL` pointing at that app.
 */
export async function setUpConnectedManager(page: Page) {
  await setUpManager(page);
  await page.goto('/connection');
  await page.getByRole('button', { name: 'Connect service account' }).click();
  await answerConsent(page, 'Accept');
  await expect(page.getByRole('heading', { name: 'Connected', exact: true })).toBeVisible();
}

/** First-run setup and sign-in through the pages, on an app whose database is new. */
export async function setUpManager(page: Page) {
  await page.goto('/setup');
  await page.getByLabel('Organisation').fill(MANAGER.organization);
  await page.getByLabel('Your name').fill(MANAGER.name);
  await page.getByLabel('Email').fill(MANAGER.email);
  await page.getByLabel('Password', { exact: true }).fill(MANAGER.password);
  await page.getByLabel('Confirm password').fill(MANAGER.password);
  await page.getByRole('button', { name: 'Create organisation and account' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Password').fill(MANAGER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
}

/** The browser context's cookies as one `Cookie` header, for plain HTTP traffic. */
export async function cookieHeader(page: Page) {
  return (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

/**
 * Tears a stack down: every step runs even when one fails (servers and scratch databases must
 * not outlive the run), then the first failure is thrown.
 */
export async function tearDown(steps: (() => unknown)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length) throw failures[0];
}
