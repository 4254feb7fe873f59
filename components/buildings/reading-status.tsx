import { Suspense } from 'react';
import { ServiceProblem } from '@/components/connection/service-problem';
import { Notice } from '@/components/ui/notice';
import type { Member } from '@/lib/auth/store';
import type { BuildingRowsSummary } from '@/lib/readings/store';
import type { BuildingPage, ReadsPaused } from '@/lib/readings/rows';
import { describeServiceError, ServiceError, type ServiceErrorKind } from '@/lib/service/errors';

/**
 * The table's status line (how many thermostats, how many could not be read, which rows are
 * shown), and, once for the whole page, why readings are not fresh when the reason is the
 * service or the connection rather than a few thermostats. While rows are read again it says
 * so, then streams in what came of it.
 */
export function ReadingStatus({
  data,
  shown,
  member,
  attention = 0,
}: {
  data: Pick<
    BuildingPage,
    'summary' | 'reading' | 'paused' | 'storedServiceWide' | 'verdict' | 'settled'
  >;
  /** Rows on this page, and the first one's position. */
  shown: { from: number; count: number };
  /** Who is looking (a notice of the ended connection offers to reconnect to those who may). */
  member: Member;
  /** How many of the building's thermostats need attention. */
  attention?: number;
}) {
  const initial = (
    <StatusView
      attention={attention}
      member={member}
      summary={data.summary}
      reading={data.reading}
      problem={data.paused ?? (data.storedServiceWide ? 'unavailable' : null)}
      shown={shown}
    />
  );
  if (data.reading === 0) return initial;
  return (
    <Suspense fallback={initial}>
      <SettledStatus data={data} shown={shown} member={member} attention={attention} />
    </Suspense>
  );
}

async function SettledStatus({
  data,
  shown,
  member,
  attention,
}: {
  data: Pick<BuildingPage, 'verdict' | 'settled'>;
  shown: { from: number; count: number };
  member: Member;
  attention: number;
}) {
  const [verdict, summary] = await Promise.all([data.verdict, data.settled]);
  return (
    <StatusView
      attention={attention}
      summary={summary}
      reading={0}
      problem={verdict.serviceWide}
      shown={shown}
      member={member}
    />
  );
}

function StatusView({
  summary,
  reading,
  problem,
  shown,
  member,
  attention,
}: {
  summary: BuildingRowsSummary;
  reading: number;
  problem: ServiceErrorKind | ReadsPaused | null;
  shown: { from: number; count: number };
  member: Member;
  attention: number;
}) {
  const { total, matching, failing, offline } = summary;
  const counts = [
    `${total} thermostat${total === 1 ? '' : 's'}`,
    // In an outage the notice says it once; counting every row as failed would say it again.
    failing && !problem ? `${failing} could not be read` : null,
    offline ? `${offline} offline` : null,
    attention ? `${attention} need${attention === 1 ? 's' : ''} attention` : null,
  ].filter(Boolean);
  const range =
    matching === 0
      ? 'none match'
      : shown.count < matching
        ? `showing ${shown.from}–${shown.from + shown.count - 1} of ${matching}`
        : matching < total
          ? `showing ${matching}`
          : null;
  return (
    <div className="grid gap-2">
      {problem === 'reconnect' || problem === 'unauthorized' ? (
        <ServiceProblem
          error={new ServiceError(problem)}
          member={member}
          tone="warning"
          lead="Setpoint cannot read these thermostats."
          trail={LAST_KNOWN}
        />
      ) : problem ? (
        <Notice tone="warning">{problemSentence(problem)}</Notice>
      ) : null}
      <p role="status" className="text-sm text-muted">
        {counts.join(', ')}
        {range ? ` · ${range}` : ''}
        {reading ? ` · reading ${reading} again…` : ''}
      </p>
    </div>
  );
}

const LAST_KNOWN = 'Each row shows what Setpoint last knew, and how long ago it read it.';

function problemSentence(problem: ServiceErrorKind | ReadsPaused): string {
  if (problem === 'not_connected') {
    return `Setpoint cannot read these thermostats until the service account is connected. ${LAST_KNOWN}`;
  }
  return `${describeServiceError(new ServiceError(problem))} ${LAST_KNOWN}`;
}
