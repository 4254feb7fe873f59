import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { FixtureName, SandboxOptions } from '../../sandbox/src/config';
import { type RunningSandbox, startSandbox } from '../../sandbox/src/server';

export const CLIENT_ID = 'setpoint-local';
export const REDIRECT_URI = 'http://localhost/api/connect/callback';
export const SCOPE = 'smartWrite';
/** Every version 2 thermostat path starts here. */
export const THERMOSTATS = '/api/v2/thermostats';

export interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected field by field
  body: any;
  text: string;
}

export class SandboxClient {
  constructor(readonly base: string) {}

  async request(
    method: string,
    path: string,
    init: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: string | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(this.base + path, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  control(method: string, path: string, body?: unknown): Promise<Reply> {
    return this.request(method, `/_sandbox${path}`, { body });
  }

  async reset(fixture?: FixtureName): Promise<void> {
    const reply = await this.control('POST', '/reset', fixture ? { fixture } : {});
    if (reply.status !== 200) throw new Error(`reset failed: ${reply.text}`);
  }

  async setClock(iso: string): Promise<void> {
    await this.control('PUT', '/clock', { now: iso });
  }

  async advance(seconds: number): Promise<void> {
    await this.control('POST', '/clock/advance', { seconds });
  }

  async code(user = 'demo', extra: Record<string, unknown> = {}): Promise<string> {
    const reply = await this.control('POST', '/authorization-code', {
      user,
      clientId: CLIENT_ID,
      redirectUri: REDIRECT_URI,
      scope: SCOPE,
      ...extra,
    });
    if (reply.status !== 200) throw new Error(`code failed: ${reply.text}`);
    return reply.body.code as string;
  }

  token(params: Record<string, string>, method: 'POST' | 'GET' = 'POST'): Promise<Reply> {
    const path = method === 'POST' ? '/token' : '/api/v2/token';
    return this.request(method, `${path}?${new URLSearchParams(params)}`);
  }

  exchange(code: string, extra: Record<string, string> = {}): Promise<Reply> {
    return this.token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: CLIENT_ID,
      ...extra,
    });
  }

  refresh(refreshToken: string, extra: Record<string, string> = {}): Promise<Reply> {
    return this.token({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: CLIENT_ID,
      ...extra,
    });
  }

  /** Signs a user in without a browser and returns the token response. */
  async login(
    user = 'demo',
    extra: Record<string, string> = {},
    codeExtra: Record<string, unknown> = {},
  ) {
    const reply = await this.exchange(await this.code(user, codeExtra), extra);
    if (reply.status !== 200) throw new Error(`exchange failed: ${reply.text}`);
    return reply.body as { access_token: string; refresh_token: string; expires_in: number };
  }

  async portfolio(user = 'demo'): Promise<Portfolio> {
    const reply = await this.control('GET', `/portfolio?user=${user}`);
    return reply.body as Portfolio;
  }
}

export interface Portfolio {
  buildings: Array<{ buildingId: string; name: string; timeZone: string }>;
  thermostats: Array<{ thermostatId: string; name: string; buildingId: string }>;
}

