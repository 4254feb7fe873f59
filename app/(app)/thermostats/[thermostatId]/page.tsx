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
import { LocalTime } from '@/components/ui/local-time';
import { can } from '@/lib/auth/permissions';
import { listBuildings } from '@/lib/db/queries';
import { listHistory, listReadings } from '@/lib/db/readings';
import { HISTORY_RANGES, parseHistoryRange } from '@/lib/readings/history';
import { parseStoredStatus, refreshReading } from '@/lib/readings/read';
import { describeHoldAction } from '@/lib/settings/configuration';
import { listComfortSettings } from '@/lib/thermostat-api/resources';
import type { ThermostatStatus } from '@/lib/thermostat-api/schemas';
import { openThermostatPage } from '@/lib/thermostat-page';
import { formatDelta, formatTemperature, type TemperatureUnit } from '@/lib/units';
import { equipmentNames, modeName } from '@/lib/words';
import {
  changeResidentMode,
  moveToBuilding,
  removeFromPortfolio,
  renameThermostat,
} from './actions';

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
  const [reading, buildings, comfortSettings] = await Promise.all([
    refreshReading({
      ...on,
      priority: 'interactive',
      last: stored ? { status: last, readAt: stored.readAt } : undefined,
    }),
    listBuildings({ scope: member }),
    // The status names the comfort setting in force only by its ref (`smart1`): its name comes
    // from the comfort settings, read beside the status so that it is in the first HTML (and
    // so without JavaScript), at the status's priority since the page now waits for both. Not
    // while a mode change is pending, when the page reloads itself.
    last && modeChangePending(last)
      ? null
      : listComfortSettings({ ...on, priority: 'interactive' }).catch(() => null),
  ]);
  // The history after this read, so the chart ends with what the page shows.
  const range = parseHistoryRange((await searchParams).range);
  const now = Date.now();
  const history = await listHistory({
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
                Below is what it said at <LocalTime value={reading.readAt.toISOString()} />.
              </p>
            </>
          ) : null}
          {reading.status ? (
            <StatusDetails
              status={reading.status}
              unit={member.temperatureUnit}
              comfortName={comfortNameOf(reading, comfortSettings)}
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
                    Setpoint stops showing {thermostat.unitLabel || thermostat.thermostatId} and
                    forgets its readings. The thermostat and its settings at the service do not
                    change; add it again by its id at any time.
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
          unit={member.temperatureUnit}
          timeZone={thermostat.building?.timeZone ?? 'UTC'}
          path={`/thermostats/${thermostat.thermostatId}`}
        />
      </Card>
    </div>
  );
}

const SHOWN = new Set([
  'thermostatId',
  'name',
  'buildingId',
  'hvacMode',
  'pendingHvacMode',
  'supportedModes',
  'temperature',
  'humidity',
  'isResidentMode',
  'setPoint',
  'heatCoolMinDelta',
  'currentComfortSettingRef',
  'holdAction',
  'equipmentStatus',
  'connected',
  'lastSeen',
]);

/** Fields shown above in words, whose codes the details disclosure keeps. */
const CODED = [
  'hvacMode',
  'pendingHvacMode',
  'supportedModes',
  'holdAction',
  'currentComfortSettingRef',
  'equipmentStatus',
] as const;

/**
 * The comfort setting in force by its name, as the comfort settings page calls it; its ref where
 * the name is not known (the settings could not be read, or the status is not fresh).
 */
function comfortNameOf(
  reading: { ok: boolean; status: ThermostatStatus | null },
  settings: { comfortSettingRef: string; name: string }[] | null,
): string {
  const { status } = reading;
  const ref = status?.currentComfortSettingRef;
  if (!status || !ref) return '—';
  if (!reading.ok || !settings || modeChangePending(status)) return ref;
  return settings.find((setting) => setting.comfortSettingRef === ref)?.name ?? ref;
}

function modeChangePending(status: ThermostatStatus): boolean {
  return Boolean(status.pendingHvacMode && status.pendingHvacMode !== status.hvacMode);
}

function StatusDetails({
  status,
  unit,
  comfortName,
}: {
  status: ThermostatStatus;
  unit: TemperatureUnit;
  comfortName: string;
}) {
  const pending = modeChangePending(status) ? (status.pendingHvacMode ?? null) : null;
  const delta = status.heatCoolMinDelta;
  const rows: [string, ReactNode][] = [
    ['Temperature', formatTemperature(status.temperature, unit)],
    [
      'Humidity',
      status.humidity === null || status.humidity === undefined ? '—' : `${status.humidity} %`,
    ],
    [
      'HVAC mode',
      <span key="mode">
        {modeName(status.hvacMode)}
        {pending ? (
          <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-50">
            changing to {modeName(pending)}…
          </span>
        ) : null}
      </span>,
    ],
    ['Supported modes', status.supportedModes?.map((mode) => modeName(mode)).join(', ') ?? '—'],
    ['Heat setpoint', formatTemperature(status.setPoint.desiredHeat, unit)],
    ['Cool setpoint', formatTemperature(status.setPoint.desiredCool, unit)],
    ['Minimum heat–cool gap', delta === undefined ? '—' : formatDelta(delta, unit)],
    ['Resident mode', status.isResidentMode ? 'On' : 'Off'],
    ['Comfort setting now', comfortName],
    ['Hold action', status.holdAction ? describeHoldAction(status.holdAction) : '—'],
    ['Equipment running', equipmentNames(status.equipmentStatus)],
    [
      'Connection',
      status.connected === false ? (
        <span key="c" className="text-caution">
          Offline{status.lastSeen ? ' since ' : ''}
          {status.lastSeen ? <LocalTime value={status.lastSeen} /> : null}
        </span>
      ) : (
        'Online'
      ),
    ],
    ['Name at the service', status.name || '—'],
  ];
  const technical = [
    ...CODED.map((key) => [key, status[key] ?? null] as const),
    ...Object.entries(status).filter(([key]) => !SHOWN.has(key)),
  ];
  return (
    <>
      <RefreshWhilePending pending={pending !== null} />
      <dl className="grid gap-x-6 gap-y-2 text-sm grid-cols-[max-content_1fr]">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-muted">{term}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      {/* The service's own codes, for a technician (or a support call). */}
      <details className="text-sm">
        <summary className="cursor-pointer text-muted">As the service reports it</summary>
        <dl className="mt-2 grid gap-x-6 gap-y-2 grid-cols-[max-content_1fr]">
          {technical.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="font-mono text-xs text-muted">{key}</dt>
              <dd className="font-mono text-xs break-all">{JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      </details>
    </>
  );
}
