import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LatencySpec, RateLimitConfig } from './config';
import { PRODUCTION_RATE_LIMIT } from './config';
import type { Fault, FaultKind, SandboxContext } from './context';
import { ApiError, parseJsonObject, readBody, sendJson } from './http-util';
import {
  issueAuthorizationCode,
  JWT_PREFIX,
  redirectUriProblem,
  SENTINELS,
  scopeProblem,
} from './oauth';
import { HVAC_MODES, type HvacMode } from './store';
import { requestModeChange, settle, statusRecord } from './thermostats';

/** The control API under `/_sandbox/`, for tests, demos and benchmarks. Off unless enabled. */

export const CONTROL_PREFIX = '/_sandbox';

function bad(message: string): never {
  throw new ApiError(400, 'bad_request', message);
}

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
  return bad(`${name} must be a number of ms or { min, max }`);
}

const FAULT_NAMES = ['timeout', 'drop', 'malformed', 'authorization_pending', 'slow_down'];

function parseFault(value: unknown, index: number): Fault {
  if (typeof value !== 'object' || value === null) bad(`faults[${index}] must be an object`);
  const f = value as Record<string, unknown>;
  const endpoint = f.endpoint ?? '*';
  if (typeof endpoint !== 'string') bad(`faults[${index}].endpoint must be a string`);
  let kind: FaultKind;
  if (typeof f.kind === 'number' && Number.isInteger(f.kind) && f.kind >= 400 && f.kind <= 599) {
    kind = f.kind;
  } else if (typeof f.kind === 'string' && /^\d{3}$/.test(f.kind)) kind = Number(f.kind);
  else if (typeof f.kind === 'string' && FAULT_NAMES.includes(f.kind)) kind = f.kind as FaultKind;
  else
    return bad(
      `faults[${index}].kind must be a 4xx/5xx status or one of ${FAULT_NAMES.join(', ')}`,
    );
  const probability = f.probability ?? 1;
  if (typeof probability !== 'number' || probability < 0 || probability > 1) {
    bad(`faults[${index}].probability must be between 0 and 1`);
  }
  const count = f.count ?? null;
  if (count !== null && (typeof count !== 'number' || !Number.isInteger(count) || count < 0)) {
    bad(`faults[${index}].count must be a non-negative integer`);
  }
  const thermostatId = f.thermostatId ?? null;
  if (thermostatId !== null && typeof thermostatId !== 'string') {
    bad(`faults[${index}].thermostatId must be a string`);
  }
  return {
    endpoint,
    kind,
    probability: probability as number,
    count: count as number | null,
    thermostatId: thermostatId as string | null,
  };
}

function knobsView(ctx: SandboxContext) {
  return { ...ctx.knobs, endpointLatencyMs: { ...ctx.knobs.endpointLatencyMs } };
}

function rate(value: unknown, name: string): number {
  if (typeof value !== 'number' || value < 0 || value > 1) bad(`${name} must be between 0 and 1`);
  return value;
}

function patchKnobs(ctx: SandboxContext, body: Record<string, unknown>): void {
  const k = ctx.knobs;
  for (const [key, value] of Object.entries(body)) {
    switch (key) {
      case 'rateLimit':
        if (value === null || value === 'off') k.rateLimit = null;
        else if (value === 'production') k.rateLimit = { ...PRODUCTION_RATE_LIMIT };
        else if (typeof value === 'object') {
          k.rateLimit = { ...PRODUCTION_RATE_LIMIT, ...(value as Partial<RateLimitConfig>) };
        } else bad('rateLimit must be null, "production" or an object');
        ctx.rateWindows.clear();
        break;
      case 'modeChangeDelayMs':
      case 'timeoutMs':
        if (typeof value !== 'number' || value < 0) bad(`${key} must be a non-negative number`);
        k[key] = value;
        break;
      case 'errorRate':
      case 'timeoutRate':
      case 'dropRate':
        k[key] = rate(value, key);
        break;
      case 'allowRedirectPorts':
        if (typeof value !== 'boolean') bad('allowRedirectPorts must be a boolean');
        k.allowRedirectPorts = value;
        break;
      case 'latencyMs':
        k.latencyMs = parseLatencySpec(value, key);
        break;
      default:
        bad(`Unknown knob: ${key}`);
    }
  }
}

