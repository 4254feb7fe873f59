import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '@/lib/env';

const strongSecret = 'k3J9x-Qw81_zPz0vLrT5mN2bYc7dHf4gAe6s';

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
    expect(() => parseEnv({ NODE_ENV: 'production', AUTH_SECRET: secret })).toThrow(/AUTH_SECRET/);
  });

  it('accepts a strong production configuration and applies defaults', () => {
    const env = parseEnv({ NODE_ENV: 'production', AUTH_SECRET: strongSecret });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toBe('.data');
    expect(env.SESSION_MAX_AGE_HOURS).toBe(8);
  });

  it('generates development secrets once and keeps them in the data folder', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'setpoint-env-'));
    const first = parseEnv({ NODE_ENV: 'development', DATA_DIR: dataDir });
    const second = parseEnv({ NODE_ENV: 'development', DATA_DIR: dataDir });
    expect(first.AUTH_SECRET).toHaveLength(43);
    expect(second.AUTH_SECRET).toBe(first.AUTH_SECRET);
    const file = path.join(dataDir, 'dev-secrets.json');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/DEVELOPMENT ONLY/);
  });

  it('rejects a DATABASE_URL that is not PostgreSQL and half-configured SSO', () => {
    const base = { NODE_ENV: 'production', AUTH_SECRET: strongSecret };
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
});
