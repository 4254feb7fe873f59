import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { MAX_TRUSTED_PROXIES } from './client-address';

/**
 * Configuration, read and validated once. Every variable is documented in `.env.example`.
 *
 * Secrets: in production a missing or weak secret stops start-up with a message naming the
 * variable. In development and tests the embedded default must work with no `.env` at all, so
 * missing secrets are generated once and kept in `<DATA_DIR>/dev-secrets.json`.
 */

const MIN_SECRET_LENGTH = 32;
const PLACEHOLDER = /change[-_ ]?me|replace[-_ ]?me|^secret$|^password$|example/i;

const secretSchema = (name: string) =>
  z
    .string({ error: `${name} is missing.` })
    .min(MIN_SECRET_LENGTH, `${name} is too short (at least ${MIN_SECRET_LENGTH} characters).`)
    .refine((value) => !PLACEHOLDER.test(value), `${name} is still a placeholder value.`)
    .refine((value) => new Set(value).size >= 10, `${name} is not random enough.`);

/** `TOKEN_KEYS`: `id:secret` pairs, comma-separated; the highest id seals, every id unseals. */
const tokenKeysSchema = z.string({ error: 'TOKEN_KEYS is missing.' }).transform((value, ctx) => {
  const keys: Record<string, string> = {};
  for (const pair of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^(\d{1,6}):(.+)$/.exec(pair);
    const secret = match?.[2] ?? '';
    if (!match?.[1] || secret.length < MIN_SECRET_LENGTH || new Set(secret).size < 10) {
      ctx.addIssue({
        code: 'custom',
        message: `TOKEN_KEYS entries must look like "1:<secret of ${MIN_SECRET_LENGTH}+ random characters>".`,
      });
      return z.NEVER;
    }
    keys[match[1]] = secret;
  }
  if (Object.keys(keys).length === 0) {
    ctx.addIssue({ code: 'custom', message: 'TOKEN_KEYS has no key.' });
    return z.NEVER;
  }
  return keys;
});

const rateLimitSchema = z
  .object({
    perSecond: z.number().int().min(1),
    perMinute: z.number().int().min(1),
    perHour: z.number().int().min(1),
    tokenPerWindow: z.number().int().min(1),
    tokenWindowSeconds: z.number().int().min(1),
  })
  .partial()
  .strict();

const optionalString = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    NEXTAUTH_URL: z.url().default('http://localhost:3000'),
    AUTH_SECRET: secretSchema('AUTH_SECRET'),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL.')
        .optional(),
    ),
    DATA_DIR: z.string().default('.data'),
    SESSION_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(720).default(8),
    /** Proxies in front of the app that append to X-Forwarded-For (server.ts reads it too). */
    TRUSTED_PROXIES: z.coerce.number().int().min(0).max(MAX_TRUSTED_PROXIES).default(0),
    OIDC_ISSUER: optionalString.pipe(z.url().optional()),
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    OIDC_DISPLAY_NAME: z.string().default('Company SSO'),
    /** Email over SMTP, off unless set: `smtp://user:password@host:587` or `smtps://...:465`. */
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL.')
        .optional(),
    ),
    SMTP_FROM: z.string().default('Setpoint <setpoint@localhost>'),
    TOKEN_KEYS: tokenKeysSchema,
    SERVICE_BASE_URL: z.url().default('http://127.0.0.1:4010'),
    SERVICE_CLIENT_ID: z.string().min(1).default('setpoint-local'),
    SERVICE_SCOPE: z.string().min(1).default('smartWrite'),
    /** Defaults to `<NEXTAUTH_URL>/api/connect/callback`. */
    SERVICE_REDIRECT_URI: optionalString.pipe(z.url().optional()),
    SERVICE_TOKEN_PATH: z.enum(['/token', '/api/v2/token']).default('/token'),
    /**
     * The service's rate limits, which the one call budget keeps under: `production` (50/s,
     * 500/min, 10,000/h; 120 token calls per 2 h) or JSON overriding some of them.
     */
    SERVICE_RATE_LIMIT: z
      .string()
      .default('production')
      .transform((value, ctx) => {
        const production = {
          perSecond: 50,
          perMinute: 500,
          perHour: 10_000,
          tokenPerWindow: 120,
          tokenWindowSeconds: 7200,
        };
        if (value.trim() === 'production') return production;
        const parsed = rateLimitSchema.safeParse(
          (() => {
            try {
              return JSON.parse(value);
            } catch {
              return null;
            }
          })(),
        );
        if (!parsed.success) {
          ctx.addIssue({
            code: 'custom',
            message:
              'SERVICE_RATE_LIMIT must be "production" or JSON such as {"perSecond":5,"perMinute":20,"perHour":40}.',
          });
          return z.NEVER;
        }
        return { ...production, ...parsed.data };
      }),
    /**
     * How fresh the poller keeps every reading, in minutes (the service asks for status polls
     * no more often than every 5). 0 turns the poller off; pages still refresh what they show.
     */
    READINGS_TARGET_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(5),
    /** Where background jobs run: in each app process (`app`), or only in `npm run worker`. */
    JOBS_RUNNER: z.enum(['app', 'worker']).default('app'),
    /** Per-request timeout for calls to the service. */
    SERVICE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    SERVICE_JWT: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    /**
     * Tests and local development only: let webhooks reach private, loopback and link-local
     * addresses (a receiver on 127.0.0.1). Off, they reach the public internet only.
     */
    WEBHOOK_ALLOW_PRIVATE_HOSTS: z
      .enum(['true', 'false', '1', '0'], 'WEBHOOK_ALLOW_PRIVATE_HOSTS must be true or false.')
      .default('false')
      .transform((value) => value === 'true' || value === '1'),
    /** Development against a local sandbox only: allow a port in the redirect URI. */
    SERVICE_ALLOW_REDIRECT_PORT: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((value) => value === 'true' || value === '1'),
  })
  .superRefine((env, ctx) => {
    if (env.JOBS_RUNNER === 'worker' && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['JOBS_RUNNER'],
        message:
          'JOBS_RUNNER=worker needs DATABASE_URL: the embedded PGlite database can be opened by one process only, so its jobs run in the app.',
      });
    }
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    const redirect = redirectUriProblem(env);
    if (redirect)
      ctx.addIssue({ code: 'custom', path: ['SERVICE_REDIRECT_URI'], message: redirect });
    // One secret, one purpose: a token key that is also the session secret falls with it.
    if (Object.values(env.TOKEN_KEYS).includes(env.AUTH_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['TOKEN_KEYS'],
        message: 'TOKEN_KEYS reuses AUTH_SECRET; each must be a secret of its own.',
      });
    }
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'Company SSO needs all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

