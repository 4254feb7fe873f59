import { Suspense } from 'react';
import { When } from '@/components/ui/when';
import type { ConnectionSummary } from '@/lib/service/connection/connection';
import { ConnectForm } from './connect-form';

/**
 * Shown to every member on every page when the organisation's service connection needs
 * attention; only those who may reconnect it get the button.
 */
export function ConnectionBanner({
  connection,
  canReconnect,
  zone,
}: {
  connection: ConnectionSummary | null;
  canReconnect: boolean;
  /** The member's zone, for the time. */
  zone: string;
}) {
  if (!connection) return null;
  const reconnect = connection.status === 'reconnect';
  if (!reconnect && !connection.refreshTokenExpiresSoon) return null;
  return (
    <div
      role="status"
      className="border-b border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-50"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 text-sm sm:px-6">
        <p className="flex-1">
          {reconnect ? (
            <>
              <strong>The thermostat service connection has ended.</strong>{' '}
              {canReconnect
                ? 'Reconnect to keep managing thermostats; you will come back to this page.'
                : 'Thermostats cannot be read or changed until an owner or admin reconnects it.'}
            </>
          ) : (
            <>
              <strong>The thermostat service connection expires</strong>{' '}
              <When at={connection.refreshTokenExpiresAt} zone={zone} />.{' '}
              {canReconnect
                ? 'Reconnect before then to keep it.'
                : 'An owner or admin must reconnect before then.'}
            </>
          )}
        </p>
        {canReconnect ? (
          <Suspense>
            <ConnectForm label="Reconnect" variant="secondary" />
          </Suspense>
        ) : null}
      </div>
    </div>
  );
}
