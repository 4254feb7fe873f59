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
