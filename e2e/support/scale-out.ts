import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import pg from 'pg';
import type { RunningSandbox } from '@/sandbox/src/server';

/**
 * Helpers for the scale-out spec: a scratch database on the test PostgreSQL server, a dump of
 * it, the own sandbox's control API, and every secret the sandbox handed out.
 */

const run = promisify(execFile);

export type ScratchDatabase = { name: string; url: string; drop(): Promise<void> };

/** A new, empty database on the server `serverUrl` names (TEST_DATABASE_URL). */
export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `setpoint_scale_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Runs one query against `url` and returns its rows. */
export async function query<T extends Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Debian's newest server binaries first (they match the server), then whatever is on PATH. */
function pgDumpBinary(): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(`${root}/${v}/bin/pg_dump`))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return `${root}/${versions[0]}/bin/pg_dump`;
  }
  return 'pg_dump';
}

/** The whole database as plain SQL (schema and every row), as an operator's backup holds it. */
export async function dumpDatabase(url: string): Promise<string> {
  const target = new URL(url);
  const { stdout } = await run(
    pgDumpBinary(),
    [
      '-h',
      target.hostname,
      '-p',
      target.port || '5432',
      '-U',
      decodeURIComponent(target.username) || 'postgres',
      '--no-password',
      target.pathname.slice(1),
    ],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  return stdout;
}

/** The control API of a sandbox started in this process. */
export async function control<T = Record<string, unknown>>(
  sandbox: RunningSandbox,
  method: string,
  route: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${sandbox.url}/_sandbox${route}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(response.ok, `sandbox control ${method} ${route}`).toBe(true);
  return (await response.json()) as T;
}

/** Calls to the token endpoint since the counts were last zeroed, under either of its paths. */
export async function tokenCalls(sandbox: RunningSandbox): Promise<number> {
  const { calls } = await control<{ calls: Record<string, number> }>(sandbox, 'GET', '/calls');
  return (calls['POST /token'] ?? 0) + (calls['GET /api/v2/token'] ?? 0);
}

/**
 * What must never appear in a log or a database dump: the sandbox's leak sentinels (substrings
 * of every credential it issues) and the raw value of every code and token it issued.
 */
export async function sandboxSecrets(sandbox: RunningSandbox) {
  const { sentinels } = await control<{ sentinels: Record<string, string> }>(
    sandbox,
    'GET',
    '/config',
  );
  const { context } = sandbox;
  return {
    sentinels: Object.values(sentinels),
    accessTokens: [...context.accessTokens.keys()],
    refreshTokens: [...context.refreshTokens.keys()],
    codes: [...context.codes.keys()],
  };
}

/** Every secret of `secrets` that occurs in `text`, named (never the value itself). */
export function leaksIn(text: string, secrets: Awaited<ReturnType<typeof sandboxSecrets>>) {
  const found: string[] = [];
  for (const sentinel of secrets.sentinels) {
    if (text.includes(sentinel)) found.push(`sentinel ${sentinel}`);
  }
  const raw = [
    ['access token', secrets.accessTokens],
    ['refresh token', secrets.refreshTokens],
    ['authorization code', secrets.codes],
  ] as const;
  for (const [label, values] of raw) {
    values.forEach((value, index) => {
      if (text.includes(value)) found.push(`${label} #${index + 1}`);
    });
  }
  return found;
}

/** React's escaping of text content, to find a value in server-rendered HTML. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#x27;');
}
