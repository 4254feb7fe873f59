import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LatencySpec } from './config';
import { FIXTURE_NAMES, isFixtureName, resolveRateLimit } from './config';
import type { Fault, FaultKind, SandboxContext } from './context';
import { changeDevice, changeDevices, deviceRecord, findDevice } from './device-simulation';
import { ApiError, badRequest, parseJsonObject, readBody, sendJson } from './http-util';
import {
  issueAuthorizationCode,
  JWT_PREFIX,
  redirectUriProblem,
  SENTINELS,
  scopeProblem,
} from './oauth';

/** The control API under `/_sandbox/`, for tests, demos and benchmarks. Off unless enabled. */

export const CONTROL_PREFIX = '/_sandbox';

function parseLatencySpec(value: unknown, name: string): LatencySpec {
  if (typeof value === 'number' && value >= 0) return value;
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { min?: unknown }).min === 'number' &&
    typeof (value as { max?: unknown }).max === 'number'
  ) {
    const { min, max } = value as { min: number; max: number };
    if (min >= 0 && max >= min) return { min, max };
  }
  return badRequest(`${name} must be a number of ms or { min, max }`);
}

const FAULT_NAMES = [
  'timeout',
  'drop',
  'malformed',
  'garbled',
  'authorization_pending',
  'slow_down',
];

function parseFault(value: unknown, index: number): Fault {
  if (typeof value !== 'object' || value === null) badRequest(`faults[${index}] must be an object`);
  const fault = value as Record<string, unknown>;
  const endpoint = fault.endpoint ?? '*';
  if (typeof endpoint !== 'string') badRequest(`faults[${index}].endpoint must be a string`);
  let kind: FaultKind;
  const given = fault.kind;
  if (typeof given === 'number' && Number.isInteger(given) && given >= 400 && given <= 599) {
    kind = given;
  } else if (typeof given === 'string' && /^\d{3}$/.test(given)) kind = Number(given);
  else if (typeof given === 'string' && FAULT_NAMES.includes(given)) kind = given as FaultKind;
  else
    return badRequest(
      `faults[${index}].kind must be a 4xx/5xx status or one of ${FAULT_NAMES.join(', ')}`,
    );
  const probability = fault.probability ?? 1;
  if (typeof probability !== 'number' || probability < 0 || probability > 1) {
    badRequest(`faults[${index}].probability must be between 0 and 1`);
  }
  const count = fault.count ?? null;
  if (count !== null && (typeof count !== 'number' || !Number.isInteger(count) || count < 0)) {
    badRequest(`faults[${index}].count must be a non-negative integer`);
  }
  const thermostatId = fault.thermostatId ?? null;
  if (thermostatId !== null && typeof thermostatId !== 'string') {
    badRequest(`faults[${index}].thermostatId must be a string`);
  }
  const applied = fault.applied ?? false;
  if (typeof applied !== 'boolean') badRequest(`faults[${index}].applied must be a boolean`);
  return {
    endpoint,
    kind,
    probability: probability as number,
    count: count as number | null,
    thermostatId: thermostatId as string | null,
    applied,
  };
}

function knobsView(ctx: SandboxContext) {
  return { ...ctx.knobs, endpointLatencyMs: { ...ctx.knobs.endpointLatencyMs } };
}

function rate(value: unknown, name: string): number {
  if (typeof value !== 'number' || value < 0 || value > 1)
    badRequest(`${name} must be between 0 and 1`);
  return value;
}