function portfolio(ctx: SandboxContext, userName: string) {
  const user = ctx.findUser(userName);
  if (!user) throw new ApiError(404, 'user_not_found', `Unknown sandbox user: ${userName}`);
  const account = ctx.store.accounts.get(user.accountId);
  const buildings = [...ctx.store.buildings.values()]
    .filter((b) => b.accountId === user.accountId)
    .map(({ buildingId, name, timeZone, address }) => ({ buildingId, name, timeZone, address }));
  const thermostats = [...ctx.store.thermostats.values()]
    .filter((t) => t.accountId === user.accountId)
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
        users: ctx.store.users.map((u) => ({ email: u.email, password: u.password })),
        knobs: knobsView(ctx),
        sentinels: { ...SENTINELS, jwtPrefix: JWT_PREFIX },
        now: ctx.clock.iso(),
      });
    case 'POST /reset': {
      const fixture = body().fixture ?? ctx.config.fixture;
      if (fixture !== 'demo' && fixture !== 'large') bad('fixture must be demo or large');
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
      if (Number.isNaN(ms)) bad('now must be an ISO 8601 date-time');
      ctx.clock.set(ms);
      return ok({ now: ctx.clock.iso(), offsetMs: ctx.clock.offset });
    }
    case 'DELETE /clock':
      ctx.clock.reset();
      return ok({ now: ctx.clock.iso(), offsetMs: 0 });
    case 'POST /clock/advance': {
      const { seconds } = body();
      if (typeof seconds !== 'number' || !Number.isFinite(seconds)) bad('seconds must be a number');
      ctx.clock.advance(seconds);
      return ok({ now: ctx.clock.iso(), offsetMs: ctx.clock.offset });
    }
    case 'GET /faults':
      return ok({ faults: ctx.faults });
    case 'PUT /faults': {
      const { faults } = body();
      if (!Array.isArray(faults)) bad('faults must be an array');
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
      const b = body();
      if ('defaultMs' in b) ctx.knobs.latencyMs = parseLatencySpec(b.defaultMs, 'defaultMs');
      if ('endpoints' in b) {
        if (typeof b.endpoints !== 'object' || b.endpoints === null)
          bad('endpoints must be an object');
        ctx.knobs.endpointLatencyMs = Object.fromEntries(
          Object.entries(b.endpoints as Record<string, unknown>).map(([k, v]) => [
            k,
            parseLatencySpec(v, `endpoints.${k}`),
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
      const calls = Object.fromEntries(
        [...ctx.calls.entries()].sort(([a], [b]) => a.localeCompare(b)),
      );
      const total = [...ctx.calls.values()].reduce((a, b) => a + b, 0);
      return ok({ calls, total });
    }
    case 'DELETE /calls':
      ctx.calls.clear();
      return ok({ calls: {}, total: 0 });
    case 'GET /injected': {
      const injected = Object.fromEntries(
        [...ctx.injected.entries()].sort(([a], [b]) => a.localeCompare(b)),
      );
      const total = [...ctx.injected.values()].reduce((a, b) => a + b, 0);
      return ok({ injected, total });
    }
    case 'POST /authorization-code': {
      const b = body();
      const user = typeof b.user === 'string' ? ctx.findUser(b.user) : undefined;
      if (!user) bad('user must be a sandbox user (demo, other, or an email)');
      const clientId = typeof b.clientId === 'string' ? b.clientId : '';
      if (!ctx.findClient(clientId)) bad('clientId is not a registered client');
      const redirectUri = typeof b.redirectUri === 'string' ? b.redirectUri : undefined;
      const problem = redirectUriProblem(ctx, clientId, redirectUri);
      if (problem) bad(problem);
      const scope = typeof b.scope === 'string' ? b.scope : '';
      const scopeError = scopeProblem(scope);
      if (scopeError) bad(scopeError);
      const state = typeof b.state === 'string' ? b.state : undefined;
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
    default:
      break;
  }

  const device = /^(GET|PATCH) \/thermostats\/(\d{12})$/.exec(route);
  if (device) {
    const t = ctx.store.thermostats.get(device[2] as string);
    if (!t) throw new ApiError(404, 'thermostat_not_found', 'Thermostat not found.');
    if (device[1] === 'PATCH') {
      const b = body();
      for (const key of Object.keys(b)) {
        if (!['hvacMode', 'temperature', 'humidity', 'connected'].includes(key))
          bad(`Unknown field: ${key}`);
      }
      if ('hvacMode' in b) {
        if (
          !HVAC_MODES.includes(b.hvacMode as HvacMode) ||
          !t.supportedModes.includes(b.hvacMode as HvacMode)
        ) {
          bad('hvacMode must be one of the thermostat supportedModes');
        }
        requestModeChange(ctx, t, b.hvacMode as HvacMode);
      }
      if ('temperature' in b) {
        if (typeof b.temperature !== 'number') bad('temperature must be a number');
        t.temperature = Math.round(b.temperature * 100) / 100;
      }
      if ('humidity' in b) {
        if (typeof b.humidity !== 'number') bad('humidity must be a number');
        t.humidity = b.humidity;
      }
      if ('connected' in b) {
        if (typeof b.connected !== 'boolean') bad('connected must be a boolean');
        if (t.connected && !b.connected) t.lastSeenMs = ctx.clock.now();
        if (b.connected) t.lastSeenMs = null;
        t.connected = b.connected;
      }
    }
    settle(ctx, t);
    return ok({ ...statusRecord(ctx, t), accountId: t.accountId });
  }
  throw new ApiError(404, 'not_found', `Unknown control endpoint: ${route}`);
}
