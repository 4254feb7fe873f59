import { Suspense } from 'react';
import { LocalTime } from '@/components/ui/local-time';
import type { ConnectionSummary } from '@/lib/oauth/connection';
import { ConnectForm } from './connect-form';

/** Shown on every page when the service connection needs the manager's attention. */
export function ConnectionBanner({ connection }: { connection: ConnectionSummary | null }) {
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
              <strong>Your thermostat service connection has ended.</strong> Reconnect to keep
              managing thermostats; you will come back to this page.
            </>
          ) : (
            <>
              <strong>Your thermostat service connection expires</strong>{' '}
              <LocalTime value={connection.refreshTokenExpiresAt.toISOString()} />. Reconnect before
              then to keep it.
            </>
          )}
        </p>
        <Suspense>
          <ConnectForm label="Reconnect" variant="secondary" />
        </Suspense>
      </div>
    </div>
  );
}
