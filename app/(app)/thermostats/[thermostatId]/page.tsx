import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { HistoryChart } from '@/components/charts/history-chart';
import { ServiceProblem } from '@/components/connection/service-problem';
import { ReadOnlyNotice } from '@/components/thermostat/read-only-notice';
import {
  MoveForm,
  RefreshWhilePending,
  RenameForm,
  ResidentModeForm,
} from '@/components/thermostat/thermostat-forms';
import { Card } from '@/components/ui/card';
import { ConfirmDisclosure } from '@/components/ui/confirm-disclosure';
import { Link } from '@/components/ui/link';
import { When } from '@/components/ui/when';
import { TermList } from '@/components/ui/term-list';
import { can } from '@/lib/auth/permissions';
import { findPendingMode } from '@/lib/attention/store';
import { listBuildings } from '@/lib/portfolio/store';
import { listReadings } from '@/lib/readings/store';
import { listUnitHistory } from '@/lib/portfolio/units';
import { comfortSettingNamed, mayBeShortened } from '@/lib/readings/comfort-name';
import { HISTORY_RANGES, parseHistoryRange } from '@/lib/readings/history';
import { parseStoredStatus, refreshReading } from '@/lib/readings/read';
import { listComfortSettings } from '@/lib/service/resources';
import type { ThermostatStatus } from '@/lib/service/schemas';
import { openThermostatPage } from '@/lib/access/thermostat-page';
import { formatDelta, formatTemperature, type TemperatureUnit } from '@/lib/platform/units';
import { equipmentNames, modeName } from '@/lib/platform/words';
import {
  changeResidentMode,
  moveToBuilding,
  removeFromPortfolio,
  renameThermostat,
} from './actions';
import { STATE_WORDS } from '@/lib/units/lifecycle';
import { unitPath } from '@/lib/units/paths';
import { findUnitOfThermostat } from '@/lib/units/store';

type Props = {
  params: Promise<{ thermostatId: string }>;
  searchParams: Promise<{ range?: string | string[] }>;
};

export const metadata: Metadata = { title: 'Thermostat' };

export default async function ThermostatPage({ params, searchParams }: Props) {
  const { member, thermostat } = await openThermostatPage(params);

  // The thermostat in front of a member is read now; if the service cannot answer, the page
  // shows what it last said, and when.
  const [stored] = await listReadings({
    scope: member,
    thermostatIds: [thermostat.thermostatId],
  });
  const last = stored ? parseStoredStatus(stored.status) : null;
  const on = { orgId: member.orgId, thermostatId: thermostat.thermostatId };
  const [reading, buildings, pendingMode, unit] = await Promise.all([
    refreshReading({
      ...on,
      priority: 'interactive',
      last: stored ? { status: last, readAt: stored.readAt } : undefined,
    }),
    listBuildings({ scope: member }),
    findPendingMode(on),
    findUnitOfThermostat({ scope: member, thermostatId: thermostat.thermostatId }),
  ]);
  // The status names the comfort setting in force, cut to 12 characters: only a name that long
  // may be a longer one's start, which the comfort settings then complete.
  const named = reading.status?.comfortSetting ?? null;
  const comfortSettings =
    named && mayBeShortened(named)
      ? await listComfortSettings({ ...on, priority: 'interactive' }).catch(() => null)
      : null;
  const offline = {
    lastConnectedAt: stored?.lastConnectedAt ?? null,
    offlineSince: stored?.offlineSince ?? null,
  };
  // The history after this read, so the chart ends with what the page shows.
  const range = parseHistoryRange((await searchParams).range);
  const now = Date.now();
  // The history of its unit: a thermostat that replaced another continues its chart.
  const history = await listUnitHistory({
    scope: member,
    thermostatId: thermostat.thermostatId,
    since: new Date(now - HISTORY_RANGES[range].ms),
  });
  // What to offer; the actions check again.
  const changes = can(member, 'change_thermostat', thermostat);
  const manages = can(member, 'manage_building', thermostat);
  const targets = buildings.filter((building) => can(member, 'manage_building', building));

  return (
    <div className="grid gap-6">
      <div className="grid items-start gap-6 lg:grid-cols-[2fr_1fr]">
        <Card className="grid content-start gap-4">
          <h2 className="text-lg font-medium">Status</h2>
          {!reading.ok && reading.status && reading.readAt ? (
            <>
              <ServiceProblem
                error={reading.error}
                member={member}
                tone="warning"
                lead="Could not read it just now."
              />
              <p className="text-sm text-muted">
                Below is what it said at{' '}
                <When at={reading.readAt} zone={thermostat.building?.timeZone} />.
              </p>
            </>
          ) : null}
          {reading.status ? (
            <StatusDetails
              status={reading.status}
              unit={member.temperatureUnit}
              comfortName={named ? comfortSettingNamed(named, comfortSettings ?? []) : '—'}
              pendingMode={
                pendingMode && pendingMode.mode !== reading.status.hvacMode ? pendingMode : null
              }
              offline={offline}
              zone={thermostat.building?.timeZone}
            />
          ) : (
            <ServiceProblem error={reading.ok ? null : reading.error} member={member} />
          )}
          <p className="border-t border-slate-200 pt-3 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
            The service lets no one set the HVAC mode or hold a temperature from here: the mode is
            chosen at the thermostat. The temperatures it aims for come from its{' '}
            <Link
              href={`/thermostats/${thermostat.thermostatId}/comfort-settings`}
              className="underline"
            >
              comfort settings
            </Link>
            , and which one applies when from its{' '}
            <Link href={`/thermostats/${thermostat.thermostatId}/schedule`} className="underline">
              schedule
            </Link>
            .
          </p>
        </Card>
        <div className="grid content-start gap-6">
          {unit ? (
            <Card className="grid gap-2">
              <h2 className="text-lg font-medium">Unit</h2>
              <p className="text-sm">
                {unit.label}: {STATE_WORDS[unit.occupancy.state].toLowerCase()}
                {unit.since ? (
                  <>
                    {' '}
                    since <When at={unit.since} zone={unit.timeZone} />
                  </>
                ) : null}
                .
              </p>
              <p className="text-sm">
                <Link href={unitPath(unit)} className="font-medium underline">
                  Occupancy and timeline of {unit.label}
                </Link>
              </p>
            </Card>
          ) : null}
          {reading.status && changes ? (
            <Card className="grid gap-3">
              <h2 className="text-lg font-medium">Resident mode</h2>
              <ResidentModeForm
                action={changeResidentMode.bind(null, thermostat.thermostatId)}
                isResidentMode={reading.status.isResidentMode}
              />
            </Card>
          ) : null}
          {manages && targets.length > 1 ? (
            <Card className="grid gap-3">
              <h2 className="text-lg font-medium">Building</h2>
              <MoveForm
                action={moveToBuilding.bind(null, thermostat.thermostatId)}
                currentBuildingId={thermostat.buildingId}
                buildings={targets.map(({ buildingId, name }) => ({ buildingId, name }))}
              />
            </Card>
          ) : null}
          {manages ? (
            <Card className="grid gap-3">
              <h2 className="text-lg font-medium">In Setpoint</h2>
              <RenameForm
                action={renameThermostat.bind(null, thermostat.thermostatId)}
                unitLabel={thermostat.unitLabel}
              />
              {can(member, 'manage_portfolio') ? (
                <div className="border-t border-slate-200 pt-3 dark:border-slate-800">
                  <ConfirmDisclosure
                    label="Remove from portfolio…"
                    confirm="Remove from portfolio"
                    action={removeFromPortfolio.bind(null, thermostat.thermostatId)}
                  >
                    Setpoint stops showing {thermostat.unitLabel || thermostat.thermostatId}. Its
                    unit stays, empty, with its occupancy, timeline and history (to put another
                    thermostat in it, use Replace on the unit’s page instead). The thermostat and
                    its settings at the service do not change; add it again by its id at any time.
                  </ConfirmDisclosure>
                </div>
              ) : null}
            </Card>
          ) : null}
          {changes ? null : <ReadOnlyNotice role={member.role} />}
        </div>
      </div>
      <Card>
        <HistoryChart
          points={history}
          range={range}
          now={now}
          addedAt={(unit?.knownSince ?? thermostat.createdAt).getTime()}
          unit={member.temperatureUnit}
          timeZone={thermostat.building?.timeZone ?? 'UTC'}
          path={`/thermostats/${thermostat.thermostatId}`}
        />
      </Card>
    </div>
  );
}

