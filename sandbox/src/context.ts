import { Clock } from './clock';
import type { LatencySpec, ResolvedConfig, ServiceBehaviour } from './config';
import { buildFixture } from './fixtures';
import type { DataStore } from './store';

export interface AuthorizationCode {
  code: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  userId: string;
  expiresAt: number;
  used: boolean;
}

/** One user's consent to one client: the tokens of a grant supersede each other. */
export interface Grant {
  grantId: string;
  userId: string;
  accountId: string;
  clientId: string;
  scope: string;
  currentAccessToken: string | null;
}

export interface AccessTokenRecord {
  grantId: string;
  expiresAt: number;
  format: 'opaque' | 'jwt';
}

export interface RefreshTokenRecord {
  grantId: string;
  expiresAt: number;
  format: 'v1' | 'v2';
}

/** A rendered consent page, identified by its hidden per-render token. */
export interface ConsentRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | undefined;
  expiresAt: number;
}

export type FaultKind =
  | number
  | 'timeout'
  | 'drop'
  | 'malformed'
  | 'garbled'
  | 'authorization_pending'
  | 'slow_down';

export interface Fault {
  /** Endpoint key such as `GET /api/v2/thermostats/:id/status`, or `*` for every endpoint. */
  endpoint: string;
  kind: FaultKind;
  probability: number;
  /** Remaining times the fault fires; null = unlimited. */
  count: number | null;
  thermostatId: string | null;
  /**
   * The request is carried out first (a write takes effect), then the fault replaces or cuts its
   * answer: the "applied, answer lost" case. False: the fault fires instead of the request.
   */
  applied: boolean;
}

/** A fault that fired for one request: its kind and whether the request is carried out first. */
export interface FiredFault {
  kind: FaultKind;
  applied: boolean;
}

export interface Knobs extends ServiceBehaviour {
  endpointLatencyMs: Record<string, LatencySpec>;
}

export class SandboxContext {
  readonly clock = new Clock();
  store: DataStore;
  knobs: Knobs;
  faults: Fault[] = [];
  calls = new Map<string, number>();
  /**
   * What the realism knobs did to requests: fault kind (or `rate_limited`) -> times; an applied
   * fault counts under `<kind>_applied`.
   */
  injected = new Map<string, number>();
  codes = new Map<string, AuthorizationCode>();
  grants = new Map<string, Grant>();
  accessTokens = new Map<string, AccessTokenRecord>();
  refreshTokens = new Map<string, RefreshTokenRecord>();
  consentRequests = new Map<string, ConsentRequest>();
  /** Fixed-window counters for rate limits: key -> { window start, count }. */
  rateWindows = new Map<string, { start: number; count: number }>();
  /** The most calls any one rate-limit window has let through: second, minute, hour -> count. */
  ratePeaks = new Map<string, number>();
  baseUrl = '';

  constructor(readonly config: ResolvedConfig) {
    this.knobs = this.initialKnobs();
    this.store = buildFixture(config.fixture, this.clock.now());
  }

  private initialKnobs(): Knobs {
    const { config } = this;
    return {
      latencyMs: config.latencyMs,
      endpointLatencyMs: {},
      rateLimit: config.rateLimit,
      modeChangeDelayMs: config.modeChangeDelayMs,
      residentModeDelayMs: config.residentModeDelayMs,
      errorRate: config.errorRate,
      timeoutRate: config.timeoutRate,
      dropRate: config.dropRate,
      timeoutMs: config.timeoutMs,
      allowRedirectPorts: config.allowRedirectPorts,
    };
  }

  /** Back to the start-up state: fixture data, no tokens, knobs from configuration, real time. */
  reset(fixture = this.config.fixture): void {
    this.clock.reset();
    this.knobs = this.initialKnobs();
    this.faults = [];
    this.calls.clear();
    this.injected.clear();
    this.codes.clear();
    this.grants.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.consentRequests.clear();
    this.rateWindows.clear();
    this.ratePeaks.clear();
    this.store = buildFixture(fixture, this.clock.now());
  }

  countCall(key: string): void {
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
  }

  countInjected(kind: FaultKind | 'rate_limited', applied = false): void {
    const name = applied ? `${kind}_applied` : String(kind);
    this.injected.set(name, (this.injected.get(name) ?? 0) + 1);
  }

  findUser(emailOrAlias: string) {
    const wanted = emailOrAlias.trim().toLowerCase();
    return this.store.users.find(
      (user) =>
        user.email === wanted || user.email.split('@')[0] === wanted || user.userId === wanted,
    );
  }

  findClient(clientId: string) {
    return this.config.clients.find((client) => client.clientId === clientId);
  }
}