export async function boot(
  options: SandboxOptions = {},
): Promise<{ sandbox: RunningSandbox; client: SandboxClient }> {
  const sandbox = await startSandbox({
    port: 0,
    control: true,
    modeChangeDelayMs: 300,
    ...options,
  });
  return { sandbox, client: new SandboxClient(sandbox.url) };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One sandbox for the whole test file, started before its first test and closed after the last. */
export function withSandbox(options: SandboxOptions = {}): {
  readonly client: SandboxClient;
  readonly sandbox: RunningSandbox;
} {
  let started: Awaited<ReturnType<typeof boot>> | undefined;
  beforeAll(async () => {
    started = await boot(options);
  });
  afterAll(() => started?.sandbox.close());
  const running = () => {
    if (!started) throw new Error('the sandbox is not running (use inside a test)');
    return started;
  };
  return {
    get client() {
      return running().client;
    },
    get sandbox() {
      return running().sandbox;
    },
  };
}

/** A signed-in demo user's view of the version 2 API, fresh for every test. */
export interface ApiSession {
  readonly client: SandboxClient;
  /** The demo user's access token (scope smartWrite). */
  readonly token: string;
  readonly demo: Portfolio;
  readonly other: Portfolio;
  /** An online demo thermostat (the portfolio's second). */
  readonly thermostatId: string;
  /** The demo fixture's offline thermostat. */
  readonly offlineId: string;
  get(path: string): Promise<Reply>;
  patch(path: string, body: unknown): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  delete(path: string): Promise<Reply>;
}

/**
 * For the version 2 conformance files: one sandbox per file and, before each test, a reset to
 * the demo fixture, a demo sign-in and both accounts' portfolios.
 */
export function withApiSession(options: SandboxOptions = {}): ApiSession {
  const running = withSandbox(options);
  let state: { token: string; demo: Portfolio; other: Portfolio } | undefined;
  beforeEach(async () => {
    const { client } = running;
    await client.reset();
    state = {
      token: (await client.login()).access_token,
      demo: await client.portfolio('demo'),
      other: await client.portfolio('other'),
    };
  });
  const current = () => {
    if (!state) throw new Error('no API session yet (use inside a test)');
    return state;
  };
  const call = (method: string, path: string, body?: unknown) =>
    running.client.request(method, path, { token: current().token, body });
  return {
    get client() {
      return running.client;
    },
    get token() {
      return current().token;
    },
    get demo() {
      return current().demo;
    },
    get other() {
      return current().other;
    },
    get thermostatId() {
      return current().demo.thermostats[1]?.thermostatId as string;
    },
    get offlineId() {
      const offline = current().demo.thermostats.find((thermostat) =>
        thermostat.name.includes('offline'),
      );
      return offline?.thermostatId as string;
    },
    get: (path) => call('GET', path),
    patch: (path, body) => call('PATCH', path, body),
    post: (path, body) => call('POST', path, body),
    delete: (path) => call('DELETE', path),
  };
}

/** A 422 validation failure whose `data` names every one of `fields`. */
export function expectFail(
  reply: { status: number; body: { status: string; data: Record<string, string> } },
  ...fields: string[]
): void {
  expect(reply.status).toBe(422);
  expect(reply.body.status).toBe('fail');
  for (const field of fields) {
    expect(reply.body.data, JSON.stringify(reply.body.data)).toHaveProperty([field]);
  }
}

/**
 * A service-API error in the production envelope: `message` an object with the sandbox's code
 * slug and a sentence, `code` the HTTP status as an integer.
 */
export function expectError(
  reply: { status: number; body: unknown; text: string },
  status: number,
  error: string,
): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body).toEqual({
    status: 'error',
    message: { error, description: expect.any(String) },
    code: status,
  });
}

/** Every key of the production status record (`data` of GET status), sorted. */
export const STATUS_KEYS = [
  'comfortSetting',
  'desiredCoolRange',
  'desiredDehumidity',
  'desiredHeatRange',
  'desiredHumidity',
  'heatCoolMinDelta',
  'humidity',
  'hvacMode',
  'id',
  'isConnected',
  'isResidentMode',
  'runningEquipment',
  'setPoint',
  'temperature',
];

/** Every key of the production `runningEquipment` object, sorted. */
export const RUNNING_EQUIPMENT_KEYS = [
  'auxHeat1',
  'auxHeat2',
  'auxHeat3',
  'auxHotWater',
  'compCool1',
  'compCool2',
  'compHotWater',
  'dehumidifier',
  'economizer',
  'fan',
  'heatPump',
  'heatPump2',
  'heatPump3',
  'humidifier',
  'ventilator',
];

/** The equipment a status record's `runningEquipment` says runs, sorted. */
export function runningOf(status: { runningEquipment: Record<string, boolean> }): string[] {
  return Object.entries(status.runningEquipment)
    .filter(([, running]) => running)
    .map(([key]) => key)
    .sort();
}
