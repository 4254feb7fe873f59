import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '@/lib/platform/env';

const strongSecret = 'k3J9x-Qw81_zPz0vLrT5mN2bYc7dHf4gAe6s';
const tokenKey = 'Vt8-pX2qL0_wNc5rGz7mKj4sYb1hDf9eAu3o';
const production = {
  NODE_ENV: 'production',
  AUTH_SECRET: strongSecret,
  TOKEN_KEYS: `1:${tokenKey}`,
  NEXTAUTH_URL: 'https://setpoint.example.com',
};

describe('configuration', () => {
  it('stops a production start without AUTH_SECRET, naming it and how to make one', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(
      /AUTH_SECRET.*openssl rand -base64 32/s,
    );
  });

  it.each([
    ['short', 'abc123'],
    ['placeholder', 'change-me-change-me-change-me-change-me'],
    ['not random', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
  ])('refuses a weak AUTH_SECRET in production (%s)', (_kind, secret) => {
    expect(() => parseEnv({ ...production, AUTH_SECRET: secret })).toThrow(/AUTH_SECRET/);
  });

  it('accepts a strong production configuration and applies defaults', () => {
    const env = parseEnv(production);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.TOKEN_KEYS).toEqual({ 1: tokenKey });
    expect(env.DATA_DIR).toBe('.data');
    expect(env.SESSION_MAX_AGE_HOURS).toBe(8);
  });

  it('generates development secrets once and keeps them in the data folder', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'setpoint-env-'));
    const development = {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      SERVICE_ALLOW_REDIRECT_PORT: 'true',
    };
    const first = parseEnv(development);
    const second = parseEnv(development);
    expect(first.AUTH_SECRET).toHaveLength(43);
    expect(second.AUTH_SECRET).toBe(first.AUTH_SECRET);
    expect(second.TOKEN_KEYS).toEqual(first.TOKEN_KEYS);
    expect(Object.keys(first.TOKEN_KEYS)).toEqual(['1']);
    const file = path.join(dataDir, 'dev-secrets.json');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/DEVELOPMENT ONLY/);
  });

  it('rejects a DATABASE_URL that is not PostgreSQL and half-configured SSO', () => {
    const base = production;
    expect(() => parseEnv({ ...base, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ ...base, OIDC_ISSUER: 'https://id.example.com' })).toThrow(
      /OIDC_CLIENT_ID/,
    );
    const sso = parseEnv({
      ...base,
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'setpoint',
      OIDC_CLIENT_SECRET: 'secret-value',
    });
    expect(sso.OIDC_DISPLAY_NAME).toBe('Company SSO');
  });

  it('stops a production start without TOKEN_KEYS, or with a weak key', () => {
    const { TOKEN_KEYS: _omitted, ...withoutKeys } = production;
    expect(() => parseEnv(withoutKeys)).toThrow(/TOKEN_KEYS.*openssl rand/s);
    expect(() => parseEnv({ ...production, TOKEN_KEYS: '1:short' })).toThrow(/TOKEN_KEYS/);
    expect(() => parseEnv({ ...production, TOKEN_KEYS: `x:${strongSecret}` })).toThrow(
      /TOKEN_KEYS/,
    );
    const rotated = parseEnv({
      ...production,
      TOKEN_KEYS: `2:${tokenKey}x, 1:${tokenKey}`,
    });
    expect(Object.keys(rotated.TOKEN_KEYS).sort()).toEqual(['1', '2']);
  });

  it('refuses AUTH_SECRET reused as a token key, in production and in development', () => {
    for (const keys of [`1:${strongSecret}`, `2:${tokenKey}, 1:${strongSecret}`]) {
      expect(() => parseEnv({ ...production, TOKEN_KEYS: keys })).toThrow(
        /TOKEN_KEYS: TOKEN_KEYS reuses AUTH_SECRET.*openssl rand/s,
      );
    }
    const dataDir = mkdtempSync(path.join(tmpdir(), 'setpoint-env-'));
    expect(() =>
      parseEnv({
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        SERVICE_ALLOW_REDIRECT_PORT: 'true',
        AUTH_SECRET: strongSecret,
        TOKEN_KEYS: `1:${strongSecret}`,
      }),
    ).toThrow(ConfigError);
    // Generated development secrets are two separate secrets.
    const generated = parseEnv({
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      SERVICE_ALLOW_REDIRECT_PORT: 'true',
    });
    expect(Object.values(generated.TOKEN_KEYS)).not.toContain(generated.AUTH_SECRET);
  });

  it("enforces the service's redirect URI rules: at most 255 characters, no port", () => {
    expect(parseEnv(production).SERVICE_BASE_URL).toBe('http://127.0.0.1:4010');
    const long = `https://setpoint.example.com/${'a'.repeat(240)}`;
    expect(() => parseEnv({ ...production, SERVICE_REDIRECT_URI: long })).toThrow(/at most 255/);
    expect(() =>
      parseEnv({ ...production, NEXTAUTH_URL: 'https://setpoint.example.com:8443' }),
    ).toThrow(/port number/);
    // Relaxed only on request, and only against a service on this machine (the sandbox).
    const local = {
      ...production,
      NEXTAUTH_URL: 'http://localhost:3000',
      SERVICE_ALLOW_REDIRECT_PORT: 'true',
    };
    expect(parseEnv(local).SERVICE_ALLOW_REDIRECT_PORT).toBe(true);
    expect(() =>
      parseEnv({ ...local, SERVICE_BASE_URL: 'https://api.thermostats.example.com' }),
    ).toThrow(/local sandbox only/);
  });

  it('lets webhooks reach private addresses only when WEBHOOK_ALLOW_PRIVATE_HOSTS says so', () => {
    expect(parseEnv(production).WEBHOOK_ALLOW_PRIVATE_HOSTS).toBe(false);
    expect(parseEnv({ ...production, WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true' })).toMatchObject({
      WEBHOOK_ALLOW_PRIVATE_HOSTS: true,
    });
    expect(parseEnv({ ...production, WEBHOOK_ALLOW_PRIVATE_HOSTS: 'false' })).toMatchObject({
      WEBHOOK_ALLOW_PRIVATE_HOSTS: false,
    });
    expect(() => parseEnv({ ...production, WEBHOOK_ALLOW_PRIVATE_HOSTS: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_HOSTS must be true or false/,
    );
  });
});
