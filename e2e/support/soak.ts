import { expect, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';

/**
 * Helpers for the fault soak (e2e/fault-soak.spec.ts): plain-HTTP page views classified by what
 * a manager would see, the activity log read back from its page, and the sandbox's control API
 * of a stack of the spec's own.
 */

/** The app's error boundaries and Next's own crash screens, as they read on the page. */
export const ERROR_PAGE_TEXT = [
  'Something went wrong on this page',
  'This section could not be shown',
  'Setpoint is having trouble',
  'Application error: a client-side exception',
  'Internal Server Error',
];

/** How a view looked: fine, fine but saying the service is unavailable, or broken. */
export type ViewOutcome =
  | 'ok'
  | 'degraded'
  | 'server_error'
  | 'error_page'
  | 'signed_out'
  | 'not_found'
  | 'hang';

export const BROKEN_VIEWS: ViewOutcome[] = [
  'server_error',
  'error_page',
  'signed_out',
  'not_found',
  'hang',
];

/** The sentences the app uses for an unavailable or busy service (lib/service/errors.ts). */
const DEGRADED_TEXT =
  /not responding right now|service is busy|could not read|Could not read|Try again later|must reconnect it/;

/** A server-side render error that reached the page: React's digest of an error boundary. */
const RENDER_ERROR = /data-dgst="\d+"|\\"digest\\":\\"\d+\\"|"digest":"\d+"/;

export type ViewResult = { path: string; outcome: ViewOutcome; status: number; ms: number };

/** GETs one page as the signed-in manager and classifies what came back. */
export async function viewPage(
  origin: string,
  path: string,
  cookie: string,
  timeoutMs = 60_000,
): Promise<ViewResult & { body: string }> {
  const started = Date.now();
  let status = 0;
  let body = '';
  try {
    const response = await fetch(`${origin}${path}`, {
      headers: { cookie, accept: 'text/html' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    body = await response.text();
  } catch {
    return { path, outcome: 'hang', status, ms: Date.now() - started, body };
  }
  const ms = Date.now() - started;
  let outcome: ViewOutcome;
  if (status >= 500) outcome = 'server_error';
  else if (status >= 300 && status < 400) outcome = 'signed_out';
  else if (status === 404) outcome = 'not_found';
  else if (ERROR_PAGE_TEXT.some((text) => body.includes(text)) || RENDER_ERROR.test(body))
    outcome = 'error_page';
  else if (DEGRADED_TEXT.test(visibleText(body))) outcome = 'degraded';
  else outcome = 'ok';
  return { path, outcome, status, ms, body };
}

/** The text of an HTML page without scripts, styles and tags. */
export function visibleText(html: string): string {
  return decodeEntities(
    html
      .replace(/<script[\s\S]*?<\/script>/g, ' ')
      .replace(/<style[\s\S]*?<\/style>/g, ' ')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** `failed`: not done (failed, or perhaps applied where the service's answer was lost). */
export type ActivityRow = {
  text: string;
  failed: boolean;
  perhaps: boolean;
  changes: Record<string, unknown>;
};

/**
 * The rows of the activity log's CSV export (what the page shows, with the recorded changes from
 * its JSON column: the page and the details column say them in words).
 */
export function activityRows(csv: string): ActivityRow[] {
  const records = parse(csv.replace(/^\uFEFF/, ''), {
    columns: true,
    relax_column_count: true,
  }) as Record<string, string>[];
  return records.map((record) => {
    const recorded = record['recorded (JSON)'];
    const changes: Record<string, unknown> = recorded ? JSON.parse(recorded) : {};
    return {
      text: `${record.summary ?? ''} ${record.error ?? ''}`,
      failed: record.outcome === 'failed' || record.outcome === 'unconfirmed',
      perhaps: record.outcome === 'unconfirmed',
      changes,
    };
  });
}

/** The sandbox's control API of the spec's own sandbox. */
export function controlOf(sandboxUrl: string) {
  return async function control<T = Record<string, unknown>>(
    method: string,
    route: string,
    body?: unknown,
  ): Promise<T> {
    const response = await fetch(`${sandboxUrl}/_sandbox${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.ok, `sandbox control ${method} ${route}`).toBe(true);
    return (await response.json()) as T;
  };
}

/** Whether a Playwright page shows one of the error screens. */
export async function showsErrorScreen(page: Page): Promise<string | null> {
  for (const text of ERROR_PAGE_TEXT) {
    if (await page.getByText(text).first().isVisible()) return text;
  }
  return null;
}

/** Counts by key, for the printed summary. */
export function tally<T extends string>(items: Iterable<T>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