/** Checks every knob of the request before any takes effect. */
function patchKnobs(ctx: SandboxContext, body: Record<string, unknown>): void {
  const knobs = { ...ctx.knobs };
  for (const [key, value] of Object.entries(body)) {
    switch (key) {
      case 'rateLimit':
        try {
          knobs.rateLimit = resolveRateLimit(value);
        } catch (error) {
          badRequest((error as Error).message);
        }
        break;
      case 'modeChangeDelayMs':
      case 'residentModeDelayMs':
      case 'timeoutMs':
        if (typeof value !== 'number' || value < 0)
          badRequest(`${key} must be a non-negative number`);
        knobs[key] = value;
        break;
      case 'errorRate':
      case 'timeoutRate':
      case 'dropRate':
        knobs[key] = rate(value, key);
        break;
      case 'allowRedirectPorts':
        if (typeof value !== 'boolean') badRequest('allowRedirectPorts must be a boolean');
        knobs.allowRedirectPorts = value;
        break;
      case 'latencyMs':
        knobs.latencyMs = parseLatencySpec(value, key);
        break;
      default:
        badRequest(`Unknown knob: ${key}`);
    }
  }
  ctx.knobs = knobs;
  // New limits start with fresh windows.
  if ('rateLimit' in body) ctx.rateWindows.clear();
}

/** A map of counts as `{ counts: { key: n } sorted by key, total }`. */
function countsView(map: Map<string, number>) {
  const counts = Object.fromEntries(
    [...map.entries()].sort(([left], [right]) => left.localeCompare(right)),
  );
  const total = [...map.values()].reduce((sum, count) => sum + count, 0);
  return { counts, total };
}

function portfolio(ctx: SandboxContext, userName: string) {
  const user = ctx.findUser(userName);
  if (!user) throw new ApiError(404, 'user_not_found', `Unknown sandbox user: ${userName}`);
  const account = ctx.store.accounts.get(user.accountId);
  const buildings = [...ctx.store.buildings.values()]
    .filter((building) => building.accountId === user.accountId)
    .map(({ buildingId, name, timeZone, address }) => ({ buildingId, name, timeZone, address }));
  const thermostats = [...ctx.store.thermostats.values()]
    .filter((thermostat) => thermostat.accountId === user.accountId)
    .map(({ thermostatId, name, buildingId }) => ({ thermostatId, name, buildingId }));
  return {
    user: { email: user.email, displayName: user.displayName },
    account,
    buildings,
    thermostats,
  };
}

