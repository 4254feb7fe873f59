import { type Browser, expect, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import type { RunningSandbox } from '@/sandbox/src/server';
import { MANAGER, sessionCookieFor } from './support/accounts';
import { actionCatalog, type CatalogAction, catalogEntry } from './support/action-catalog';
import { tableChecksums } from './support/database';
import {
  type ActionForm,
  actionFormsOf,
  type Fields,
  formWhere,
  postAction,
} from './support/forms';
import { acceptInvitation, invite } from './support/members';
import { noticeKeyOf } from './support/notice';
import { type RunningOidcProvider, startOidcProvider } from './support/oidc';
import { addBuilding } from './support/portfolio';
import { answerConsent, SANDBOX_USERS } from './support/sandbox';
import { control, createScratchDatabase, query, type ScratchDatabase } from './support/scale-out';
import {
  type AppInstance,
  createOrganizationWithCli,
  deploymentSecrets,
  extraPort,
  setUpConnectedManager,
  startApp,
  startOwnSandbox,
  tearDown,
} from './support/stack';

/**
 * Teams (docs/architecture.md, "Organisations, members and roles"): two organisations in one
 * deployment, A with a member of each role and B with its owner. Every page and every action is
 * tried by every role, through the pages and by calling the actions and route handlers directly
 * with the forms' bound ids and forged ones; a refusal says why, and it calls the service zero
 * times (the sandbox's call counter) and writes nothing (a checksum of every application table in
 * PostgreSQL). Invitations, company SSO (a real OpenID Connect provider in the test process) and
 * sessions of removed or changed members are tried as people meet them.
 */

const SERVER_URL = process.env.TEST_DATABASE_URL;
const APP = `http://127.0.0.1:${extraPort(11)}`;
const PASSWORD = 'a long team password 42';

type Who = 'owner' | 'admin' | 'manager' | 'viewer' | 'ownerB';
type Person = { name: string; email: string; role: string };
const PEOPLE = {
  admin: { name: 'Alex Admin', email: 'alex@reyes.example', role: 'Admin' },
  manager: { name: 'Bea Manager', email: 'bea@reyes.example', role: 'Building manager' },
  viewer: { name: 'Vic Viewer', email: 'vic@reyes.example', role: 'Viewer' },
} satisfies Record<string, Person>;
const OWNER_B = { name: 'Olivia North', email: 'olivia@northwind.example', org: 'Northwind Homes' };
/** Invitations left pending: one per organisation, for the withdraw forms. */
const PENDING_A = 'pending@reyes.example';
const PENDING_B = 'pending@northwind.example';
/** The demo buildings a building manager looks after (X) and does not (Y). */
const X_NAME = 'Front Range Offices';
const Y_NAME = 'Lakeshore Lofts';

/** The sentence a refused member reads (lib/auth/permissions.ts), as a person reads it. */
const said = (role: string, what: string, who = 'an owner or admin') =>
  `As ${role} you cannot ${what}; ask ${who}. Nothing was changed.`;
const NOT_YOURS = 'That thermostat is not in your portfolio.';
const BUILDING_NOT_YOURS = 'That building is not in your portfolio.';
const NOT_A_MEMBER = 'That member is not in your organisation.';
const NOT_PENDING = 'That invitation is no longer pending.';
const LAST_OWNER =
  'An organisation always keeps at least one owner: make someone else an owner first.';
const NOT_ACCEPTED =
  'Company sign-in worked, but no organisation on Setpoint has invited that email.';

// Generous ceilings: on a 2-core machine shared with other builds the setup and the pages took
// about a minute each.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.describe('teams: two organisations, a member of each role', () => {
  test.skip(
    !SERVER_URL && !process.env.CI,
    'needs a PostgreSQL server: export TEST_DATABASE_URL=$(bash scripts/test-postgres.sh)',
  );

  let database: ScratchDatabase | undefined;
  let sandbox: RunningSandbox | undefined;
  let oidc: RunningOidcProvider | undefined;
  let app: AppInstance | undefined;
  let deployment: Parameters<typeof createOrganizationWithCli>[0];
  const cookies = {} as Record<Who, string>;
  const pages = {} as Record<Who, Page>;
  const userIds = {} as Record<Who, string>;
  const links: Record<string, string> = {};
  /** A's buildings X and Y, a thermostat of each (and two more in X), B's building and one of its. */
  const ids = { X: '', Y: '', tX: '', tX2: '', tX3: '', tY: '', B: '', tB: '' };
  const buildingNamesA: string[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  const running = () => {
    if (!database || !sandbox || !oidc || !app) throw new Error('stack not up');
    return { database, sandbox, oidc, app };
  };

  /** A browser page of its own, signed in with `cookie` when one is given. */
  async function newPage(browser: Browser, cookie?: string): Promise<Page> {
    const context = await browser.newContext({ baseURL: APP });
    closers.push(() => context.close());
    if (cookie) {
      const [name = '', value = ''] = cookie.split(/=(.*)/s);
      await context.addCookies([{ name, value, url: APP, httpOnly: true, sameSite: 'Lax' }]);
    }
    return context.newPage();
  }

  test.beforeAll(async () => {
    if (!SERVER_URL) {
      throw new Error(
        'TEST_DATABASE_URL is unset in CI: the teams spec needs the PostgreSQL server that .ci/run starts (scripts/test-postgres.sh).',
      );
    }
    database = await createScratchDatabase(SERVER_URL);
    sandbox = await startOwnSandbox(APP);
    oidc = await startOidcProvider(APP);
    deployment = {
      publicUrl: APP,
      serviceUrl: sandbox.url,
      env: {
        ...deploymentSecrets({ databaseUrl: database.url }),
        OIDC_ISSUER: oidc.issuer,
        OIDC_CLIENT_ID: oidc.clientId,
        OIDC_CLIENT_SECRET: oidc.clientSecret,
      },
    };
    app = await startApp({ port: extraPort(11), ...deployment });
  });

  test.afterAll(() =>
    tearDown([
      ...closers,
      () => app?.stop(),
      () => oidc?.close(),
      () => sandbox?.close(),
      () => database?.drop(),
    ]),
  );

  // ---- reading the database and the service's call counter --------------------------------

  const count = async (sql: string) =>
    Number((await query<{ n: string }>(running().database.url, sql))[0]?.n);
  const countUsers = () => count('select count(*)::text as n from users');

  async function snapshot() {
    const { database, sandbox } = running();
    const { calls, total } = await control<{ calls: Record<string, number>; total: number }>(
      sandbox,
      'GET',
      '/calls',
    );
    // Not the incidents, which only the notification round (a job, every minute) writes, from
    // the readings: a round landing inside a refused attempt is not that attempt's write.
    const jobsOnly = { ignoreTables: ['incidents'] };
    return { calls, total, tables: await tableChecksums(database.url, jobsOnly) };
  }

  /** Runs `work`, then proves it called the service zero times and wrote nothing. */
  async function withoutEffect(what: string, work: () => Promise<void>) {
    const before = await snapshot();
    await work();
    const after = await snapshot();
    expect(after.calls, `${what}: service calls`).toEqual(before.calls);
    expect(after.total, `${what}: service calls in all`).toBe(before.total);
    expect(after.tables, `${what}: application tables`).toEqual(before.tables);
  }

  // ---- the pages' forms, and calling them --------------------------------------------------

  const formCache = new Map<string, ActionForm[]>();
  async function formsAt(path: string, who: Who = 'owner'): Promise<ActionForm[]> {
    const key = `${who} ${path}`;
    const cached = formCache.get(key);
    if (cached) return cached;
    const response = await fetch(`${APP}${path}`, { headers: { cookie: cookies[who] } });
    expect(response.status, `GET ${path} as ${who}`).toBe(200);
    const forms = actionFormsOf(await response.text());
    formCache.set(key, forms);
    return forms;
  }

  const catalog = actionCatalog(() => ({
    thermostatId: ids.tX,
    buildingId: ids.X,
    secondBuildingId: ids.Y,
    otherThermostatId: ids.tB,
  }));
  const THERMOSTAT_ACTIONS = catalog.filter(
    (action) => action.boundId === 'thermostat' && action.name !== 'remove thermostat',
  );
  /** What a thermostat action needs beyond seeing it: moving and relabelling manage buildings. */
  const needs = (action: CatalogAction) =>
    ['move', 'rename thermostat'].includes(action.name) ? 'change buildings' : 'change thermostats';

  /** A redirect, to `redirect` exactly, or to its path with `notice` (lib/platform/notice.ts). */
  type Redirected = { redirect: string; notice?: string };
  type Expected = { message: string } | { fieldError: [string, string] } | Redirected;
  type Attempt = {
    label: string;
    as: Who;
    path: string;
    form: ActionForm;
    /** In place of the rendered bound arguments: a forged id first, the rest as rendered. */
    boundId?: unknown;
    fields: Fields;
    expect: Expected;
  };

  /** A catalog action's form (as organisation A's owner sees it), called with its valid fields. */
  async function catalogAttempt(
    name: string,
    as: Who,
    expected: Expected,
    options: { boundId?: unknown; fields?: Fields } = {},
  ): Promise<Attempt> {
    const action = catalogEntry(catalog, name);
    const path = action.path();
    return {
      label: `${as}: ${name}${options.boundId === undefined ? '' : ` on ${String(options.boundId)}`}`,
      as,
      path,
      form: formWhere(await formsAt(path), action.pick),
      boundId: options.boundId,
      fields: options.fields ?? action.valid(),
      expect: expected,
    };
  }

  /** A form of the members page (as `from` sees it), by its accessible name. */
  async function membersAttempt(
    label: string,
    as: Who,
    formName: string,
    fields: Fields,
    expected: Expected,
    options: { boundId?: unknown; from?: Who } = {},
  ): Promise<Attempt> {
    const form = formWhere(await formsAt('/members', options.from ?? 'owner'), (candidate) =>
      candidate.html.includes(`aria-label="${formName}"`),
    );
    return {
      label: `${as}: ${label}`,
      as,
      path: '/members',
      form,
      fields,
      expect: expected,
      ...options,
    };
  }

  async function run(attempt: Attempt) {
    const bound =
      attempt.boundId === undefined ? undefined : [attempt.boundId, ...attempt.form.bound.slice(1)];
    const answer = await postAction(`${APP}${attempt.path}`, attempt.form, attempt.fields, {
      cookie: cookies[attempt.as],
      bound,
    });
    const what = attempt.label;
    expect(answer.status, `${what}: status`).toBeLessThan(500);
    if ('redirect' in attempt.expect) {
      const { redirect, notice } = attempt.expect;
      if (notice === undefined) {
        expect(answer.redirect, `${what}: redirect`).toBe(redirect);
      } else {
        expect(answer.redirect?.replace(/\?.*$/, ''), `${what}: redirect`).toBe(redirect);
        expect(noticeKeyOf(answer.redirect), `${what}: notice`).toBe(notice);
      }
      return;
    }
    expect(
      answer.result?.status,
      `${what}: ${JSON.stringify(answer.result) ?? answer.body.slice(0, 300)}`,
    ).toBe('error');
    if ('message' in attempt.expect) {
      expect(answer.result?.message, what).toBe(attempt.expect.message);
    } else {
      const [field, text] = attempt.expect.fieldError;
      const errors = (answer.result?.fieldErrors ?? {}) as Record<string, string[]>;
      expect(errors[field], what).toContain(text);
    }
  }

  async function runAll(attempts: Attempt[]) {
    const queue = [...attempts];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await run(next);
    };
    await Promise.all([worker(), worker(), worker()]);
  }

  const bulk = (who: Who, thermostatIds: string[]) =>
    fetch(`${APP}/bulk/apply`, {
      method: 'POST',
      headers: { origin: APP, cookie: cookies[who], 'content-type': 'application/json' },
      body: JSON.stringify({ thermostatIds, values: { fanMinimumOnTime: '12' } }),
      redirect: 'manual',
    });

  async function expectBulkRefused(
    who: Who,
    thermostatIds: string[],
    status: number,
    message: string,
  ) {
    const response = await bulk(who, thermostatIds);
    expect(response.status, `${who}: bulk ${thermostatIds}`).toBe(status);
    expect(((await response.json()) as { message: string }).message).toBe(message);
  }

  async function expectConnectRefused(who: Who) {
    const response = await fetch(`${APP}/api/connect`, {
      method: 'POST',
      headers: { origin: APP, cookie: cookies[who] },
      body: new URLSearchParams({ returnTo: '/connection' }),
      redirect: 'manual',
    });
    expect(response.status, `${who}: connect`).toBe(303);
    const location = response.headers.get('location') ?? '';
    expect(location.replace(/\?.*$/, ''), `${who}: connect`).toBe(`${APP}/connection`);
    expect(noticeKeyOf(location), `${who}: connect`).toBe('notAllowed');
  }

  test('organisation A by first-run setup and B by org:create; both connect; A invites a member of each role', async ({
    browser,
  }) => {
    const { database, sandbox } = running();
    // A: first-run setup, connected to the sandbox's demo user, with the demo portfolio.
    const owner = await newPage(browser);
    await setUpConnectedManager(owner);
    await owner.goto('/portfolio/add');
    await owner.getByRole('button', { name: 'Import the sandbox demo portfolio' }).click();
    await expect(owner.getByText(/^\d+ added/)).toBeVisible({ timeout: 30_000 });

    // B: the operator's command, its owner's link accepted in a browser; connected to the
    // sandbox's other account, whose thermostats it adds by id.
    const linkB = await createOrganizationWithCli(deployment, {
      name: OWNER_B.org,
      owner: OWNER_B.email,
    });
    const ownerB = await newPage(browser);
    await acceptInvitation(ownerB, linkB, OWNER_B.name, PASSWORD);
    await ownerB.getByLabel('Password').fill(PASSWORD);
    await ownerB.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(ownerB.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await expect(ownerB.getByRole('main')).toContainText(
      `Signed in as ${OWNER_B.name}, ${OWNER_B.org}.`,
    );
    await ownerB.goto('/connection');
    await ownerB.getByRole('button', { name: 'Connect service account' }).click();
    await answerConsent(ownerB, 'Accept', SANDBOX_USERS.other);
    await expect(ownerB.getByRole('heading', { name: 'Connected', exact: true })).toBeVisible();
    // Connected with nothing added yet: the next step is offered, under the account's name.
    await expect(
      ownerB.getByRole('heading', { name: 'Next: add the thermostats you manage' }),
    ).toBeVisible();
    await expect(
      ownerB
        .getByRole('term')
        .filter({ hasText: /^Service account$/ })
        .locator('+ dd'),
    ).not.toHaveText(/^(—|)$/);
    const other = await control<{
      buildings: { buildingId: string; name: string; timeZone: string }[];
      thermostats: { thermostatId: string }[];
    }>(sandbox, 'GET', '/portfolio?user=other');
    // Its one building first: the service does not say which building a thermostat is in.
    for (const building of other.buildings) await addBuilding(ownerB, building);
    await ownerB.goto('/portfolio/add');
    await ownerB
      .getByLabel('Thermostat ids')
      .fill(other.thermostats.map((t) => t.thermostatId).join('\n'));
    await ownerB.getByRole('button', { name: 'Add thermostats' }).click();
    await expect(ownerB.getByText(`${other.thermostats.length} added.`)).toBeVisible();
    links.pendingB = await invite(ownerB, PENDING_B, 'Viewer');

    const demo = await control<{
      buildings: { buildingId: string; name: string }[];
      thermostats: { thermostatId: string; buildingId: string }[];
    }>(sandbox, 'GET', '/portfolio?user=demo');
    const buildingOf = (name: string) => demo.buildings.find((b) => b.name === name)?.buildingId;
    ids.X = buildingOf(X_NAME) ?? '';
    ids.Y = buildingOf(Y_NAME) ?? '';
    const inX = demo.thermostats.filter((t) => t.buildingId === ids.X).map((t) => t.thermostatId);
    [ids.tX = '', ids.tX2 = '', ids.tX3 = ''] = inX;
    ids.tY = demo.thermostats.find((t) => t.buildingId === ids.Y)?.thermostatId ?? '';
    ids.B = other.buildings[0]?.buildingId ?? '';
    ids.tB = other.thermostats[0]?.thermostatId ?? '';
    expect(Object.values(ids)).not.toContain('');
    buildingNamesA.push(...demo.buildings.map((b) => b.name));

    // A's owner invites an admin, a building manager of X, a viewer (and one more, left pending).
    links.admin = await invite(owner, PEOPLE.admin.email, PEOPLE.admin.role);
    links.manager = await invite(owner, PEOPLE.manager.email, PEOPLE.manager.role, X_NAME);
    links.viewer = await invite(owner, PEOPLE.viewer.email, PEOPLE.viewer.role);
    links.pendingA = await invite(owner, PENDING_A, 'Viewer');
    const stranger = await newPage(browser);
    for (const who of ['admin', 'manager', 'viewer'] as const) {
      await acceptInvitation(stranger, links[who] ?? '', PEOPLE[who].name, PASSWORD);
    }

    // Everyone signed in, each with a browser of their own.
    const emails: Record<Who, string> = {
      owner: MANAGER.email,
      admin: PEOPLE.admin.email,
      manager: PEOPLE.manager.email,
      viewer: PEOPLE.viewer.email,
      ownerB: OWNER_B.email,
    };
    for (const [who, email] of Object.entries(emails) as [Who, string][]) {
      cookies[who] = await sessionCookieFor(
        APP,
        email,
        who === 'owner' ? MANAGER.password : PASSWORD,
      );
      pages[who] = await newPage(browser, cookies[who]);
      const [row] = await query<{ id: string }>(
        database.url,
        `select id from users where email = '${email}'`,
      );
      userIds[who] = row?.id ?? '';
    }

    const members = await query<{ org: string; role: string; n: string }>(
      database.url,
      `select o.name as org, m.role, count(*)::text as n from memberships m
       join organizations o on o.id = m.org_id group by o.name, m.role order by o.name, m.role`,
    );
    expect(members.map((m) => `${m.org}: ${m.role} ${m.n}`)).toEqual([
      `${OWNER_B.org}: owner 1`,
      `${MANAGER.organization}: admin 1`,
      `${MANAGER.organization}: building_manager 1`,
      `${MANAGER.organization}: owner 1`,
      `${MANAGER.organization}: viewer 1`,
    ]);
    const managerBuildings = await query<{ building_id: string }>(
      database.url,
      `select building_id from member_buildings where user_id = '${userIds.manager}'`,
    );
    expect(managerBuildings.map((row) => row.building_id)).toEqual([ids.X]);
  });

  test('every page as every role: each sees and is offered what their role allows', async () => {
    // About 70 page views; 2.4 minutes at a load average of 27 on 2 cores.
    test.setTimeout(300_000);
    const yName = new RegExp(Y_NAME);
    // The four browsers at once: each role's pages are independent.
    const roles = ['owner', 'admin', 'manager', 'viewer'] as const;
    await Promise.all(
      roles.map(async (who) => {
        const page = pages[who];
        const manages = who === 'owner' || who === 'admin';
        const changes = who !== 'viewer';
        const role = {
          owner: 'owner',
          admin: 'admin',
          manager: 'building manager',
          viewer: 'viewer',
        }[who];
        const article = who === 'admin' ? 'an' : 'a';
        await test.step(who, async () => {
          // The overview: a building manager sees only their building.
          await page.goto('/');
          const cards = page.getByRole('main').getByRole('listitem');
          await expect(cards).toHaveCount(who === 'manager' ? 1 : buildingNamesA.length);
          await expect(cards.filter({ hasText: X_NAME })).toHaveCount(1);
          await expect(page.getByRole('link', { name: 'Add thermostats' })).toHaveCount(
            manages ? 1 : 0,
          );

          // A building: everyone with it in scope sees it; only those who manage it may edit it.
          await page.goto(`/buildings/${ids.X}`);
          await expect(page.getByRole('heading', { name: X_NAME, level: 1 })).toBeVisible();
          await expect(page.getByRole('link', { name: 'New thermostat' })).toHaveCount(
            changes ? 1 : 0,
          );
          await expect(page.getByText('Edit building name and address')).toHaveCount(
            changes ? 1 : 0,
          );
          await page.goto(`/buildings/${ids.Y}`);
          await expect(
            page.getByRole('heading', { name: who === 'manager' ? 'Page not found' : Y_NAME }),
          ).toBeVisible();
          await page.goto(`/buildings/${ids.X}/new-thermostat`);
          if (changes) await expect(page.getByLabel('Unit label')).toBeEditable();
          else
            await expect(
              page.getByText('As a viewer you cannot change buildings; ask an owner or admin.'),
            ).toBeVisible();

          // A thermostat: a viewer sees it, read-only; removing it is for owners and admins.
          await page.goto(`/thermostats/${ids.tX}`);
          await expect(page.getByRole('heading', { name: 'Status' })).toBeVisible();
          await expect(page.getByRole('heading', { name: 'Resident mode' })).toHaveCount(
            changes ? 1 : 0,
          );
          await expect(page.getByText('You can see this thermostat but not change it')).toHaveCount(
            changes ? 0 : 1,
          );
          await expect(page.getByText('Remove from portfolio…')).toHaveCount(manages ? 1 : 0);
          await page.goto(`/thermostats/${ids.tX}/configuration`);
          const save = page.getByRole('button', { name: 'Save configuration' });
          if (changes) await expect(save).toBeEnabled();
          else await expect(save).toBeDisabled();
          await page.goto(`/thermostats/${ids.tY}`);
          await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(
            who === 'manager' ? 1 : 0,
          );
          // Another organisation's thermostat and building do not exist for anyone here.
          await page.goto(`/thermostats/${ids.tB}`);
          await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
          await page.goto(`/buildings/${ids.B}`);
          await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();

          // Adding thermostats is for owners and admins; bulk changes for those who change them,
          // over their own thermostats.
          await page.goto('/portfolio/add');
          if (manages) {
            await expect(
              page.getByRole('button', { name: 'Import the sandbox demo portfolio' }),
            ).toBeVisible();
          } else {
            await expect(
              page.getByText(
                `As ${article} ${role} you cannot add or remove thermostats; ask an owner or admin.`,
              ),
            ).toBeVisible();
          }
          await page.goto('/bulk');
          if (changes) {
            await expect(page.getByRole('group', { name: X_NAME })).toBeVisible();
            await expect(page.getByRole('group', { name: yName })).toHaveCount(
              who === 'manager' ? 0 : 1,
            );
          } else {
            await expect(
              page.getByText('As a viewer you cannot change thermostats; ask an owner or admin.'),
            ).toBeVisible();
          }

          // The connection: everyone sees it; only owners and admins reconnect or disconnect.
          await page.goto('/connection');
          await expect(page.getByRole('heading', { name: 'Connected', exact: true })).toBeVisible();
          await expect(page.getByRole('button', { name: 'Reconnect' })).toHaveCount(
            manages ? 1 : 0,
          );
          await expect(page.getByText('Disconnect…')).toHaveCount(manages ? 1 : 0);

          // Members: everyone sees who is in; owners and admins manage (admins not owners).
          await page.goto('/members');
          const main = page.getByRole('main');
          await expect(main).toContainText(`You are ${role}.`);
          const people = page
            .getByRole('heading', { name: 'People' })
            .locator('xpath=..')
            .getByRole('listitem');
          await expect(people).toHaveCount(4);
          await expect(people.filter({ hasText: PEOPLE.manager.email })).toContainText(
            `Building manager of ${X_NAME}`,
          );
          await expect(page.getByRole('heading', { name: 'Invite someone' })).toHaveCount(
            manages ? 1 : 0,
          );
          await expect(
            page.getByRole('heading', { name: 'Organisation', exact: true }),
          ).toHaveCount(manages ? 1 : 0);
          await expect(page.getByText(`Change ${PEOPLE.viewer.name.split(' ')[0]}…`)).toHaveCount(
            manages ? 1 : 0,
          );
          await expect(page.getByText(`Change ${MANAGER.name.split(' ')[0]}…`)).toHaveCount(0);
          await expect(page.getByText(OWNER_B.name)).toHaveCount(0);

          await page.goto('/activity');
          await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
        });
      }),
    );
    // Organisation B's owner: A's thermostat and building do not exist.
    const ownerB = pages.ownerB;
    await ownerB.goto(`/thermostats/${ids.tX}`);
    await expect(ownerB.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await ownerB.goto(`/buildings/${ids.X}`);
    await expect(ownerB.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await ownerB.goto('/');
    await expect(ownerB.getByRole('main').getByRole('listitem')).toHaveCount(1);
  });

  test('every action a role may not take is refused with the reason, no service call and no write', async () => {
    // The forms as A's owner sees them (every form present), read before counting.
    for (const action of catalog) await formsAt(action.path());
    await formsAt('/members');
    await formsAt('/members', 'admin');
    const demoImport = formWhere(
      await formsAt('/portfolio/add'),
      (form) => form.fields.length === 0 && form.html.includes('Import the sandbox demo portfolio'),
    );
    const [invitationB] = await query<{ id: string }>(
      running().database.url,
      `select id from invitations where email = '${PENDING_B}'`,
    );
    const pendingA = `Withdraw the invitation of ${PENDING_A}`;
    const roleOf = (name: string) => `Role of ${name}`;
    const removeOf = (name: string) => `Remove ${name}`;
    let attempts = 0;

    await test.step('a viewer: every change, with the forms as rendered', async () => {
      const viewer = (what: string) => ({ message: said('a viewer', what) });
      const list: Attempt[] = [
        ...(await Promise.all(
          THERMOSTAT_ACTIONS.map((action) =>
            catalogAttempt(action.name, 'viewer', viewer(needs(action))),
          ),
        )),
        await catalogAttempt('remove thermostat', 'viewer', { redirect: '/' }),
        await catalogAttempt('building details', 'viewer', viewer('change buildings')),
        await catalogAttempt('new thermostat', 'viewer', viewer('change buildings')),
        await catalogAttempt('add by list', 'viewer', viewer('add or remove thermostats')),
        await catalogAttempt('add by CSV', 'viewer', viewer('add or remove thermostats')),
        {
          label: 'viewer: import demo',
          as: 'viewer',
          path: '/portfolio/add',
          form: demoImport,
          fields: [],
          expect: viewer('add or remove thermostats'),
        },
        await catalogAttempt(
          'notification rules',
          'viewer',
          viewer('change notification rules or webhooks'),
        ),
        await catalogAttempt(
          'add webhook',
          'viewer',
          viewer('change notification rules or webhooks'),
        ),
        await catalogAttempt('disconnect', 'viewer', {
          redirect: '/connection',
          notice: 'notAllowed',
        }),
        await membersAttempt(
          'invite',
          'viewer',
          'Invite someone',
          [
            ['email', 'friend@reyes.example'],
            ['role', 'admin'],
          ],
          viewer('manage members'),
        ),
        // Making themselves admin, removing the admin, withdrawing an invitation.
        await membersAttempt(
          'make themselves admin',
          'viewer',
          roleOf(PEOPLE.viewer.name),
          [['role', 'admin']],
          viewer('manage members'),
        ),
        await membersAttempt(
          'remove the admin',
          'viewer',
          removeOf(PEOPLE.admin.name),
          [],
          viewer('manage members'),
        ),
        await membersAttempt('withdraw', 'viewer', pendingA, [], viewer('manage members')),
        await membersAttempt(
          'organisation settings',
          'viewer',
          'Organisation settings',
          [
            ['name', 'Hijacked'],
            ['ssoDomain', 'evil.example'],
            ['ssoDefaultRole', 'admin'],
          ],
          viewer('change the organisation’s settings'),
        ),
      ];
      await withoutEffect('viewer', async () => {
        await runAll(list);
        await expectBulkRefused('viewer', [ids.tX], 403, said('a viewer', 'change thermostats'));
        await expectConnectRefused('viewer');
      });
      attempts += list.length + 2;
    });

    await test.step('a building manager: outside their building, and beyond their role', async () => {
      const manager = (what: string) => ({ message: said('a building manager', what) });
      const list: Attempt[] = [
        ...(await Promise.all(
          THERMOSTAT_ACTIONS.map((action) =>
            catalogAttempt(action.name, 'manager', { message: NOT_YOURS }, { boundId: ids.tY }),
          ),
        )),
        await catalogAttempt(
          'move',
          'manager',
          { fieldError: ['buildingId', 'Choose one of your buildings.'] },
          { fields: [['buildingId', ids.Y]] },
        ),
        await catalogAttempt('remove thermostat', 'manager', { redirect: '/' }),
        await catalogAttempt(
          'remove thermostat',
          'manager',
          { redirect: '/' },
          { boundId: ids.tY },
        ),
        await catalogAttempt(
          'building details',
          'manager',
          { message: BUILDING_NOT_YOURS },
          { boundId: ids.Y },
        ),
        await catalogAttempt(
          'new thermostat',
          'manager',
          { message: BUILDING_NOT_YOURS },
          { boundId: ids.Y },
        ),
        await catalogAttempt(
          'my email',
          'manager',
          { fieldError: ['buildingIds', 'Choose among your own buildings.'] },
          {
            fields: catalogEntry(catalog, 'my email')
              .valid()
              .map(([name, value]) => [name, name === 'buildingIds' ? ids.Y : value]),
          },
        ),
        await catalogAttempt(
          'notification rules',
          'manager',
          manager('change notification rules or webhooks'),
        ),
        await catalogAttempt(
          'add webhook',
          'manager',
          manager('change notification rules or webhooks'),
        ),
        await catalogAttempt('add by list', 'manager', manager('add or remove thermostats')),
        await catalogAttempt('add by CSV', 'manager', manager('add or remove thermostats')),
        {
          label: 'manager: import demo',
          as: 'manager',
          path: '/portfolio/add',
          form: demoImport,
          fields: [],
          expect: manager('add or remove thermostats'),
        },
        await catalogAttempt('disconnect', 'manager', {
          redirect: '/connection',
          notice: 'notAllowed',
        }),
        await membersAttempt(
          'make themselves admin',
          'manager',
          roleOf(PEOPLE.viewer.name),
          [['role', 'admin']],
          manager('manage members'),
          { boundId: userIds.manager },
        ),
        await membersAttempt(
          'remove the viewer',
          'manager',
          removeOf(PEOPLE.viewer.name),
          [],
          manager('manage members'),
        ),
        await membersAttempt('withdraw', 'manager', pendingA, [], manager('manage members')),
        await membersAttempt(
          'organisation settings',
          'manager',
          'Organisation settings',
          [
            ['name', 'Hijacked'],
            ['ssoDomain', ''],
            ['ssoDefaultRole', ''],
          ],
          manager('change the organisation’s settings'),
        ),
      ];
      await withoutEffect('building manager', async () => {
        await runAll(list);
        const outside =
          '1 selected thermostat is not in your portfolio (your buildings); nothing was sent.';
        await expectBulkRefused('manager', [ids.tY], 403, outside);
        await expectBulkRefused('manager', [ids.tX, ids.tY], 403, outside);
        await expectBulkRefused('manager', [ids.tB], 403, outside);
        await expectConnectRefused('manager');
      });
      attempts += list.length + 4;
    });

    await test.step('an admin: owners are for owners; another organisation is not theirs', async () => {
      const owners = { message: said('an admin', 'change owners', 'an owner') };
      const list: Attempt[] = [
        await membersAttempt(
          'make the owner a viewer',
          'admin',
          roleOf(PEOPLE.viewer.name),
          [['role', 'viewer']],
          owners,
          { boundId: userIds.owner },
        ),
        await membersAttempt(
          'remove the owner',
          'admin',
          removeOf(PEOPLE.viewer.name),
          [],
          owners,
          {
            boundId: userIds.owner,
          },
        ),
        await membersAttempt(
          'make the viewer an owner',
          'admin',
          roleOf(PEOPLE.viewer.name),
          [['role', 'owner']],
          owners,
        ),
        await membersAttempt(
          'invite an owner',
          'admin',
          'Invite someone',
          [
            ['email', 'boss@reyes.example'],
            ['role', 'owner'],
          ],
          { fieldError: ['role', 'Only an owner can invite an owner.'] },
        ),
        ...(await Promise.all(
          THERMOSTAT_ACTIONS.map((action) =>
            catalogAttempt(action.name, 'admin', { message: NOT_YOURS }, { boundId: ids.tB }),
          ),
        )),
      ];
      await withoutEffect('admin', () => runAll(list));
      attempts += list.length;
    });

    await test.step('A’s owner with B’s ids bound into A’s forms', async () => {
      const list: Attempt[] = [
        ...(await Promise.all(
          THERMOSTAT_ACTIONS.map((action) =>
            catalogAttempt(action.name, 'owner', { message: NOT_YOURS }, { boundId: ids.tB }),
          ),
        )),
        await catalogAttempt('remove thermostat', 'owner', { redirect: '/' }, { boundId: ids.tB }),
        await catalogAttempt(
          'building details',
          'owner',
          { message: BUILDING_NOT_YOURS },
          { boundId: ids.B },
        ),
        await catalogAttempt(
          'new thermostat',
          'owner',
          { message: BUILDING_NOT_YOURS },
          { boundId: ids.B },
        ),
        await catalogAttempt(
          'move',
          'owner',
          { fieldError: ['buildingId', 'Choose one of your buildings.'] },
          { fields: [['buildingId', ids.B]] },
        ),
        await membersAttempt(
          'change B’s owner',
          'owner',
          roleOf(PEOPLE.viewer.name),
          [['role', 'viewer']],
          { message: NOT_A_MEMBER },
          { boundId: userIds.ownerB },
        ),
        await membersAttempt(
          'remove B’s owner',
          'owner',
          removeOf(PEOPLE.viewer.name),
          [],
          { message: NOT_A_MEMBER },
          { boundId: userIds.ownerB },
        ),
        await membersAttempt(
          'withdraw B’s invitation',
          'owner',
          pendingA,
          [],
          { message: NOT_PENDING },
          {
            boundId: invitationB?.id,
          },
        ),
        // The only owner cannot leave (the form is offered to the admin, not to them).
        await membersAttempt(
          'leave as the only owner',
          'owner',
          'Leave the organisation',
          [],
          { message: LAST_OWNER },
          { from: 'admin' },
        ),
      ];
      await withoutEffect('owner A, forged ids', async () => {
        await runAll(list);
        await expectBulkRefused(
          'owner',
          [ids.tB],
          403,
          '1 selected thermostat is not in your portfolio; nothing was sent.',
        );
      });
      attempts += list.length + 1;
    });

    await test.step('B’s owner posting A’s forms exactly as A’s pages render them', async () => {
      const list: Attempt[] = [
        ...(await Promise.all(
          THERMOSTAT_ACTIONS.map((action) =>
            catalogAttempt(action.name, 'ownerB', { message: NOT_YOURS }),
          ),
        )),
        await catalogAttempt('remove thermostat', 'ownerB', { redirect: '/' }),
        await catalogAttempt('building details', 'ownerB', { message: BUILDING_NOT_YOURS }),
        await catalogAttempt('new thermostat', 'ownerB', { message: BUILDING_NOT_YOURS }),
        await membersAttempt(
          'change A’s viewer',
          'ownerB',
          roleOf(PEOPLE.viewer.name),
          [['role', 'admin']],
          { message: NOT_A_MEMBER },
        ),
        await membersAttempt('remove A’s viewer', 'ownerB', removeOf(PEOPLE.viewer.name), [], {
          message: NOT_A_MEMBER,
        }),
        await membersAttempt('withdraw A’s invitation', 'ownerB', pendingA, [], {
          message: NOT_PENDING,
        }),
      ];
      await withoutEffect('owner B, A’s forms', async () => {
        await runAll(list);
        await expectBulkRefused(
          'ownerB',
          [ids.tX],
          403,
          '1 selected thermostat is not in your portfolio; nothing was sent.',
        );
      });
      attempts += list.length + 1;
    });

    await test.step('without JavaScript too: the refusals write nothing', async () => {
      const { sandbox, database } = running();
      const writes = async () =>
        Object.entries(
          (await control<{ calls: Record<string, number> }>(sandbox, 'GET', '/calls')).calls,
        ).filter(([key]) => !key.startsWith('GET '));
      const cases: [Who, string, unknown][] = [
        ['viewer', 'resident mode', undefined],
        ['viewer', 'configuration', undefined],
        ['viewer', 'building details', undefined],
        ['manager', 'resident mode', ids.tY],
        ['manager', 'alerts', ids.tY],
        ['ownerB', 'access control', undefined],
        ['owner', 'comfort setting delete', ids.tB],
      ];
      // Without JavaScript a refusal answers with the page again, and rendering a page may
      // refresh its readings (a GET at the service, a row in the readings store): that is
      // reading, not writing, so those tables are left out here; every other table must hold.
      const readingTables = { ignoreTables: ['readings', 'reading_history', 'service_calls'] };
      const prepared = await Promise.all(
        cases.map(([who, name, boundId]) =>
          catalogAttempt(name, who, { message: '' }, { boundId }).then((attempt) => ({
            who,
            boundId,
            attempt,
          })),
        ),
      );
      const before = {
        writes: await writes(),
        tables: await tableChecksums(database.url, readingTables),
      };
      for (const { who, boundId, attempt } of prepared) {
        const answer = await postAction(`${APP}${attempt.path}`, attempt.form, attempt.fields, {
          via: 'nojs',
          cookie: cookies[who],
          bound: boundId === undefined ? undefined : [boundId, ...attempt.form.bound.slice(1)],
        });
        expect(answer.status, `${attempt.label} (no JS)`).toBeLessThan(500);
      }
      expect(await writes()).toEqual(before.writes);
      expect(await tableChecksums(database.url, readingTables)).toEqual(before.tables);
      attempts += cases.length;
    });
    console.log(`teams: ${attempts} refused attempts`);
    expect(attempts).toBeGreaterThan(90);
  });

  test('what a role may do, it can: a building manager in their building, an admin inviting', async () => {
    const { database, sandbox } = running();
    const writesOf = async () =>
      Object.entries(
        (await control<{ calls: Record<string, number> }>(sandbox, 'GET', '/calls')).calls,
      )
        .filter(([key]) => !key.startsWith('GET ') && !/ \/(token|authorize)$/.test(key))
        .reduce((sum, [, n]) => sum + n, 0);
    const succeeds = async (attempt: Attempt) => {
      const answer = await postAction(`${APP}${attempt.path}`, attempt.form, attempt.fields, {
        cookie: cookies[attempt.as],
        bound:
          attempt.boundId === undefined
            ? undefined
            : [attempt.boundId, ...attempt.form.bound.slice(1)],
      });
      expect(answer.result?.status, `${attempt.label}: ${answer.body.slice(0, 300)}`).toBe(
        'success',
      );
      return answer.result ?? {};
    };

    // The building manager changes a thermostat of their building at the service...
    const before = await writesOf();
    const resident = await succeeds(
      await catalogAttempt(
        'resident mode',
        'manager',
        { message: '' },
        {
          fields: [['isResidentMode', 'on']],
        },
      ),
    );
    expect(resident.message).toBe('Resident mode is on.');
    expect(await writesOf()).toBeGreaterThan(before);
    // ...relabels another, and in bulk changes one.
    await succeeds(
      await catalogAttempt(
        'rename thermostat',
        'manager',
        { message: '' },
        {
          boundId: ids.tX2,
          fields: [['unitLabel', 'Relabelled by Bea']],
        },
      ),
    );
    const [label] = await query<{ unit_label: string }>(
      database.url,
      `select unit_label from thermostats where thermostat_id = '${ids.tX2}'`,
    );
    expect(label?.unit_label).toBe('Relabelled by Bea');
    // A bulk run starts as a job (202) and is followed to its end.
    const response = await bulk('manager', [ids.tX]);
    expect(response.status).toBe(202);
    const { progress } = (await response.json()) as { progress: string };
    await expect
      .poll(
        async () => {
          const answer = await fetch(`${APP}${progress}`, { headers: { cookie: cookies.manager } });
          return (await answer.json()) as { finished: boolean; counts: { applied: number } };
        },
        { timeout: 30_000 },
      )
      .toMatchObject({ finished: true, counts: { applied: 1 } });

    // The owner relabels a thermostat in each of X and Y (the activity test reads them).
    await succeeds(
      await catalogAttempt(
        'rename thermostat',
        'owner',
        { message: '' },
        {
          boundId: ids.tX3,
          fields: [['unitLabel', 'Owner label in X']],
        },
      ),
    );
    await succeeds(
      await catalogAttempt(
        'rename thermostat',
        'owner',
        { message: '' },
        {
          boundId: ids.tY,
          fields: [['unitLabel', 'Owner label in Y']],
        },
      ),
    );

    // The admin invites someone: the link comes back once.
    const invited = await succeeds(
      await membersAttempt(
        'invite',
        'admin',
        'Invite someone',
        [
          ['email', 'casey@reyes.example'],
          ['role', 'viewer'],
        ],
        { message: '' },
        { from: 'admin' },
      ),
    );
    expect(String(invited.link)).toMatch(new RegExp(`^${APP}/invite/[\\w-]{40,}$`));
  });

  test('the activity log: B never sees A’s entries; a building manager sees their building’s and their own', async () => {
    const aNames = [MANAGER.name, ...Object.values(PEOPLE).map((p) => p.name)];
    const csvOf = async (who: Who, search = '') => {
      const response = await fetch(`${APP}/activity/export${search}`, {
        headers: { cookie: cookies[who] },
      });
      expect(response.status).toBe(200);
      const rows = parse(await response.text(), { bom: true, columns: true }) as Record<
        string,
        string
      >[];
      return rows;
    };

    // B's owner: page and export hold B's own entries, none of A's.
    for (const [label, text] of [
      ['page', await (await pages.ownerB.goto('/activity'))?.text()],
      ['export', JSON.stringify(await csvOf('ownerB'))],
    ] as const) {
      expect(text, `B's ${label}`).toContain(OWNER_B.name);
      const fromA = [...aNames, ...buildingNamesA, ids.tX, ids.tY, MANAGER.organization];
      expect(
        fromA.filter((leaked) => text?.includes(leaked)),
        `organisation A in B's activity ${label}`,
      ).toEqual([]);
    }
    const bRows = await csvOf('ownerB');
    expect(bRows.length).toBeGreaterThan(2);
    expect(new Set(bRows.map((row) => row.who))).toEqual(new Set([OWNER_B.name]));
    // Filtering by A's owner as a person (their id in the address) finds nothing either.
    expect(await csvOf('ownerB', `?person=${userIds.owner}`)).toEqual([]);
    await pages.ownerB.goto(`/activity?person=${userIds.owner}`);
    await expect(pages.ownerB.getByText('No activity matches these filters.')).toBeVisible();

    // A's owner sees all of A (both relabels, the manager's too), nothing of B.
    const ownerRows = await csvOf('owner');
    const summaries = ownerRows.map((row) => row.summary);
    for (const expected of ['as Owner label in X', 'as Owner label in Y', 'as Relabelled by Bea']) {
      expect(
        summaries.some((s) => s?.endsWith(expected)),
        expected,
      ).toBe(true);
    }
    expect(JSON.stringify(ownerRows)).not.toContain(OWNER_B.name);

    // The building manager: entries of their building (by anyone) and their own, nothing else.
    const managerRows = await csvOf('manager');
    for (const row of managerRows) {
      expect(
        row.building === X_NAME || row.who === PEOPLE.manager.name,
        `an entry the manager should not see: ${JSON.stringify(row)}`,
      ).toBe(true);
    }
    const seen = managerRows.map((row) => row.summary ?? '');
    expect(seen.some((s) => s.endsWith('as Owner label in X'))).toBe(true);
    expect(seen.some((s) => s.endsWith('as Relabelled by Bea'))).toBe(true);
    expect(seen).toContain(`${PEOPLE.manager.name} signed in`);
    expect(seen.some((s) => s.endsWith('as Owner label in Y'))).toBe(false);
    expect(seen).not.toContain(`${MANAGER.name} signed in`);
    expect(JSON.stringify(managerRows)).not.toContain(OWNER_B.name);
    // The page says the same.
    const page = pages.manager;
    await page.goto('/activity');
    const log = page.getByRole('table', { name: 'Activity log' });
    await expect(log).toContainText('as Owner label in X');
    await expect(log).toContainText(`${PEOPLE.manager.name} signed in`);
    await expect(log).not.toContainText('Owner label in Y');
    await expect(log).not.toContainText(`${MANAGER.name} signed in`);
  });

  test('invitations: accepted once; a reused, expired, withdrawn or unknown link says so and makes no account', async ({
    browser,
  }) => {
    const { database } = running();
    const page = await newPage(browser);
    const token = (link: string) => link.split('/invite/')[1] ?? '';
    // The accept form, from an invitation still pending; its bound token is what a link carries.
    const pendingPath = `/invite/${token(links.pendingA ?? '')}`;
    const response = await fetch(`${APP}${pendingPath}`);
    const accept = formWhere(actionFormsOf(await response.text()), (form) =>
      form.fields.includes('confirm'),
    );
    const join = (link: string) =>
      postAction(
        `${APP}${pendingPath}`,
        accept,
        [
          ['name', 'Someone Else'],
          ['password', PASSWORD],
          ['confirm', PASSWORD],
        ],
        { cookie: '', bound: [token(link), ...accept.bound.slice(1)] },
      );
    const expectRefused = async (link: string, sentence: string) => {
      await page.goto(link);
      await expect(
        page.getByRole('heading', { name: 'This invitation cannot be used' }),
      ).toBeVisible();
      await expect(page.getByText(sentence)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Join' })).toHaveCount(0);
      const users = await countUsers();
      const answer = await join(link);
      expect(answer.result?.message).toBe(sentence);
      expect(await countUsers()).toBe(users);
    };

    // Accepted (in the first test): the owner's list says so; used again, it says it was used.
    await pages.owner.goto('/members');
    const invitations = pages.owner
      .getByRole('heading', { name: 'Invitations' })
      .locator('xpath=..')
      .getByRole('listitem');
    await expect(invitations.filter({ hasText: PEOPLE.admin.email })).toContainText('Accepted');
    await expectRefused(
      links.admin ?? '',
      'This invitation has already been used. Sign in with the account it created.',
    );

    // Expired: an invitation whose week has passed.
    const late = await invite(pages.owner, 'late@reyes.example', 'Viewer');
    await query(
      database.url,
      "update invitations set expires_at = now() - interval '1 minute' where email = 'late@reyes.example'",
    );
    await expectRefused(
      late,
      'This invitation has expired (they last 7 days). Ask an owner or admin for a new one.',
    );

    // Withdrawn, by the owner on the members page.
    await pages.owner.goto('/members');
    await pages.owner.getByText(`Withdraw the invitation of ${PENDING_A}…`).click();
    await pages.owner
      .getByRole('button', { name: `Withdraw the invitation of ${PENDING_A}` })
      .click();
    // The page says so, and the list shows it withdrawn.
    await expect(
      pages.owner.getByText(`Withdrew the invitation of ${PENDING_A}; its link no longer works.`),
    ).toBeVisible();
    await expect(invitations.filter({ hasText: PENDING_A })).toContainText('Withdrawn');
    await expectRefused(
      links.pendingA ?? '',
      'This invitation was withdrawn. Ask an owner or admin of the organisation for a new one.',
    );

    // Unknown: a link nobody issued.
    await expectRefused(
      `${APP}/invite/${'x'.repeat(43)}`,
      'This invitation link is not valid. Check that you copied all of it, or ask for a new one.',
    );
    expect(
      await count(
        "select count(*)::text as n from users where email in ('late@reyes.example', 'pending@reyes.example')",
      ),
    ).toBe(0);
  });

  test('company SSO: a stranger is refused; an invited email and the allowed domain join with their roles', async ({
    browser,
  }) => {
    const { oidc } = running();
    /** Signs in through the identity provider in a browser of its own. */
    const ssoSignIn = async (email: string) => {
      const page = await newPage(browser);
      await page.goto('/sign-in');
      await page.getByRole('button', { name: 'Sign in with Company SSO' }).click();
      await expect(page.getByRole('heading', { name: 'Company sign-in' })).toBeVisible();
      await page.getByLabel('Work email').fill(email);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(
        (url) => url.origin === APP && url.pathname !== '/api/auth/callback/oidc',
      );
      return page;
    };
    const refusedEmails = ['stranger@elsewhere.example', PEOPLE.viewer.email];
    for (const email of refusedEmails) {
      const users = await countUsers();
      const page = await ssoSignIn(email);
      await expect(page).toHaveURL(/\/sign-in\?error=AccessDenied/);
      await expect(page.getByText(NOT_ACCEPTED)).toBeVisible();
      // The provider vouched for the email; Setpoint admitted no one and made no account.
      expect(oidc.signedIn).toContain(email);
      expect(await countUsers()).toBe(users);
      await page.goto('/');
      await expect(page).toHaveURL(/\/sign-in/);
    }

    // Invited as an admin: joins on the first SSO sign-in with the invitation's role.
    await invite(pages.owner, 'sam@reyes.example', 'Admin');
    const sam = await ssoSignIn('sam@reyes.example');
    await expect(sam.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await sam.goto('/members');
    await expect(sam.getByRole('main')).toContainText('You are admin.');

    // Invited by both organisations (the other one last): from the sign-in page alone, Iris is
    // asked which she means and joins neither; from her invitation's page she joins its
    // organisation, with its role, however recent the other invitation.
    const irisLink = await invite(pages.owner, 'iris@reyes.example', 'Viewer');
    await invite(pages.ownerB, 'iris@reyes.example', 'Admin');
    const unsure = await ssoSignIn('iris@reyes.example');
    await expect(unsure).toHaveURL(/\/sign-in\?error=SeveralInvitations/);
    await expect(
      unsure.getByText(/^More than one organisation on Setpoint has invited/),
    ).toBeVisible();
    const iris = await newPage(browser);
    await iris.goto(irisLink);
    await iris.getByRole('button', { name: 'Join with Company SSO' }).click();
    await expect(iris.getByText(/you join the organisation that invited you/)).toBeVisible();
    await iris.getByRole('button', { name: 'Sign in with Company SSO' }).click();
    await iris.getByLabel('Work email').fill('iris@reyes.example');
    await iris.getByRole('button', { name: 'Sign in' }).click();
    await expect(iris.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await iris.goto('/members');
    await expect(iris.getByRole('main')).toContainText(`${MANAGER.organization}: `);
    await expect(iris.getByRole('main')).toContainText('You are viewer.');

    // The owner admits the company's domain as viewers; a new email of it joins as a viewer.
    await pages.owner.goto('/members');
    const settings = pages.owner.getByRole('form', { name: 'Organisation settings' });
    await settings
      .getByLabel('Company SSO: admit everyone with an email at')
      .fill('reyes-team.example');
    await settings.getByLabel('With the role').selectOption({ label: 'Viewer' });
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings.getByText('Saved.')).toBeVisible();
    const dana = await ssoSignIn('dana.day@reyes-team.example');
    await expect(dana.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await dana.goto('/members');
    await expect(dana.getByRole('main')).toContainText('You are viewer.');
    expect(
      await count(
        "select count(*)::text as n from users u join memberships m on m.user_id = u.id where u.email in ('sam@reyes.example', 'dana.day@reyes-team.example')",
      ),
    ).toBe(2);
  });

  test('a changed role applies on the next request; a removed member’s open session is refused', async () => {
    const owner = pages.owner;
    const manager = pages.manager;
    await manager.goto(`/thermostats/${ids.tX}`);
    await expect(manager.getByRole('heading', { name: 'Resident mode' })).toBeVisible();

    // The owner makes the building manager a viewer while their page is open.
    await owner.goto('/members');
    await owner.getByText(`Change ${PEOPLE.manager.name.split(' ')[0]}…`).click();
    const roleForm = owner.getByRole('form', { name: `Role of ${PEOPLE.manager.name}` });
    await roleForm.getByLabel('Role').selectOption({ label: 'Viewer' });
    await roleForm.getByRole('button', { name: 'Save role' }).click();
    await expect(owner.getByText(`${PEOPLE.manager.name} is now viewer.`)).toBeVisible();
    await manager.reload();
    await expect(manager.getByText('your role is viewer')).toBeVisible();
    await expect(manager.getByRole('heading', { name: 'Resident mode' })).toHaveCount(0);
    await withoutEffect('a building manager made viewer', () =>
      run({
        label: 'manager made viewer: resident mode',
        as: 'manager',
        path: `/thermostats/${ids.tX}`,
        form: formWhere(formCache.get(`owner /thermostats/${ids.tX}`) ?? [], (form) =>
          form.fields.includes('isResidentMode'),
        ),
        fields: [['isResidentMode', 'on']],
        expect: { message: said('a viewer', 'change thermostats') },
      }),
    );

    // The owner removes the viewer, whose browser is open on the overview.
    const viewer = pages.viewer;
    await viewer.goto('/');
    await expect(viewer.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await owner.goto('/members');
    await owner.getByText(`Change ${PEOPLE.viewer.name.split(' ')[0]}…`).click();
    await owner.getByText(`Remove ${PEOPLE.viewer.name}…`).click();
    await owner.getByRole('button', { name: `Remove ${PEOPLE.viewer.name}` }).click();
    // The page says so, and they are gone from the list.
    await expect(
      owner.getByText(`Removed ${PEOPLE.viewer.name}; they are signed out everywhere.`),
    ).toBeVisible();
    await expect(
      owner
        .getByRole('heading', { name: 'People' })
        .locator('xpath=..')
        .getByRole('listitem')
        .filter({ hasText: PEOPLE.viewer.email }),
    ).toHaveCount(0);
    await viewer.reload();
    await expect(viewer).toHaveURL(/\/sign-in/);
    await expect(viewer.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    // Their copy of the session cookie opens nothing either: pages, actions, export, bulk.
    await withoutEffect('a removed member', async () => {
      const cookie = cookies.viewer;
      for (const path of ['/', `/thermostats/${ids.tX}`, '/members']) {
        const response = await fetch(`${APP}${path}`, { headers: { cookie }, redirect: 'manual' });
        expect(response.status, path).toBe(307);
        expect(response.headers.get('location'), path).toContain('/sign-in');
      }
      await run({
        ...(await catalogAttempt('configuration', 'viewer', { redirect: '/sign-in' })),
      });
      const exported = await fetch(`${APP}/activity/export`, { headers: { cookie } });
      expect(exported.status).toBe(401);
      const response = await bulk('viewer', [ids.tX]);
      expect(response.status).toBe(401);
    });
  });
});
