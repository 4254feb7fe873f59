import { RunActionForm } from '@/components/runs/run-action-form';
import {
  Confirmed,
  ProgressCard,
  RunHeader,
  RunItems,
  type RunPageParts,
} from '@/components/runs/run-parts';
import { Link } from '@/components/ui/link';
import { can } from '@/lib/auth/permissions';
import { listRetryable } from '@/lib/bulk/runs';
import { listBulkRuns } from '@/lib/runs/store';
import { changesInWords, thermostatCount } from '@/lib/runs/words';
import type { SettingsChanges } from '@/lib/service/resources';

/**
 * A configuration change's run: the same settings to every thermostat, applied at once. Besides
 * what every run shows, Retry of the thermostats that failed or were not sent once it has
 * finished (a new run), and the retries made of it.
 */
export async function ConfigurationRun(parts: RunPageParts) {
  const { member, run, progress, view, actions } = parts;
  const [retries, retryable] = await Promise.all([
    listBulkRuns({ scope: member, retryOf: run.id }),
    progress.finished && can(member, 'change_thermostat') ? listRetryable(member, run) : [],
  ]);
  const words = changesInWords(run.changes as SettingsChanges, member.temperatureUnit);
  return (
    <>
      <RunHeader
        member={member}
        run={run}
        back={{ href: '/bulk', label: '← Bulk changes' }}
        planned={false}
        words={words}
      >
        {run.retryOf ? (
          <>
            {' '}
            A retry of the failed ones of{' '}
            <Link href={`/bulk/runs/${run.retryOf}`} className="underline">
              an earlier run
            </Link>
            .
          </>
        ) : null}
      </RunHeader>
      <ProgressCard
        run={run}
        progress={progress}
        view={view}
        member={member}
        cancel={actions.cancel}
        skipped={false}
      >
        {retryable.length > 0 ? (
          <Confirmed
            view={view}
            step="retry"
            ask={{
              label: `Retry the ${retryable.length} that did not apply…`,
              variant: 'primary',
            }}
            question={
              <>
                Apply to {thermostatCount(retryable.length)} again? The same change (
                {words.join('; ')}) goes to the ones that failed or were not sent, as a new run.
              </>
            }
          >
            <RunActionForm
              action={actions.retry}
              label={`Retry ${thermostatCount(retryable.length)}`}
              pending="Starting…"
            />
          </Confirmed>
        ) : null}
        {retries.length > 0 ? (
          <p className="text-sm">
            Retried in{' '}
            {retries.map((retry, index) => (
              <span key={retry.id}>
                {index > 0 ? ', ' : ''}
                <Link href={`/bulk/runs/${retry.id}`} className="underline">
                  a run of {thermostatCount(retry.total)}
                </Link>
              </span>
            ))}
            .
          </p>
        ) : null}
      </ProgressCard>
      <RunItems view={view} items={parts.items} />
    </>
  );
}