/** Fields shown above in words, whose codes the details disclosure keeps for a technician. */
const CODED = ['hvacMode', 'comfortSetting', 'runningEquipment'] as const;

function StatusDetails({
  status,
  unit,
  comfortName,
  pendingMode,
  offline,
  zone,
}: {
  status: ThermostatStatus;
  unit: TemperatureUnit;
  comfortName: string;
  /** A mode Setpoint asked for that the status does not show yet, and since when. */
  pendingMode: { mode: string; since: Date } | null;
  /** When Setpoint last saw it connected, and first saw it offline since. */
  offline: { lastConnectedAt: Date | null; offlineSince: Date | null };
  /** The building's zone, for the times. */
  zone: string | undefined;
}) {
  const delta = status.heatCoolMinDelta;
  const offlineSince = offline.lastConnectedAt ?? offline.offlineSince;
  const rows: [string, ReactNode][] = [
    ['Temperature', formatTemperature(status.temperature, unit)],
    ['Humidity', status.humidity === null ? '—' : `${status.humidity} %`],
    [
      'HVAC mode',
      <span key="mode">
        {modeName(status.hvacMode)}
        {pendingMode ? (
          <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-50">
            changing to {modeName(pendingMode.mode)}…
          </span>
        ) : null}
      </span>,
    ],
    ['Heat setpoint', formatTemperature(status.setPoint.desiredHeat, unit)],
    ['Cool setpoint', formatTemperature(status.setPoint.desiredCool, unit)],
    ['Minimum heat–cool gap', formatDelta(delta, unit)],
    ['Resident mode', status.isResidentMode ? 'On' : 'Off'],
    ['Comfort setting now', comfortName],
    ['Equipment running', equipmentNames(status.runningEquipment)],
    [
      'Connection',
      status.connected === false ? (
        <span key="c" className="text-caution">
          Offline
          {offlineSince ? (
            <>
              {offline.lastConnectedAt ? ' since ' : ' since at least '}
              <When at={offlineSince} zone={zone} />
            </>
          ) : null}
        </span>
      ) : status.connected === true ? (
        'Online'
      ) : (
        '—'
      ),
    ],
  ];
  return (
    <>
      <RefreshWhilePending pending={pendingMode !== null} />
      <TermList rows={rows} className="grid gap-x-6 gap-y-2 text-sm grid-cols-[max-content_1fr]" />
      {/* The service's own codes, for a technician (or a support call). */}
      <details className="text-sm">
        <summary className="cursor-pointer text-muted">As the service reports it</summary>
        <dl className="mt-2 grid gap-x-6 gap-y-2 grid-cols-[max-content_1fr]">
          {CODED.map((key) => (
            <div key={key} className="contents">
              <dt className="font-mono text-xs text-muted">{key}</dt>
              <dd className="font-mono text-xs break-all">{JSON.stringify(status[key])}</dd>
            </div>
          ))}
        </dl>
      </details>
    </>
  );
}
