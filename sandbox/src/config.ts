import { readFileSync } from 'node:fs';

export interface ClientRegistration {
  clientId: string;
  redirectUris: string[];
}

export type LatencySpec = number | { min: number; max: number };

export interface RateLimitConfig {
  perSecond: number;
  perMinute: number;
  perHour: number;
  /** Tokens a client may obtain per `tokenWindowSeconds` (production: 120 per 2 hours). */
  tokenPerWindow: number;
  tokenWindowSeconds: number;
}

/** `demo` (35 thermostats), `large` (640, the benchmark's), `fleet` (1,500 in 30 buildings). */
export const FIXTURE_NAMES = ['demo', 'large', 'fleet'] as const;
export type FixtureName = (typeof FIXTURE_NAMES)[number];

export function isFixtureName(value: unknown): value is FixtureName {
  return (FIXTURE_NAMES as readonly unknown[]).includes(value);
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Enables the control API under `/_sandbox/`. Off by default. */
  control?: boolean;
  /** Local development only: accept redirect URIs that carry a port number. */
  allowRedirectPorts?: boolean;
  clients?: ClientRegistration[];
  fixture?: FixtureName;
  latencyMs?: LatencySpec;
  rateLimit?: RateLimitConfig | null;
  modeChangeDelayMs?: number;
  /** How long the device takes to apply a resident-mode change the service accepted (default 0). */
  residentModeDelayMs?: number;
  /** Probability (0..1) that a service request fails with a 500 or 503. */
  errorRate?: number;
  /** Probability (0..1) that a service request never gets an answer. */
  timeoutRate?: number;
  /** Probability (0..1) that a service request's connection is dropped. */
  dropRate?: number;
  /** How long a `timeout` fault holds the request before closing the socket. */
  timeoutMs?: number;
  jwtSecret?: string;
}

export const PRODUCTION_RATE_LIMIT: RateLimitConfig = {
  perSecond: 50,
  perMinute: 500,
  perHour: 10_000,
  tokenPerWindow: 120,
  tokenWindowSeconds: 7200,
};

export const DEFAULT_CLIENTS: ClientRegistration[] = [
  {
    clientId: 'setpoint-local',
    redirectUris: [
      'http://localhost/api/connect/callback',
      'http://localhost:3000/api/connect/callback',
      'http://127.0.0.1:3100/api/connect/callback',
      'http://localhost:3100/api/connect/callback',
    ],
  },
];

/** How the service behaves: set at start-up, changed at run time through the control API. */
export interface ServiceBehaviour {
  allowRedirectPorts: boolean;
  latencyMs: LatencySpec;
  rateLimit: RateLimitConfig | null;
  modeChangeDelayMs: number;
  residentModeDelayMs: number;
  errorRate: number;
  timeoutRate: number;
  dropRate: number;
  timeoutMs: number;
}

export interface ResolvedConfig extends ServiceBehaviour {
  port: number;
  host: string;
  control: boolean;
  clients: ClientRegistration[];
  fixture: FixtureName;
  jwtSecret: string;
}

export function resolveConfig(options: SandboxOptions): ResolvedConfig {
  return {
    port: options.port ?? 4010,
    host: options.host ?? '127.0.0.1',
    control: options.control ?? false,
    allowRedirectPorts: options.allowRedirectPorts ?? false,
    clients: validateClients(options.clients ?? DEFAULT_CLIENTS),
    fixture: options.fixture ?? 'demo',
    latencyMs: options.latencyMs ?? 0,
    rateLimit: options.rateLimit ?? null,
    modeChangeDelayMs: options.modeChangeDelayMs ?? 3000,
    residentModeDelayMs: options.residentModeDelayMs ?? 0,
    errorRate: options.errorRate ?? 0,
    timeoutRate: options.timeoutRate ?? 0,
    dropRate: options.dropRate ?? 0,
    timeoutMs: options.timeoutMs ?? 30_000,
    jwtSecret: options.jwtSecret ?? 'sandbox-only-hs256-secret-not-for-production-use-0001',
  };
}

function validateClients(value: unknown): ClientRegistration[] {
  if (!Array.isArray(value)) throw new Error('clients must be an array');
  return value.map((entry, index) => {
    const client = entry as Partial<ClientRegistration>;
    if (typeof client.clientId !== 'string' || client.clientId === '') {
      throw new Error(`clients[${index}].clientId must be a non-empty string`);
    }
    if (
      !Array.isArray(client.redirectUris) ||
      client.redirectUris.some((uri) => typeof uri !== 'string')
    ) {
      throw new Error(`clients[${index}].redirectUris must be an array of strings`);
    }
    return { clientId: client.clientId, redirectUris: [...client.redirectUris] };
  });
}

