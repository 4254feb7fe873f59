import type { ServiceErrorKind } from '@/lib/service/errors';

/**
 * Telling a service-wide problem (an outage, a spent budget, an ended connection) from a few
 * thermostats that failed: the first is said once for the page, the second in their rows.
 */

/** Failures that are about the service or the connection, not about one thermostat. */
const SERVICE_WIDE: ReadonlySet<ServiceErrorKind> = new Set([
  'unavailable',
  'rate_limited',
  'reconnect',
  'unauthorized',
  'not_connected',
]);

export function isServiceWideKind(kind: ServiceErrorKind | string | null): boolean {
  return kind !== null && SERVICE_WIDE.has(kind as ServiceErrorKind);
}

/**
 * Whether `failed` service-wide failures among `attempted` reads mean the service itself is
 * not answering: more than half failed, and at least three (or all, when fewer were read).
 */
export function isServiceWide(failed: number, attempted: number): boolean {
  return attempted > 0 && failed * 2 > attempted && failed >= Math.min(3, attempted);
}

export type Verdict = { serviceWide: ServiceErrorKind | null };

/**
 * Watches a page's reads as they settle and answers, as soon as it is certain, whether their
 * failures are service-wide: when enough have failed that no later result can change it, or
 * when enough have not. `kindOf` says how one read ended (null: it read).
 */
export function watchReads<T>(
  reads: Promise<T>[],
  kindOf: (result: T) => ServiceErrorKind | null,
): Promise<Verdict> {
  const attempted = reads.length;
  if (attempted === 0) return Promise.resolve({ serviceWide: null });
  return new Promise((resolve) => {
    let failed = 0;
    let cleared = 0;
    let first: ServiceErrorKind | null = null;
    for (const read of reads) {
      read.then(
        (result) => {
          const kind = kindOf(result);
          if (isServiceWideKind(kind)) {
            failed += 1;
            first ??= kind;
          } else {
            cleared += 1;
          }
          // Certain once the failures are a service-wide share however the rest end, or once
          // they can no longer be.
          if (isServiceWide(failed, attempted)) resolve({ serviceWide: first });
          else if (!isServiceWide(attempted - cleared, attempted)) resolve({ serviceWide: null });
        },
        () => {
          cleared += 1;
          if (!isServiceWide(attempted - cleared, attempted)) resolve({ serviceWide: null });
        },
      );
    }
  });
}
