import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import type { RunningSandbox } from '@/sandbox/src/server';
import {
  control,
  createScratchDatabase,
  dumpDatabase,
  leaksIn,
  query,
  type ScratchDatabase,
  sandboxSecrets,
  tokenCalls,
} from './support/scale-out';
import {
  type AppInstance,
  cookieHeader,
  deploymentSecrets,
  extraPort,
  setUpConnectedManager,
  startApp,
  startOwnSandbox,
  startProxy,
  tearDown,
} from './support/stack';

/**
 * Scale-out (docs/architecture.md, "Tokens and refresh"): two app instances behind a load balancer
 * on one PostgreSQL database. They migrate it together at start-up, share sign-in, the OAuth state
 * and the portfolio, and refresh the service connection exactly once between them however many
 * requests meet an expired access token. Afterwards neither their logs nor a dump of the database
 * holds a token.
 */

const SERVER_URL = process.env.TEST_DATABASE_URL;
const INSTANCE_PORTS = [extraPort(1), extraPort(2)];
const PROXY_URL = `http://127.0.0.1:${extraPort(3)}`;
/** Concurrent page views per expiry, spread round-robin over the two instances. */
const BURST = 60;
/** Past the sandbox's 3600 s access-token lifetime. */
const PAST_EXPIRY_S = 3_700;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.describe('two instances on one PostgreSQL database', () => {
  test.skip(
    !SERVER_URL && !process.env.CI,
    'needs a PostgreSQL server: export TEST_DATABASE_URL=$(bash scripts/test-postgres.sh)',
  );

  let database: ScratchDatabase | undefined;
  let sandbox: RunningSandbox | undefined;
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let apps: AppInstance[] = [];
  let context: BrowserContext | undefined;
  let page: Page;
  let thermostats: { thermostatId: string; name: string }[] = [];

  const running = () => {
    if (!database || !sandbox || !proxy || apps.length !== 2) throw new Error('stack not up');
    return { database, sandbox, proxy, apps };
  };

  test.beforeAll(async ({ browser }) => {
    if (!SERVER_URL) {
      throw new Error(
        'TEST_DATABASE_URL is unset in CI: the scale-out spec needs the PostgreSQL server that .ci/run starts (scripts/test-postgres.sh).',
      );
    }
    database = await createScratchDatabase(SERVER_URL);
    // The service's registered redirect URI is on the load balancer's origin, as in production.
    sandbox = await startOwnSandbox(PROXY_URL);
    // A slow token endpoint keeps a refresh in flight while the other requests pile up on it.
    await control(sandbox, 'PUT', '/latency', { defaultMs: 0, endpoints: { 'POST /token': 400 } });
    const shared = deploymentSecrets({ databaseUrl: database.url });
    const serviceUrl = sandbox.url;
    // Both at the same moment on an empty database: both run the migrations at start-up.
    const started = await Promise.allSettled(
      INSTANCE_PORTS.map((port) =>
        startApp({ port, publicUrl: PROXY_URL, serviceUrl, env: shared }),
      ),
    );
    apps = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    proxy = await startProxy(
      extraPort(3),
      apps.map((app) => app.url),
    );
    context = await browser.newContext({ baseURL: PROXY_URL });
    page = await context.newPage();
  });

  test.afterAll(() =>
    tearDown([
      () => context?.close(),
      () => proxy?.close(),
      ...apps.map((app) => () => app.stop()),
      () => sandbox?.close(),
      () => database?.drop(),
    ]),
  );

  test('both instances migrate the new database together and serve one deployment', async () => {
    const { database, sandbox, proxy, apps } = running();

    // Every committed migration applied exactly once, whichever instance got there first.
    const journal = JSON.parse(
      readFileSync(path.join('lib', 'db', 'migrations', 'meta', '_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    const applied = await query<{ count: string }>(
      database.url,
      'select count(*)::text as count from drizzle.__drizzle_migrations',
    );
    expect(Number(applied[0]?.count)).toBe(journal.entries.length);
    for (const app of apps) {
      expect(app.log(), `start-up log of ${app.url}`).not.toMatch(/error|exception|failed/i);
      // Each answers a page that reads the database, directly (no user yet: setup is offered).
      const setup = await fetch(`${app.url}/setup`);
      expect(setup.status).toBe(200);
      expect(await setup.text()).toContain('Create organisation and account');
    }

    // Setup, sign-in, the OAuth round trip and the import all go through the load balancer,
    // so they hop between instances: nothing may live in one instance's memory.
    const before = proxy.served();
    await setUpConnectedManager(page);
    await page.goto('/portfolio/add');
    await page.getByRole('button', { name: 'Import the sandbox demo portfolio' }).click();
    await expect(page.getByText(/^\d+ added/)).toBeVisible({ timeout: 30_000 });
    const served = proxy.served().map((n, i) => n - (before[i] ?? 0));
    expect(Math.min(...served), `requests per instance during setup: ${served}`).toBeGreaterThan(0);

    const demo = await control<{ thermostats: { thermostatId: string; name: string }[] }>(
      sandbox,
      'GET',
      '/portfolio?user=demo',
    );
    const imported = await query<{ thermostat_id: string }>(
      database.url,
      'select thermostat_id from thermostats',
    );
    expect(imported.map((row) => row.thermostat_id).sort()).toEqual(
      demo.thermostats.map((t) => t.thermostatId).sort(),
    );
    thermostats = demo.thermostats;
    expect(thermostats.length).toBeGreaterThan(1);
  });

  test('concurrent page views across an access-token expiry refresh once for the whole deployment', async () => {
    const { database, sandbox, proxy } = running();
    expect(thermostats.length, 'the demo portfolio was imported').toBeGreaterThan(1);
    const cookie = await cookieHeader(page);
    // The browser stays off the load balancer (no prefetches) while the burst is counted.
    await page.goto('about:blank');
    const targets = Array.from({ length: BURST }, (_, i) => thermostats[i % thermostats.length]);

    for (const round of [1, 2]) {
      const [before] = await query<{ access_token_sealed: string }>(
        database.url,
        'select access_token_sealed from service_connections',
      );
      // The service's clock passes the access token's expiry; the app still believes it valid
      // (it dates the token by its own clock), so every request meets a 401 and must recover.
      await control(sandbox, 'POST', '/clock/advance', { seconds: PAST_EXPIRY_S });
      await control(sandbox, 'DELETE', '/calls');
      const servedBefore = proxy.served();
      const [{ now: burstStart } = { now: new Date() }] = await query<{ now: Date }>(
        database.url,
        'select now()',
      );

      const results = await Promise.all(
        targets.map(async (thermostat) => {
          if (!thermostat) throw new Error('unreachable');
          const response = await fetch(`${PROXY_URL}/thermostats/${thermostat.thermostatId}`, {
            headers: { cookie },
            redirect: 'manual',
          });
          return { thermostat, status: response.status, html: await response.text() };
        }),
      );

      const served = proxy.served().map((n, i) => n - (servedBefore[i] ?? 0));
      const refreshes = await tokenCalls(sandbox);
      const { calls } = await control<{ calls: Record<string, number> }>(sandbox, 'GET', '/calls');
      const statusReads = calls['GET /api/v2/thermostats/:id/status'] ?? 0;
      test.info().annotations.push({
        type: `round ${round}`,
        description: `requests per instance ${served.join('/')}, token endpoint calls ${refreshes}, status reads ${statusReads}, non-200 ${results.filter((r) => r.status !== 200).length}`,
      });

      expect(served.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(BURST);
      expect(Math.min(...served), `requests per instance: ${served}`).toBeGreaterThanOrEqual(
        BURST / 3,
      );
      expect(refreshes, 'token endpoint calls for the whole deployment').toBe(1);

      const failures = results.filter(
        ({ status, html }) =>
          status !== 200 ||
          !html.includes('Resident mode</h2>') ||
          // The status's own rows, drawn only from a status read (live, or the last one kept).
          !html.includes('>Equipment running</dt>') ||
          !html.includes('>Comfort setting now</dt>'),
      );
      expect(
        failures.map((f) => `${f.thermostat.thermostatId}: HTTP ${f.status}`),
        'page views without the live status',
      ).toEqual([]);
      // Every thermostat viewed was read from the service during the burst, after the one shared
      // refresh (concurrent views of one thermostat on one instance share a read:
      // lib/readings/read.ts), and no view read more than once.
      const distinct = new Set(targets.map((t) => t?.thermostatId));
      const readNow = await query<{ thermostat_id: string }>(
        database.url,
        'select thermostat_id from readings where read_at >= $1',
        [burstStart],
      );
      expect(new Set(readNow.map((row) => row.thermostat_id))).toEqual(distinct);
      expect(statusReads).toBeGreaterThanOrEqual(distinct.size);
      expect(statusReads).toBeLessThanOrEqual(BURST * 2);

      const [after] = await query<{ access_token_sealed: string; last_refreshed_at: Date | null }>(
        database.url,
        'select access_token_sealed, last_refreshed_at from service_connections',
      );
      expect(after?.access_token_sealed).not.toBe(before?.access_token_sealed);
      expect(after?.last_refreshed_at).not.toBeNull();

      const secrets = await sandboxSecrets(sandbox);
      expect(leaksIn(results.map((r) => r.html).join('\n'), secrets)).toEqual([]);
    }
  });

  test('no token in either server log or in a dump of the database', async () => {
    const { database, sandbox, apps } = running();
    const secrets = await sandboxSecrets(sandbox);
    // One code exchange and two refreshes at least: the scan looks for real values.
    expect(secrets.codes.length).toBeGreaterThanOrEqual(1);
    expect(secrets.accessTokens.length).toBeGreaterThanOrEqual(3);
    expect(secrets.refreshTokens.length).toBeGreaterThanOrEqual(3);
    expect(secrets.sentinels.length).toBeGreaterThanOrEqual(4);

    for (const app of apps) {
      const log = app.log();
      expect(log, `${app.url} wrote its log`).toMatch(/Ready|Local:/);
      expect(leaksIn(log, secrets), `secrets in the log of ${app.url}`).toEqual([]);
    }

    const dump = await dumpDatabase(database.url);
    // The dump does hold the connection row, sealed: had a token been stored in clear, the
    // scan below would have found it.
    const [row] = await query<{
      id: string;
      access_token_sealed: string;
      refresh_token_sealed: string;
    }>(
      database.url,
      'select id, access_token_sealed, refresh_token_sealed from service_connections',
    );
    expect(row, 'the connection row').toBeDefined();
    expect(dump).toContain('service_connections');
    expect(dump).toContain(row?.id ?? 'no connection row');
    expect(dump).toContain(row?.access_token_sealed ?? 'no sealed access token');
    expect(dump).toContain(row?.refresh_token_sealed ?? 'no sealed refresh token');
    expect(leaksIn(dump, secrets), 'secrets in the database dump').toEqual([]);
  });
});
