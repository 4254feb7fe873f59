import { Link } from '@/components/ui/link';
import { When } from '@/components/ui/when';
import { dateIn, type Severity, severityOf } from '@/lib/attention/conditions';
import type { ListedItem } from '@/lib/attention/list';
import { replanHref } from '@/lib/attention/query';
import { describeItem } from '@/lib/attention/words';
import { unitPath } from '@/lib/units/paths';
import type { FormAction } from '@/lib/platform/forms';
import type { TemperatureUnit } from '@/lib/platform/units';
import { RecordMaintenanceForm } from './record-maintenance-form';

const SEVERITY: Record<Severity, { label: string; className: string }> = {
  urgent: {
    label: 'Urgent',
    className: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  },
  warning: {
    label: 'Warning',
    className: 'bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100',
  },
  notice: {
    label: 'Notice',
    className: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100',
  },
};

/** The moment worth stating exactly beside an item, in the reader's zone. */
function momentOf(item: ListedItem): { label: string; at: Date } | null {
  switch (item.kind) {
    case 'offline':
      if (!item.since) return null;
      return {
        label: item.seen === false ? 'Offline since at least' : 'Last seen',
        at: item.since,
      };
    case 'too_cold':
    case 'too_hot':
      return { label: item.orEarlier ? 'Since before' : 'Since', at: item.since };
    case 'mode_pending':
      return { label: 'Since', at: item.since };
    case 'failed_writes':
      return { label: 'Last failure', at: item.last.at };
    case 'stale':
      return item.readAt ? { label: 'Last read', at: item.readAt } : null;
    case 'connection_expiring':
      return { label: 'Expires', at: item.expiresAt };
    case 'template_drift':
      return item.since ? { label: 'First found', at: item.since } : null;
    case 'vacant_unsettled':
      return item.since ? { label: 'Since', at: item.since } : null;
    default:
      return null;
  }
}

/** Where an item leads: its thermostat, or the connection page for the connection's own. */
function linkOf(item: ListedItem): { href: string; text: string } {
  if (item.thermostatId === null) return { href: '/connection', text: 'Service connection' };
  // A unit's own item leads to the unit, where its settings are applied again.
  if (item.kind === 'vacant_unsettled' || item.kind === 'move_out_passed') {
    return { href: unitPath({ id: item.unitId }), text: item.label ?? item.thermostatId };
  }
  return { href: `/thermostats/${item.thermostatId}`, text: item.label ?? item.thermostatId };
}

/**
 * The one click that deals with a drifted thermostat: its template planned again on it (planning
 * only reads; the plan's page then offers Apply). Offered to those who may change it.
 */
function replanOf(
  item: ListedItem,
  mayChange: (buildingId: string) => boolean,
): { href: string; text: string } | null {
  if (item.kind !== 'template_drift' || !mayChange(item.buildingId)) return null;
  return { href: replanHref(item), text: `Plan again with “${item.templateName}”` };
}

/**
 * Maintenance due or overdue is dealt with in place: the day it was done, recorded at the
 * thermostat. Offered to those who may change it.
 */
function recordOf(
  item: ListedItem,
  mayChange: (buildingId: string) => boolean,
  recordFor: ((thermostatId: string) => FormAction<'date'>) | undefined,
  now: Date,
) {
  if (item.kind !== 'maintenance_due' && item.kind !== 'maintenance_overdue') return null;
  if (!recordFor || !mayChange(item.buildingId)) return null;
  return {
    action: recordFor(item.thermostatId),
    thermostatId: item.thermostatId,
    label: item.label ?? item.thermostatId,
    today: dateIn(item.timeZone ?? 'UTC', now),
  };
}

/** Items needing attention, most urgent first, each leading to where it can be dealt with. */
export function AttentionList({
  items,
  unit,
  now,
  mayChange = () => false,
  recordFor,
  zone,
}: {
  items: ListedItem[];
  unit: TemperatureUnit;
  now: Date;
  /** The reader's zone, for items of no building (a thermostat's are in its building's zone). */
  zone: string;
  /** Whether the reader may change thermostats of this building (for the items' own actions). */
  mayChange?: (buildingId: string) => boolean;
  /** The bound "Record maintenance done" action for a thermostat, where the page offers it. */
  recordFor?: (thermostatId: string) => FormAction<'date'>;
}) {
  return (
    <ol
      aria-label="Items needing attention"
      className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
    >
      {items.map((item) => {
        const words = describeItem(item, { unit, now });
        const severity = SEVERITY[severityOf(item)];
        const link = linkOf(item);
        const moment = momentOf(item);
        const replan = replanOf(item, mayChange);
        const record = recordOf(item, mayChange, recordFor, now);
        return (
          <li
            key={`${item.kind}:${item.thermostatId ?? 'organisation'}`}
            className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start sm:gap-4"
          >
            <span
              className={`inline-flex w-fit shrink-0 justify-center rounded-full px-2 py-0.5 text-xs font-semibold sm:w-20 ${severity.className}`}
            >
              {severity.label}
            </span>
            <div className="grid min-w-0 flex-1 gap-1">
              <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                <strong className="font-semibold">{words.title}</strong>
                <Link
                  href={link.href}
                  prefetch={false}
                  className="font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                >
                  {link.text}
                </Link>
                {item.buildingName ? <span className="text-muted">{item.buildingName}</span> : null}
              </p>
              <p className="text-sm text-slate-700 dark:text-slate-300">{words.detail}</p>
              {moment ? (
                <p className="text-xs text-muted">
                  {moment.label} <When at={moment.at} zone={item.timeZone ?? zone} />
                </p>
              ) : null}
              {replan ? (
                <p className="text-sm">
                  <Link
                    href={replan.href}
                    prefetch={false}
                    className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-100"
                  >
                    {replan.text}
                  </Link>
                </p>
              ) : null}
              {record ? <RecordMaintenanceForm {...record} /> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
