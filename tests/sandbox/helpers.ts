import type { SandboxOptions } from '../../sandbox/src/config';
import { type RunningSandbox, startSandbox } from '../../sandbox/src/server';

export const CLIENT_ID = 'setpoint-local';
export const REDIRECT_URI = 'http://localhost/api/connect/callback';
export const SCOPE = 'smartWrite';

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
    const res = await fetch(this.base + path, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  control(method: string, path: string, body?: unknown): Promise<Reply> {
    return this.request(method, `/_sandbox${path}`, { body });
  }

  async reset(fixture?: 'demo' | 'large'): Promise<void> {
    const r = await this.control('POST', '/reset', fixture ? { fixture } : {});
    if (r.status !== 200) throw new Error(`reset failed: ${r.text}`);
  }

  async setClock(iso: string): Promise<void> {
    await this.control('PUT', '/clock', { now: iso });
  }

  async advance(seconds: number): Promise<void> {
    await this.control('POST', '/clock/advance', { seconds });
  }

  async code(user = 'demo', extra: Record<string, unknown> = {}): Promise<string> {
    const r = await this.control('POST', '/authorization-code', {
      user,
      clientId: CLIENT_ID,
      redirectUri: REDIRECT_URI,
      scope: SCOPE,
      ...extra,
    });
    if (r.status !== 200) throw new Error(`code failed: ${r.text}`);
    return r.body.code as string;
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
    const r = await this.exchange(await this.code(user, codeExtra), extra);
    if (r.status !== 200) throw new Error(`exchange failed: ${r.text}`);
    return r.body as { access_token: string; refresh_token: string; expires_in: number };
  }

  async portfolio(user = 'demo') {
    const r = await this.control('GET', `/portfolio?user=${user}`);
    return r.body as {
      buildings: Array<{ buildingId: string; name: string; timeZone: string }>;
      thermostats: Array<{ thermostatId: string; name: string; buildingId: string }>;
    };
  }
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
