import { Link } from '@/components/ui/link';
import { When } from '@/components/ui/when';
import type { IncidentRow } from '@/lib/notifications/store';
import {
  incidentPath,
  incidentSubject,
  incidentTitle,
  incidentWords,
  resolvedWords,
} from '@/lib/notifications/words';
import type { TemperatureUnit } from '@/lib/platform/units';

const SEVERITY = {
  urgent: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  warning: 'bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100',
  notice: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100',
} as const;

/** Incidents people were told of: open ones first, then those resolved lately. */
export function IncidentList({
  incidents,
  unit,
  now,
  scope,
  zone,
}: {
  incidents: IncidentRow[];
  unit: TemperatureUnit;
  now: Date;
  /** The reader's zone, for incidents of no building (a building's are in its zone). */
  zone: string;
  /** The reader's buildings (null: every building): a failed run reads as their share. */
  scope: readonly string[] | null;
}) {
  return (
    <ol aria-label="Incidents" className="divide-y divide-slate-100 dark:divide-slate-800">
      {incidents.map((incident) => {
        const open = incident.resolvedAt === null;
        const at = incident.timeZone ?? zone;
        return (
          <li key={incident.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:gap-4">
            <span
              className={`inline-flex w-fit shrink-0 justify-center self-start rounded-full px-2 py-0.5 text-xs font-semibold sm:w-24 ${open ? SEVERITY[incident.severity] : SEVERITY.notice}`}
            >
              {open ? 'Open' : 'Resolved'}
            </span>
            <div className="grid min-w-0 flex-1 gap-1 text-sm">
              <p className="flex flex-wrap items-baseline gap-x-2">
                <strong className="font-semibold">{incidentTitle(incident)}</strong>
                <Link
                  href={incidentPath(incident)}
                  prefetch={false}
                  className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                >
                  {incidentSubject(incident)}
                </Link>
              </p>
              <p className="text-slate-700 dark:text-slate-300">
                {open
                  ? incidentWords(incident, { unit, now, scope }).detail
                  : resolvedWords(incident)}
              </p>
              <p className="text-xs text-muted">
                Since <When at={incident.openedAt} zone={at} />
                {incident.resolvedAt ? (
                  <>
                    {' '}
                    · resolved <When at={incident.resolvedAt} zone={at} />
                  </>
                ) : null}
              </p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