export async function handleControl(
  ctx: SandboxContext,
  req: IncomingMessage,
  url: URL,
  res: ServerResponse,
): Promise<void> {
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const method = req.method ?? 'GET';
  const text = method === 'GET' || method === 'DELETE' ? '' : await readBody(req);
  const body = () => (text.trim() === '' ? {} : parseJsonObject(text));
  const ok = (data: unknown, status = 200) => sendJson(res, status, data);
  const route = `${method} ${path.slice(CONTROL_PREFIX.length) || '/'}`;

  switch (route) {
    case 'GET /':
    case 'GET /config':
      return ok({
        fixture: ctx.config.fixture,
        clients: ctx.config.clients,
        users: ctx.store.users.map(({ email, password }) => ({ email, password })),
        knobs: knobsView(ctx),
        sentinels: { ...SENTINELS, jwtPrefix: JWT_PREFIX },
        now: ctx.clock.iso(),
      });
    case 'POST /reset': {
      const fixture = body().fixture ?? ctx.config.fixture;
      if (!isFixtureName(fixture)) badRequest(`fixture must be one of ${FIXTURE_NAMES.join(', ')}`);
      ctx.reset(fixture);
      return ok({
        reset: true,
        fixture,
        thermostats: ctx.store.thermostats.size,
        now: ctx.clock.iso(),
      });
    }
    case 'GET /clock':
      return ok({ now: ctx.clock.iso(), offsetMs: ctx.clock.offset });
    case 'PUT /clock': {
      const { now } = body();
      const ms = typeof now === 'string' ? Date.parse(now) : Number.NaN;
      if (Number.isNaN(ms)) badRequest('now must be an ISO 8601 date-time');
      ctx.clock.set(ms);
      return ok({ now: ctx.clock.iso(), offsetMs: ctx.clock.offset });
    }
    case 'DELETE /clock':
      ctx.clock.reset();
      return ok({ now: ctx.clock.iso(), offsetMs: 0 });
    case 'POST /clock/advance': {
      const { seconds } = body();
      if (typeof seconds !== 'number' || !Number.isFinite(seconds))
        badRequest('seconds must be a number');
      ctx.clock.advance(seconds);
      return ok({ now: ctx.clock.iso(), offsetMs: ctx.clock.offset });
    }
    case 'GET /faults':
      return ok({ faults: ctx.faults });
    case 'PUT /faults': {
      const { faults } = body();
      if (!Array.isArray(faults)) badRequest('faults must be an array');
      ctx.faults = faults.map(parseFault);
      return ok({ faults: ctx.faults });
    }
    case 'POST /faults':
      ctx.faults.push(parseFault(body(), ctx.faults.length));
      return ok({ faults: ctx.faults });
    case 'DELETE /faults':
      ctx.faults = [];
      return ok({ faults: [] });
    case 'GET /latency':
      return ok({ defaultMs: ctx.knobs.latencyMs, endpoints: ctx.knobs.endpointLatencyMs });
    case 'PUT /latency': {
      const latency = body();
      if ('defaultMs' in latency) {
        ctx.knobs.latencyMs = parseLatencySpec(latency.defaultMs, 'defaultMs');
      }
      if ('endpoints' in latency) {
        if (typeof latency.endpoints !== 'object' || latency.endpoints === null)
          badRequest('endpoints must be an object');
        ctx.knobs.endpointLatencyMs = Object.fromEntries(
          Object.entries(latency.endpoints as Record<string, unknown>).map(([endpoint, spec]) => [
            endpoint,
            parseLatencySpec(spec, `endpoints.${endpoint}`),
          ]),
        );
      }
      return ok({ defaultMs: ctx.knobs.latencyMs, endpoints: ctx.knobs.endpointLatencyMs });
    }
    case 'GET /knobs':
      return ok(knobsView(ctx));
    case 'PATCH /knobs':
    case 'PUT /knobs':
      patchKnobs(ctx, body());
      return ok(knobsView(ctx));
    case 'GET /calls': {
      const { counts, total } = countsView(ctx.calls);
      return ok({ calls: counts, total });
    }
    case 'DELETE /calls':
      ctx.calls.clear();
      return ok({ calls: {}, total: 0 });
    case 'GET /injected': {
      const { counts, total } = countsView(ctx.injected);
      return ok({ injected: counts, total });
    }
    case 'GET /rate-peaks':
      return ok({ peaks: Object.fromEntries(ctx.ratePeaks), limits: ctx.knobs.rateLimit });
    case 'POST /authorization-code': {
      const request = body();
      const user = typeof request.user === 'string' ? ctx.findUser(request.user) : undefined;
      if (!user) badRequest('user must be a sandbox user (demo, other, or an email)');
      const clientId = typeof request.clientId === 'string' ? request.clientId : '';
      if (!ctx.findClient(clientId)) badRequest('clientId is not a registered client');
      const redirectUri = typeof request.redirectUri === 'string' ? request.redirectUri : undefined;
      const problem = redirectUriProblem(ctx, clientId, redirectUri);
      if (problem) badRequest(problem);
      const scope = typeof request.scope === 'string' ? request.scope : '';
      const scopeError = scopeProblem(scope);
      if (scopeError) badRequest(scopeError);
      const state = typeof request.state === 'string' ? request.state : undefined;
      const { code, expiresAt } = issueAuthorizationCode(ctx, {
        userId: user.userId,
        clientId,
        redirectUri: redirectUri as string,
        scope,
      });
      return ok({ code, state, expiresAt: new Date(expiresAt).toISOString() });
    }
    case 'GET /portfolio':
      return ok(portfolio(ctx, url.searchParams.get('user') ?? 'demo'));
    case 'PATCH /thermostats':
      return ok(changeDevices(ctx, body()));
    default:
      break;
  }

  const deviceRoute = /^(GET|PATCH) \/thermostats\/(\d{12})$/.exec(route);
  if (deviceRoute) {
    const thermostatId = deviceRoute[2] as string;
    if (deviceRoute[1] === 'PATCH') return ok(changeDevice(ctx, thermostatId, body()));
    return ok(deviceRecord(ctx, findDevice(ctx, thermostatId)));
  }
  throw new ApiError(404, 'not_found', `Unknown control endpoint: ${route}`);
}