/** The redirect URI the service will be sent: configured, or derived from the app's URL. */
export function serviceRedirectUri(
  env: Pick<Env, 'SERVICE_REDIRECT_URI' | 'NEXTAUTH_URL'>,
): string {
  return env.SERVICE_REDIRECT_URI ?? new URL('/api/connect/callback', env.NEXTAUTH_URL).toString();
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The service's rules for redirect_uri: at most 255 characters and no port. A port is tolerated
 * only with SERVICE_ALLOW_REDIRECT_PORT and only against a service on this machine (the sandbox).
 */
function redirectUriProblem(
  env: Pick<
    Env,
    'SERVICE_REDIRECT_URI' | 'NEXTAUTH_URL' | 'SERVICE_BASE_URL' | 'SERVICE_ALLOW_REDIRECT_PORT'
  >,
): string | null {
  const uri = serviceRedirectUri(env);
  if (uri.length > 255)
    return `The redirect URI ${uri} is ${uri.length} characters; the service allows at most 255.`;
  if (!new URL(uri).port) return null;
  if (!env.SERVICE_ALLOW_REDIRECT_PORT) {
    return `The redirect URI ${uri} has a port number, which the service refuses. Serve the callback on the default port and set SERVICE_REDIRECT_URI, or, for local development against the sandbox only, set SERVICE_ALLOW_REDIRECT_PORT=true.`;
  }
  if (!LOOPBACK_HOSTS.has(new URL(env.SERVICE_BASE_URL).hostname)) {
    return 'SERVICE_ALLOW_REDIRECT_PORT is for the local sandbox only; SERVICE_BASE_URL points elsewhere.';
  }
  return null;
}
type Source = Record<string, string | undefined>;

const GENERATED_SECRETS = ['AUTH_SECRET', 'TOKEN_KEYS'] as const;

/** Development only: fill missing secrets from (or into) `<DATA_DIR>/dev-secrets.json`. */
function withDevelopmentSecrets(source: Source): Source {
  if (GENERATED_SECRETS.every((name) => source[name])) return source;
  const dataDir = source.DATA_DIR || '.data';
  const file = path.join(dataDir, 'dev-secrets.json');
  let stored: Record<string, string> = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // First run: generate below.
  }
  let changed = false;
  for (const name of GENERATED_SECRETS) {
    if (!stored[name]) {
      const secret = randomBytes(32).toString('base64url');
      stored[name] = name === 'TOKEN_KEYS' ? `1:${secret}` : secret;
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(dataDir, { recursive: true });
    const note = 'DEVELOPMENT ONLY. Generated by Setpoint for local use; never use in production.';
    writeFileSync(file, `${JSON.stringify({ _note: note, ...stored }, null, 2)}\n`, {
      mode: 0o600,
    });
  }
  const filled = { ...source };
  for (const name of GENERATED_SECRETS) filled[name] ||= stored[name];
  return filled;
}

const HOW_TO_FIX: Record<string, string> = {
  AUTH_SECRET: 'Generate one with `openssl rand -base64 32` and set AUTH_SECRET.',
  TOKEN_KEYS: 'Generate a key with `openssl rand -base64 32` and set TOKEN_KEYS=1:<key>.',
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseEnv(source: Source): Env {
  const production = source.NODE_ENV === 'production';
  const result = envSchema.safeParse(production ? source : withDevelopmentSecrets(source));
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'configuration');
    const fix = HOW_TO_FIX[name] ? ` ${HOW_TO_FIX[name]}` : '';
    return `- ${name}: ${issue.message}${fix}`;
  });
  throw new ConfigError(`Setpoint cannot start: invalid configuration.\n${lines.join('\n')}`);
}

let cached: Env | undefined;

/** The validated configuration of this process, read on first use (never at build time). */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
