import type { serviceConnections } from '@/lib/db/schema';

/** Why a connection needs reconnecting, as stored with it (lib/db/schema.ts). */
export type ConnectionEndedReason = NonNullable<
  (typeof serviceConnections.$inferSelect)['endedReason']
>;

const ENDED: Record<ConnectionEndedReason, string> = {
  refresh_refused:
    'The service no longer accepts this connection: it would not renew Setpoint’s access, because the approval given at the service expired or was withdrawn there.',
  tokens_unreadable:
    'Setpoint can no longer use this connection: the access it saved cannot be read (the key it was stored with was removed from the server).',
};

/**
 * The one place a connection's end becomes the sentence a manager reads: plain words, never the
 * service's codes. A connection that ended before its reason was kept gets the general words.
 */
export function connectionEndedInWords(reason: ConnectionEndedReason | null): string {
  return reason ? ENDED[reason] : 'The service no longer accepts this connection.';
}

/** Told once, by the request that found it, that the service ended an organisation's connection. */
type EndListener = (orgId: string, reason: ConnectionEndedReason) => Promise<void>;
// On globalThis: Next.js loads start-up (which registers the listener) and the routes (which find
// the end) as separate bundles of one process.
const listening = globalThis as typeof globalThis & { __setpointConnectionEnded?: EndListener };

/**
 * Who is told when a connection ends. The service tier records the end on the connection; the
 * activity log, a tier above, listens (lib/activity/sink.ts, registered at start-up).
 */
export function onConnectionEnded(listener: EndListener): void {
  listening.__setpointConnectionEnded = listener;
}

export async function tellConnectionEnded(
  orgId: string,
  reason: ConnectionEndedReason,
): Promise<void> {
  await listening.__setpointConnectionEnded?.(orgId, reason);
}

const isReason = (value: unknown): value is ConnectionEndedReason =>
  typeof value === 'string' && Object.hasOwn(ENDED, value);

/** What a "connection ended" activity entry stores: the reason, never the service's text. */
export const connectionEndChanges = (reason: ConnectionEndedReason) => ({ endedReason: reason });

/**
 * A "connection ended" activity entry's details as a member reads them (the page and the CSV
 * export): its reason in words. An entry written before the reason was kept holds the refresh's
 * error text, service code and all ("Refresh refused (invalid_grant)"): its reason is told from
 * how Setpoint began that text, and the text itself is never shown.
 */
export function connectionEndChangesInWords(changes: Record<string, unknown>): {
  reason: string;
} {
  const text = typeof changes.reason === 'string' ? changes.reason : '';
  const reason = isReason(changes.endedReason)
    ? changes.endedReason
    : text.startsWith('Refresh refused')
      ? 'refresh_refused'
      : text.startsWith('Stored tokens unreadable')
        ? 'tokens_unreadable'
        : null;
  return { reason: connectionEndedInWords(reason) };
}
