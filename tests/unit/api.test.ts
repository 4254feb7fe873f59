import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Member } from '@/lib/auth/store';
import type { DatabaseHandle } from '@/lib/db/client';

// The keys page's actions ask the session who is signed in: whoever the test says.
vi.mock('@/lib/auth/session', () =>
  import('../support/session').then((mocked) => mocked.sessionModule),
);
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));

Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-api-')),
  NEXTAUTH_URL: 'https://setpoint.example.com',
});

const { session } = await import('../support/session');
const { useDatabase } = await import('../support/database');
const { createFirstOwner, createOrganizationWithOwner, inviteAndAccept } = await import(
  '../support/members'
);
const { createKeyAction, revokeKeyAction } = await import('@/app/(app)/api-keys/actions');
const { listApiKeys } = await import('@/lib/api/keys');
const { answerChecker } = await import('../support/openapi');
const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { createApiKey, revokeApiKey } = await import('@/lib/api/keys');
const { openApiDocument } = await import('@/lib/api/openapi');
const { REQUESTS_PER_MINUTE } = await import('@/lib/api/limits');
const { listActivity } = await import('@/lib/activity/store');
const { sql } = await import('drizzle-orm');
const { rowsOf } = await import('@/lib/db/client');
const buildingsRoute = await import('@/app/api/v1/buildings/route');
const buildingRoute = await import('@/app/api/v1/buildings/[buildingId]/route');
const unitsRoute = await import('@/app/api/v1/units/route');
const unitRoute = await import('@/app/api/v1/units/[unitId]/route');
const eventsRoute = await import('@/app/api/v1/units/[unitId]/events/route');
const documentRoute = await import('@/app/api/v1/openapi.json/route');

const MINE = 'aaaaaaaaaaaaaaaaaaaaaaa1';
const OTHER = 'bbbbbbbbbbbbbbbbbbbbbbb2';
const BASE = 'https://setpoint.example.com';

/**
 * Setpoint's own API (issue 37), through its route handlers: every answer checked against the
 * served OpenAPI document; keys by scope, revoked, of another organisation and limited to a
 * building (a 404 for the others'); the cookie never taken; idempotent writes, alone and at once;
 * pages that neither lose nor repeat a unit while units are added; the rate limit's headers and
 * its 429; every call in the activity log under its key's name.
 */
