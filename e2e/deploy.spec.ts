import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { RunningSandbox } from '@/sandbox/src/server';
import { type ManagedProcess, startProcess } from '@/scripts/processes';
import { createScratchDatabase, query, type ScratchDatabase } from './support/scale-out';
import {
  deploymentSecrets,
  extraPort,
  setUpConnectedManager,
  startOwnSandbox,
  startProxy,
  tearDown,
} from './support/stack';

/**
 * docs/deploy.md, as an operator follows it: the Procfile's commands, run exactly as written,
 * with the environment the guide gives. The release step migrates an empty PostgreSQL database;
 * two web processes serve behind a proxy (TRUSTED_PROXIES=1) and only queue jobs
 * (JOBS_RUNNER=worker); the worker runs them. A manager sets up, signs in and connects through
 * the proxy, whichever instance answers.
 */

const SERVER_URL = process.env.TEST_DATABASE_URL;
const WEB_PORTS = [extraPort(40), extraPort(41)];
const PROXY_URL = `http://127.0.0.1:${extraPort(42)}`;

/** The Procfile's process types and their commands, as a platform reads them. */
function procfile(): Record<string, string> {
  const entries = readFileSync('Procfile', 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const match = line.match(/^([\w-]+):\s*(.+)$/);
      if (!match?.[1] || !match[2]) throw new Error(`not a Procfile line: ${line}`);
      return [match[1], match[2]] as const;
    });
  return Object.fromEntries(entries);
}

type Running = { child: ManagedProcess; log: () => string };

function run(name: string, command: string, env: Record<string, string>): Running {
  const chunks: string[] = [];
  const child = startProcess(name, 'sh', ['-c', command], {
    env,
    onOutput: (chunk) => chunks.push(chunk),
  });
  return { child, log: () => chunks.join('') };
}

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.describe('the Procfile, as docs/deploy.md runs it', () => {
  test.skip(
    !SERVER_URL && !process.env.CI,
    'needs a PostgreSQL server: export TEST_DATABASE_URL=$(bash scripts/test-postgres.sh)',
  );

  let database: ScratchDatabase | undefined;
  let sandbox: RunningSandbox | undefined;
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  const processes: Running[] = [];

  test.afterAll(async () => {
    await tearDown([
      ...processes.map((running) => () => running.child.stop()),
      () => proxy?.close(),
      () => sandbox?.close(),
      () => database?.drop(),
    ]);
  });

  test('release migrates, two web processes serve behind a proxy, the worker runs the jobs', async ({
    browser,
  }) => {
    if (!SERVER_URL) throw new Error('TEST_DATABASE_URL is unset in CI (see .ci/run).');
    const commands = procfile();
    expect(Object.keys(commands).sort()).toEqual(['release', 'web', 'worker']);

    database = await createScratchDatabase(SERVER_URL);
    sandbox = await startOwnSandbox(PROXY_URL);
    // The environment docs/deploy.md lists, the same on every process.
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      ...deploymentSecrets({ databaseUrl: database.url }),
      NEXTAUTH_URL: PROXY_URL,
      TRUSTED_PROXIES: '1',
      JOBS_RUNNER: 'worker',
      SERVICE_BASE_URL: sandbox.url,
      SERVICE_ALLOW_REDIRECT_PORT: 'true',
    };

    // Release: the migrations, once, as a step of its own; it ends by saying so.
    const release = run('release', commands.release ?? '', env);
    processes.push(release);
    expect((await release.child.exited).code, release.log()).toBe(0);
    expect(release.log()).toContain('Migrations applied (PostgreSQL)');

    // Web, twice, each on the port the platform gives it.
    const webs = WEB_PORTS.map((port) =>
      run(`web on ${port}`, commands.web ?? '', { ...env, PORT: String(port) }),
    );
    processes.push(...webs);
    for (const [index, port] of WEB_PORTS.entries()) {
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${port}/api/health`).then(
              (response) => response.status,
              () => 0,
            ),
          { timeout: 60_000, message: webs[index]?.log() },
        )
        .toBe(200);
    }
    proxy = await startProxy(
      extraPort(42),
      WEB_PORTS.map((port) => `http://127.0.0.1:${port}`),
    );

    // The web processes only queue: with no worker yet, no job has been done.
    const done = async () => {
      const url = database?.url ?? '';
      const [queue] = await query<{ at: string | null }>(
        url,
        "select to_regclass('pgboss.job') as at",
      );
      if (!queue?.at) return 0;
      const [row] = await query<{ count: string }>(
        url,
        "select count(*) from pgboss.job where state = 'completed'",
      );
      return Number(row?.count ?? 0);
    };
    expect(await done()).toBe(0);

    // The worker: it starts the schedules and does the first reading round at once.
    const worker = run('worker', commands.worker ?? '', env);
    processes.push(worker);
    await expect
      .poll(() => worker.log(), { timeout: 60_000 })
      .toContain('Setpoint worker: running jobs');
    await expect.poll(done, { timeout: 60_000, message: worker.log() }).toBeGreaterThan(0);

    // A manager's whole first visit through the proxy, each request to either instance.
    const context = await browser.newContext({ baseURL: PROXY_URL });
    const page = await context.newPage();
    await setUpConnectedManager(page);
    expect(proxy.served().every((count) => count > 0)).toBe(true);
    await context.close();

    // Every process is still up, and none logged a secret it was given.
    for (const running of [...webs, worker]) {
      expect(running.child.child.exitCode, running.log()).toBeNull();
      for (const secret of [env.AUTH_SECRET, env.TOKEN_KEYS]) {
        expect(running.log()).not.toContain(secret);
      }
    }
  });
});