export function parseLatency(value: string): LatencySpec {
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(value.trim());
  if (range) return { min: Number(range[1]), max: Number(range[2]) };
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`Invalid latency: ${value}`);
  return ms;
}

function rate(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const probability = Number(value);
  if (!Number.isFinite(probability) || probability < 0 || probability > 1) {
    throw new Error(`${name} must be between 0 and 1`);
  }
  return probability;
}

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) {
    throw new Error(`${name} must be a non-negative integer`);
  }
  return count;
}

const RATE_LIMIT_FIELDS = Object.keys(PRODUCTION_RATE_LIMIT) as Array<keyof RateLimitConfig>;

/**
 * The rate-limit setting: `null` or `"off"` (no limits), `"production"`, or an object whose
 * fields replace those of the production preset, e.g. `{"perSecond":5,"perMinute":20,"perHour":40}`
 * for tests that use up the hour in seconds. Throws on anything else, naming the field.
 */
export function resolveRateLimit(value: unknown): RateLimitConfig | null {
  if (value === null || value === 'off') return null;
  if (value === 'production') return { ...PRODUCTION_RATE_LIMIT };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('rateLimit must be null, "off", "production" or an object');
  }
  const custom = value as Record<string, unknown>;
  for (const [field, limit] of Object.entries(custom)) {
    if (!(RATE_LIMIT_FIELDS as string[]).includes(field)) {
      throw new Error(`rateLimit.${field} is unknown (fields: ${RATE_LIMIT_FIELDS.join(', ')})`);
    }
    const least = field === 'tokenWindowSeconds' ? 1 : 0;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < least) {
      throw new Error(`rateLimit.${field} must be an integer of at least ${least}`);
    }
  }
  return { ...PRODUCTION_RATE_LIMIT, ...(custom as Partial<RateLimitConfig>) };
}

function parseRateLimit(value: string | undefined): RateLimitConfig | null | undefined {
  if (value === undefined || value === '' || value === 'off') return undefined;
  if (value === 'production') return resolveRateLimit(value);
  return resolveRateLimit(JSON.parse(value));
}

/** Reads the `SANDBOX_*` environment variables documented in sandbox/README.md. */
export function optionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): SandboxOptions {
  let clients: ClientRegistration[] | undefined;
  if (env.SANDBOX_CLIENTS) clients = JSON.parse(env.SANDBOX_CLIENTS) as ClientRegistration[];
  else if (env.SANDBOX_CLIENTS_FILE) {
    clients = JSON.parse(readFileSync(env.SANDBOX_CLIENTS_FILE, 'utf8')) as ClientRegistration[];
  }
  const fixture = env.SANDBOX_FIXTURE || undefined;
  if (fixture !== undefined && !isFixtureName(fixture)) {
    throw new Error(`SANDBOX_FIXTURE must be one of ${FIXTURE_NAMES.join(', ')}`);
  }
  return {
    port: int('SANDBOX_PORT', env.SANDBOX_PORT),
    host: env.SANDBOX_HOST || undefined,
    control: env.SANDBOX_CONTROL === '1' || env.SANDBOX_CONTROL === 'true',
    allowRedirectPorts:
      env.SANDBOX_ALLOW_REDIRECT_PORTS === '1' || env.SANDBOX_ALLOW_REDIRECT_PORTS === 'true',
    clients,
    fixture,
    latencyMs: env.SANDBOX_LATENCY_MS ? parseLatency(env.SANDBOX_LATENCY_MS) : undefined,
    rateLimit: parseRateLimit(env.SANDBOX_RATE_LIMIT),
    modeChangeDelayMs: int('SANDBOX_MODE_CHANGE_DELAY_MS', env.SANDBOX_MODE_CHANGE_DELAY_MS),
    residentModeDelayMs: int('SANDBOX_RESIDENT_MODE_DELAY_MS', env.SANDBOX_RESIDENT_MODE_DELAY_MS),
    errorRate: rate('SANDBOX_ERROR_RATE', env.SANDBOX_ERROR_RATE),
    timeoutRate: rate('SANDBOX_TIMEOUT_RATE', env.SANDBOX_TIMEOUT_RATE),
    dropRate: rate('SANDBOX_DROP_RATE', env.SANDBOX_DROP_RATE),
    timeoutMs: int('SANDBOX_TIMEOUT_MS', env.SANDBOX_TIMEOUT_MS),
    jwtSecret: env.SANDBOX_JWT_SECRET || undefined,
  };
}