describe('API v1', () => {
  let handle: DatabaseHandle;
  let owner: Member;
  let key = '';
  let readOnly = '';
  let limited = '';
  let elsewhere = '';
  const check = answerChecker(openApiDocument() as never);

  type Route = (request: Request, route: { params: Promise<never> }) => Promise<Response>;
  /** Calls a route handler as Next.js would, checks the answer against the document. */
  async function call(input: {
    route: Route;
    path: string;
    /** The document's path template, when `path` fills one in. */
    template?: string;
    method?: string;
    key?: string | null;
    body?: unknown;
    params?: Record<string, string>;
    headers?: Record<string, string>;
  }) {
    const method = input.method ?? 'GET';
    const headers = new Headers(input.headers);
    const used = input.key === undefined ? key : input.key;
    if (used) headers.set('authorization', `Bearer ${used}`);
    if (input.body !== undefined) headers.set('content-type', 'application/json');
    const response = await input.route(
      new Request(`${BASE}${input.path}`, {
        method,
        headers,
        body: input.body === undefined ? undefined : JSON.stringify(input.body),
      }),
      { params: Promise.resolve(input.params ?? {}) as Promise<never> },
    );
    const body = await response.json();
    check({
      path: input.template ?? input.path.split('?')[0] ?? '',
      method: method.toLowerCase(),
      status: response.status,
      contentType: response.headers.get('content-type'),
      body,
    });
    return { status: response.status, body, headers: response.headers };
  }

  const listUnits = (query = '', as?: string | null) =>
    call({ route: unitsRoute.GET as Route, path: `/api/v1/units${query}`, key: as });
  const postEvent = (unitId: string, body: unknown, headers: Record<string, string> = {}) =>
    call({
      route: eventsRoute.POST as Route,
      path: `/api/v1/units/${unitId}/events`,
      template: '/api/v1/units/{unitId}/events',
      method: 'POST',
      body,
      params: { unitId },
      headers,
    });

  beforeAll(async () => {
    handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
    owner = await createFirstOwner('owner@api.example', 'API Property');
    for (const [buildingId, name] of [
      [MINE, 'Harbor View'],
      [OTHER, 'Lakeside'],
    ] as const) {
      await ensureBuilding({ orgId: owner.orgId, buildingId, name, timeZone: 'America/New_York' });
    }
    for (let n = 1; n <= 5; n += 1) {
      await addThermostat({
        orgId: owner.orgId,
        thermostatId: String(300000000000 + n),
        buildingId: n <= 3 ? MINE : OTHER,
        unitLabel: `Unit ${n}`,
      });
    }
    const made = (
      scopes: ('read' | 'write_units' | 'write_thermostats')[],
      buildingIds: string[] | null = null,
    ) =>
      createApiKey({
        orgId: owner.orgId,
        name: `Key ${scopes.join('+')}`,
        scopes,
        buildingIds,
        byName: owner.name,
      });
    key = (await made(['read', 'write_units'])).secret;
    readOnly = (await made(['read'])).secret;
    limited = (await made(['read', 'write_units'], [MINE])).secret;
    const stranger = await createOrganizationWithOwner('stranger@api.example', 'Another Company');
    elsewhere = (
      await createApiKey({
        orgId: stranger.orgId,
        name: 'Theirs',
        scopes: ['read'],
        buildingIds: null,
        byName: 'x',
      })
    ).secret;
  });

  afterAll(async () => {
    await handle?.close();
  });

  it('serves its OpenAPI 3.1 document, generated from its schemas', async () => {
    const response = await documentRoute.GET();
    const document = await response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/units',
        '/api/v1/units/{unitId}/events',
        '/api/v1/buildings',
      ]),
    );
    expect(document.components.schemas.UnitEvent).toBeDefined();
  });

  it('takes keys only: none, a forged one, a revoked one and a session cookie are all 401', async () => {
    expect((await listUnits('', null)).status).toBe(401);
    expect((await listUnits('', 'spk_forged')).status).toBe(401);
    const cookieOnly = await call({
      route: unitsRoute.GET as Route,
      path: '/api/v1/units',
      key: null,
      headers: { cookie: 'next-auth.session-token=whatever' },
    });
    expect(cookieOnly.status).toBe(401);
    const revoked = await createApiKey({
      orgId: owner.orgId,
      name: 'Old',
      scopes: ['read'],
      buildingIds: null,
      byName: owner.name,
    });
    expect((await listUnits('', revoked.secret)).status).toBe(200);
    await revokeApiKey({ orgId: owner.orgId, keyId: revoked.key.id, byName: owner.name });
    const after = await listUnits('', revoked.secret);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('lists and reads units and buildings, each key only its own organisation’s and buildings’', async () => {
    const all = await listUnits();
    expect(all.status).toBe(200);
    expect(all.body.data.map((unit: { label: string }) => unit.label)).toEqual([
      'Unit 1',
      'Unit 2',
      'Unit 3',
      'Unit 4',
      'Unit 5',
    ]);
    expect(all.body.data[0]).toMatchObject({ state: 'occupied', buildingId: MINE });
    expect((await listUnits(`?buildingId=${OTHER}`)).body.data).toHaveLength(2);
    expect((await listUnits('', elsewhere)).body.data).toEqual([]);
    const mine = await listUnits('', limited);
    expect(mine.body.data.map((unit: { buildingId: string }) => unit.buildingId)).toEqual([
      MINE,
      MINE,
      MINE,
    ]);
    const theirs = all.body.data.find((unit: { buildingId: string }) => unit.buildingId === OTHER);
    const read = (unitId: string, as?: string) =>
      call({
        route: unitRoute.GET as Route,
        path: `/api/v1/units/${unitId}`,
        template: '/api/v1/units/{unitId}',
        params: { unitId },
        key: as,
      });
    expect((await read(theirs.id)).status).toBe(200);
    // Another building's unit is no unit to a key limited to one: 404, as a forged id is.
    expect((await read(theirs.id, limited)).status).toBe(404);
    expect((await read(theirs.id, elsewhere)).status).toBe(404);
    expect((await read('not-a-unit')).status).toBe(404);
    const building = (buildingId: string, as?: string) =>
      call({
        route: buildingRoute.GET as Route,
        path: `/api/v1/buildings/${buildingId}`,
        template: '/api/v1/buildings/{buildingId}',
        params: { buildingId },
        key: as,
      });
    expect((await building(OTHER)).body).toMatchObject({ id: OTHER, name: 'Lakeside' });
    expect((await building(OTHER, limited)).status).toBe(404);
    const buildings = await call({
      route: buildingsRoute.GET as Route,
      path: '/api/v1/buildings?limit=1',
    });
    expect(buildings.body.data).toHaveLength(1);
    const second = await call({
      route: buildingsRoute.GET as Route,
      path: `/api/v1/buildings?limit=1&after=${buildings.body.next}`,
    });
    expect([buildings.body.data[0].id, second.body.data[0].id].sort()).toEqual([MINE, OTHER]);
    expect(second.body.next).toBeNull();
    expect((await listUnits('?state=bogus')).status).toBe(422);
    expect((await listUnits('?after=garbage')).status).toBe(422);
    // A cursor made up to look like one is refused in words, never a 500.
    const forged = Buffer.from(
      JSON.stringify({ createdAt: "2026-01-01'; drop table units; --", id: theirs.id }),
    ).toString('base64url');
    expect((await listUnits(`?after=${forged}`)).status).toBe(422);
  });

  it('pages with a cursor that neither loses nor repeats a unit while units are added', async () => {
    const seen: string[] = [];
    let next: string | null = null;
    let added = 0;
    do {
      const page = await listUnits(`?limit=2${next ? `&after=${next}` : ''}`);
      seen.push(...page.body.data.map((unit: { label: string }) => unit.label));
      next = page.body.next;
      // Between pages, someone adds a unit (a thermostat comes in one of its own).
      if (added < 2) {
        added += 1;
        await addThermostat({
          orgId: owner.orgId,
          thermostatId: String(300000000100 + added),
          buildingId: MINE,
          unitLabel: `Added ${added}`,
        });
      }
    } while (next);
    expect(seen).toEqual(['Unit 1', 'Unit 2', 'Unit 3', 'Unit 4', 'Unit 5', 'Added 1', 'Added 2']);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('records a move-out once: a scope it needs, a replay with the same Idempotency-Key, another body refused, concurrent retries one change', async () => {
    const unit = (await listUnits(`?buildingId=${MINE}`)).body.data[0];
    const readOnlyTry = await call({
      route: eventsRoute.POST as Route,
      path: `/api/v1/units/${unit.id}/events`,
      template: '/api/v1/units/{unitId}/events',
      method: 'POST',
      key: readOnly,
      body: { event: 'move_out' },
      params: { unitId: unit.id },
    });
    expect(readOnlyTry.status).toBe(403);
    expect((await postEvent(unit.id, { event: 'moved_out' })).status).toBe(422);
    const refused = await postEvent(unit.id, { event: 'give_notice', moveOutOn: '31/01/2027' });
    expect(refused.body.errors).toEqual([{ field: 'moveOutOn', message: expect.any(String) }]);

    // Two identical requests at once, then the same again later: one move-out, one answer.
    const headers = { 'idempotency-key': 'pms-42-move-out' };
    const [first, second] = await Promise.all([
      postEvent(unit.id, { event: 'move_out' }, headers),
      postEvent(unit.id, { event: 'move_out' }, headers),
    ]);
    expect([first.status, second.status]).toEqual([first.status, first.status]);
    expect(first.body).toEqual(second.body);
    expect(first.body.unit.state).toBe('vacant');
    const replay = await postEvent(unit.id, { event: 'move_out' }, headers);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // Without a key, a replay of the move-out is still one move-out (the lifecycle's own rule).
    const again = await postEvent(unit.id, { event: 'move_out' });
    expect(again.body).toMatchObject({ changed: false, run: null });
    const events = await handle.db.execute(
      sql`select count(*)::int as n from unit_events where unit_id = ${unit.id}`,
    );
    expect((rowsOf<{ n: number }>(events)[0] as { n: number }).n).toBe(1);
    // The same key with another body: refused, nothing done.
    const other = await postEvent(unit.id, { event: 'make_ready' }, headers);
    expect(other.status).toBe(422);
    expect(other.body.title).toBe('Idempotency-Key reused');
    // A refusal is not kept: the same key sent again with the request put right goes through.
    const fixing = { 'idempotency-key': 'pms-43-notice' };
    expect((await postEvent(unit.id, { event: 'make_redy' }, fixing)).status).toBe(422);
    expect((await postEvent(unit.id, { event: 'make_ready' }, fixing)).body.unit.state).toBe(
      'make_ready',
    );
    // A body over 64 KB is refused before it is read as JSON.
    const huge = await postEvent(unit.id, { event: 'move_out', padding: 'x'.repeat(70_000) });
    expect(huge.status).toBe(413);
    // An event that does not fit: a 409 in words.
    const conflict = await postEvent(unit.id, { event: 'give_notice', moveOutOn: '2027-01-31' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.detail).toMatch(/Only an occupied unit can be given notice/);
  });

  it('lists and reads thermostats with their last reading and its age and their unit’s history, what needs attention and a run; a building-limited key nothing else', async () => {
    const { saveReading } = await import('@/lib/readings/store');
    const { createApiKey: make } = await import('@/lib/api/keys');
    const otherOnly = (
      await make({
        orgId: owner.orgId,
        name: 'Lakeside only',
        scopes: ['read', 'write_units'],
        buildingIds: [OTHER],
        byName: owner.name,
      })
    ).secret;
    // Unit 2's thermostat has been in it for days: its history is the unit's from then.
    await handle.db.execute(
      sql`update unit_thermostats set from_at = now() - interval '5 days' where thermostat_id = '300000000002'`,
    );
    const readAt = new Date(Date.now() - 90_000);
    const status = {
      temperature: 68.5,
      humidity: 41,
      hvacMode: 'heat',
      setPoint: { desiredHeat: 68, desiredCool: 76 },
      isResidentMode: true,
      connected: true,
    };
    for (const [at, temperature] of [
      [new Date(Date.now() - 3 * 86_400_000), 60],
      [new Date(Date.now() - 3_600_000), 67],
      [readAt, 68.5],
    ] as const) {
      await saveReading({
        orgId: owner.orgId,
        thermostatId: '300000000002',
        status: { ...status, temperature },
        sample: {
          temperature,
          humidity: 41,
          desiredHeat: 68,
          desiredCool: 76,
          hvacMode: 'heat',
          equipment: 'heat1,fan',
          connected: true,
        },
        at,
      });
    }
    const thermostatsRoute = await import('@/app/api/v1/thermostats/route');
    const thermostatRoute = await import('@/app/api/v1/thermostats/[thermostatId]/route');
    const historyRoute = await import('@/app/api/v1/thermostats/[thermostatId]/history/route');
    const attentionRoute = await import('@/app/api/v1/needs-attention/route');
    const runRoute = await import('@/app/api/v1/runs/[runId]/route');

    // The list: every thermostat the key sees, in pages, with its last reading and its age.
    const seen: string[] = [];
    let after = '';
    for (let page = 0; page < 10; page += 1) {
      const listed = await call({
        route: thermostatsRoute.GET as Route,
        path: `/api/v1/thermostats?limit=2${after ? `&after=${after}` : ''}`,
        key: readOnly,
      });
      expect(listed.status).toBe(200);
      seen.push(...listed.body.data.map((row: { id: string }) => row.id));
      if (!listed.body.next) break;
      after = listed.body.next;
    }
    // None lost, none twice: every thermostat of the organisation, once.
    const inPortfolio = rowsOf<{ id: string }>(
      await handle.db.execute(
        sql`select thermostat_id as id from thermostats where org_id = ${owner.orgId}`,
      ),
    ).map((row) => row.id);
    expect(seen.sort()).toEqual(inPortfolio.sort());
    expect(seen).toEqual(expect.arrayContaining(['300000000001', '300000000002', '300000000005']));
    const one = await call({
      route: thermostatRoute.GET as Route,
      path: '/api/v1/thermostats/300000000002',
      template: '/api/v1/thermostats/{thermostatId}',
      params: { thermostatId: '300000000002' },
      key: readOnly,
    });
    expect(one.body).toMatchObject({
      id: '300000000002',
      buildingId: MINE,
      label: 'Unit 2',
      lastReading: {
        at: readAt.toISOString(),
        temperature: 68.5,
        desiredHeat: 68,
        hvacMode: 'heat',
      },
      readProblem: null,
    });
    expect(one.body.lastReading.ageSeconds).toBeGreaterThanOrEqual(90);
    expect(one.body.lastReading.ageSeconds).toBeLessThan(200);

    // Its history: the last day, or the week.
    const history = (window: string) =>
      call({
        route: historyRoute.GET as Route,
        path: `/api/v1/thermostats/300000000002/history?window=${window}`,
        template: '/api/v1/thermostats/{thermostatId}/history',
        params: { thermostatId: '300000000002' },
        key: readOnly,
      });
    const day = await history('24h');
    expect(day.body.points.map((point: { temperature: number }) => point.temperature)).toEqual([
      67, 68.5,
    ]);
    expect(day.body.points[0].running).toEqual(['heat1', 'fan']);
    expect((await history('7d')).body.points).toHaveLength(3);
    expect((await history('1y')).status).toBe(422);

    // Another building's thermostat is a 404 to a key limited to Lakeside: no data.
    for (const [route, path, template] of [
      [
        thermostatRoute.GET,
        '/api/v1/thermostats/300000000002',
        '/api/v1/thermostats/{thermostatId}',
      ],
      [
        historyRoute.GET,
        '/api/v1/thermostats/300000000002/history',
        '/api/v1/thermostats/{thermostatId}/history',
      ],
    ] as const) {
      const hidden = await call({
        route: route as Route,
        path,
        template,
        params: { thermostatId: '300000000002' },
        key: otherOnly,
      });
      expect(hidden.status).toBe(404);
    }
    const theirs = await call({
      route: thermostatsRoute.GET as Route,
      path: '/api/v1/thermostats',
      key: otherOnly,
    });
    expect(theirs.body.data.every((row: { buildingId: string }) => row.buildingId === OTHER)).toBe(
      true,
    );
    expect(theirs.body.data.map((row: { id: string }) => row.id)).toEqual(
      expect.arrayContaining(['300000000004', '300000000005']),
    );

    // A move-out's run, read as it goes: its result per thermostat.
    const unit = (await listUnits(`?buildingId=${MINE}&state=occupied`)).body.data.find(
      (row: { thermostatId: string }) => row.thermostatId === '300000000003',
    );
    const moved = await postEvent(unit.id, { event: 'move_out' });
    expect(moved.status).toBe(202);
    const runId = moved.body.run.id;
    const readRun = (as: string) =>
      call({
        route: runRoute.GET as Route,
        path: `/api/v1/runs/${runId}`,
        template: '/api/v1/runs/{runId}',
        params: { runId },
        key: as,
      });
    const run = await readRun(readOnly);
    expect(run.body).toMatchObject({
      id: runId,
      kind: 'occupancy',
      finished: false,
      counts: { total: 1 },
      items: [{ thermostatId: '300000000003', buildingId: MINE, outcome: 'pending' }],
      next: null,
    });
    expect((await readRun(limited)).status).toBe(200);
    expect((await readRun(otherOnly)).status).toBe(404);

    // What needs attention: the thermostats never read are out of date… filtered by kind and
    // building, and a building-limited key sees only its own.
    const attention = (query: string, as: string) =>
      call({
        route: attentionRoute.GET as Route,
        path: `/api/v1/needs-attention${query}`,
        key: as,
      });
    const all = await attention('', readOnly);
    expect(all.status).toBe(200);
    const kinds = new Set(all.body.data.map((item: { kind: string }) => item.kind));
    expect(kinds.size).toBeGreaterThan(0);
    const [firstKind] = [...kinds] as string[];
    const filtered = await attention(`?kind=${firstKind}`, readOnly);
    expect(filtered.body.data.every((item: { kind: string }) => item.kind === firstKind)).toBe(
      true,
    );
    const lakeside = await attention('', otherOnly);
    expect(
      lakeside.body.data.every(
        (item: { buildingId: string | null }) =>
          item.buildingId === OTHER || item.buildingId === null,
      ),
    ).toBe(true);
    expect((await attention(`?buildingId=${MINE}`, otherOnly)).body.data).toEqual([]);
    expect((await attention('?kind=nonsense', readOnly)).status).toBe(422);
    // A page at a time: every item once, in the same order.
    const paged: string[] = [];
    let cursor = '';
    for (let page = 0; page < 60; page += 1) {
      const part = await attention(`?limit=1${cursor ? `&after=${cursor}` : ''}`, readOnly);
      paged.push(
        ...part.body.data.map(
          (item: { kind: string; thermostatId: string | null }) =>
            `${item.kind}:${item.thermostatId}`,
        ),
      );
      if (!part.body.next) break;
      cursor = part.body.next;
    }
    expect(paged).toEqual(
      all.body.data.map(
        (item: { kind: string; thermostatId: string | null }) =>
          `${item.kind}:${item.thermostatId}`,
      ),
    );
  });

  it('adds a unit to a building and changes its label and external id, only in the key’s buildings and with write_units', async () => {
    const add = (body: unknown, as?: string) =>
      call({
        route: unitsRoute.POST as Route,
        path: '/api/v1/units',
        method: 'POST',
        body,
        key: as,
      });
    const change = (unitId: string, body: unknown, as?: string) =>
      call({
        route: unitRoute.PATCH as Route,
        path: `/api/v1/units/${unitId}`,
        template: '/api/v1/units/{unitId}',
        method: 'PATCH',
        body,
        params: { unitId },
        key: as,
      });
    expect((await add({ buildingId: MINE, label: 'Unit 40' }, readOnly)).status).toBe(403);
    expect((await add({ buildingId: OTHER, label: 'Unit 40' }, limited)).status).toBe(404);
    expect((await add({ buildingId: MINE, label: '' })).status).toBe(422);
    const added = await add({ buildingId: MINE, label: 'Unit 40', externalId: 'PMS-40' });
    expect(added).toMatchObject({
      status: 201,
      body: { label: 'Unit 40', externalId: 'PMS-40', thermostatId: null, state: 'occupied' },
    });
    const taken = await add({ buildingId: MINE, label: 'Unit 41', externalId: 'PMS-40' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([{ field: 'externalId', message: expect.any(String) }]);

    const unitId = added.body.id as string;
    const changed = await change(unitId, { label: 'Unit 40A', externalId: null });
    expect(changed).toMatchObject({ status: 200, body: { label: 'Unit 40A', externalId: null } });
    expect((await change(unitId, {})).status).toBe(422);
    // Another building's unit is not there for a key limited to Lakeside.
    const lakesideOnly = (
      await createApiKey({
        orgId: owner.orgId,
        name: 'Lakeside writer',
        scopes: ['read', 'write_units'],
        buildingIds: [OTHER],
        byName: owner.name,
      })
    ).secret;
    expect((await change(unitId, { label: 'Theirs' }, lakesideOnly)).status).toBe(404);
    const entries = await listActivity({ scope: owner, filter: { action: 'unit.create' } });
    expect(entries[0]).toMatchObject({ summary: 'Added Unit 40 to Harbor View' });
  });

  it('forgets answers kept for an Idempotency-Key after 24 hours, and past minutes’ counts', async () => {
    const { pruneApiRecords } = await import('@/lib/api/limits');
    const kept = async () =>
      rowsOf<{ n: number }>(
        await handle.db.execute(sql`select count(*)::int as n from api_idempotency`),
      )[0]?.n ?? 0;
    const before = await kept();
    expect(before).toBeGreaterThan(0);
    await handle.db.execute(
      sql`update api_idempotency set created_at = now() - interval '25 hours' where idempotency_key = 'pms-42-move-out'`,
    );
    expect(await pruneApiRecords()).toBeGreaterThanOrEqual(1);
    expect(await kept()).toBe(before - 1);
  });

  it('says its rate limit in headers, and answers a 429 with Retry-After past it', async () => {
    const spare = await createApiKey({
      orgId: owner.orgId,
      name: 'Busy',
      scopes: ['read'],
      buildingIds: null,
      byName: owner.name,
    });
    const first = await listUnits('?limit=1', spare.secret);
    expect(first.headers.get('ratelimit-limit')).toBe(String(REQUESTS_PER_MINUTE));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(REQUESTS_PER_MINUTE - 1));
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    // Spend the rest of the minute in the counter, then one more request.
    await handle.db.execute(
      sql`update api_rate_windows set count = ${REQUESTS_PER_MINUTE} where key_id = ${spare.key.id}`,
    );
    const over = await listUnits('?limit=1', spare.secret);
    if (over.status !== 429) {
      // The minute turned between the two requests: the new minute's first request is counted.
      expect(over.headers.get('ratelimit-remaining')).toBe(String(REQUESTS_PER_MINUTE - 1));
      return;
    }
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('owners and admins make a key on its page (shown once, kept as a hash) and revoke it; others are refused', async () => {
    const form = (entries: [string, string][]) => {
      const data = new FormData();
      for (const [name, value] of entries) data.append(name, value);
      return data;
    };
    session.member = owner;
    const refused = await createKeyAction({ status: 'idle' }, form([['name', ' ']]));
    expect(refused).toMatchObject({
      status: 'error',
      fieldErrors: { name: [expect.any(String)], scopes: ['Choose at least one scope.'] },
    });
    const foreign = await createKeyAction(
      { status: 'idle' },
      form([
        ['name', 'PMS'],
        ['scopes', 'read'],
        ['buildingIds', 'cccccccccccccccccccccccc'],
      ]),
    );
    expect(foreign.fieldErrors?.buildings).toBeDefined();
    // Never widened silently: "every building" with some chosen, or neither, is refused.
    const both = await createKeyAction(
      { status: 'idle' },
      form([
        ['name', 'PMS'],
        ['scopes', 'read'],
        ['every', 'on'],
        ['buildingIds', MINE],
      ]),
    );
    expect(both.fieldErrors?.buildings).toEqual([
      'Untick “Every building” to limit the key to the buildings chosen.',
    ]);
    const neither = await createKeyAction(
      { status: 'idle' },
      form([
        ['name', 'PMS'],
        ['scopes', 'read'],
      ]),
    );
    expect(neither.fieldErrors?.buildings).toEqual([
      'Choose at least one building, or every building.',
    ]);
    const made = await createKeyAction(
      { status: 'idle' },
      form([
        ['name', 'Yardi sync'],
        ['scopes', 'read'],
        ['scopes', 'write_units'],
        ['buildingIds', MINE],
      ]),
    );
    expect(made.status).toBe('success');
    const secret = made.secret as string;
    expect(secret).toMatch(/^spk_/);
    const listed = (await listApiKeys({ orgId: owner.orgId })).find((k) => k.name === 'Yardi sync');
    expect(listed).toMatchObject({ scopes: ['read', 'write_units'], buildingIds: [MINE] });
    expect(JSON.stringify(await listApiKeys({ orgId: owner.orgId }))).not.toContain(secret);
    // It sees Harbor View's units, every one of them, and no other building's.
    const seen = (await listUnits('?limit=200', secret)).body.data as { buildingId: string }[];
    expect(seen.every((unit) => unit.buildingId === MINE)).toBe(true);
    expect(seen).toHaveLength((await listUnits(`?buildingId=${MINE}&limit=200`)).body.data.length);
    const used = (await listApiKeys({ orgId: owner.orgId })).find((k) => k.name === 'Yardi sync');
    expect(used?.lastUsedAt).not.toBeNull();

    const viewer = await inviteAndAccept(owner.orgId, 'viewer@api.example', 'viewer');
    const manager = await inviteAndAccept(owner.orgId, 'bm@api.example', 'building_manager', [
      MINE,
    ]);
    for (const member of [viewer, manager]) {
      session.member = member;
      expect(
        (
          await createKeyAction(
            { status: 'idle' },
            form([
              ['name', 'x'],
              ['scopes', 'read'],
            ]),
          )
        ).status,
      ).toBe('error');
      expect(
        (await revokeKeyAction(listed?.id as string, { status: 'idle' }, form([]))).status,
      ).toBe('error');
    }
    expect((await listUnits('', secret)).status).toBe(200);
    session.member = owner;
    expect((await revokeKeyAction(listed?.id as string, { status: 'idle' }, form([]))).status).toBe(
      'success',
    );
    expect((await listUnits('', secret)).status).toBe(401);
    const logged = await listActivity({ scope: owner, filter: { action: 'api_key.revoke' } });
    expect(logged.map((entry) => entry.summary)).toEqual(['Revoked the API key “Yardi sync”']);
  });

  it('writes every call in the activity log under its key’s name, never the key', async () => {
    const entries = await listActivity({ scope: owner, filter: { action: 'api.call' } });
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.some((entry) => entry.actorName === 'API key “Key read+write_units”')).toBe(
      true,
    );
    expect(JSON.stringify(entries)).not.toContain(key);
  });
});
