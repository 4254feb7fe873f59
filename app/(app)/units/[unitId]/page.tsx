import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { EditUnitForm } from '@/components/units/edit-unit-form';
import { OccupancyForm } from '@/components/units/occupancy-form';
import { ReplaceThermostatForm } from '@/components/units/replace-form';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { type Column, ResultTable } from '@/components/ui/result-table';
import { TermList } from '@/components/ui/term-list';
import { Trail } from '@/components/ui/trail';
import { When } from '@/components/ui/when';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { formatDayOfWeek, formatMoment, todayIn } from '@/lib/platform/time-format';
import { timeZoneName } from '@/lib/platform/words';
import {
  EVENT_WORDS,
  eventsFor,
  nextStepOf,
  SAME_STATE_WORDS,
  STATE_WORDS,
  type UnitEventName,
  type UnitStateName,
} from '@/lib/units/lifecycle';
import { buildingUnitsPath, unitIdSchema, unitPath } from '@/lib/units/paths';
import { policyView } from '@/lib/units/manage-policies';
import { DEFAULT_TEMPLATE_NAMES } from '@/lib/units/policies';
import { Notice } from '@/components/ui/notice';
import { settingsOfUnits, settingsWords, type UnitSettings } from '@/lib/units/settings';
import { listUnitSteps, type UnitStepRow } from '@/lib/units/scheduled';
import { listUnitThermostats } from '@/lib/portfolio/units';
import { listIncidents } from '@/lib/notifications/store';
import { IncidentList } from '@/components/notifications/incident-list';
import { runPath } from '@/lib/runs/requests';
import { listRunsOn } from '@/lib/runs/store';
import { runStatus } from '@/lib/runs/words';
import { ConfirmStep } from '@/components/runs/run-parts';
import { RunActionForm } from '@/components/runs/run-action-form';
import { buttonClass } from '@/components/ui/button';
import { findUnit, listUnitEvents, type UnitEventRow } from '@/lib/units/store';
import { applySettingsAction, recordOccupancy, replaceThermostatAction, saveUnit } from './actions';

/** An occupancy run's page (its section's path; lib/runs/requests.ts `runPath`). */
const occupancyRunPath = (runId: string) => runPath({ id: runId, kind: 'occupancy', changes: {} });

const STEP_WORDS: Record<UnitStepRow['step'], string> = {
  prepare: 'Occupied comfort applied ahead',
  move_in: 'Move-in recorded; resident mode on',
};

const STEP_STATE_WORDS: Record<UnitStepRow['state'], string> = {
  pending: 'Scheduled',
  done: 'Done',
  cancelled: 'Cancelled (the move-in was moved, cancelled or recorded)',
};

/** A scheduled move-in's steps: when, what, how it went, and its run. */
function stepColumns(zone: string): Column<UnitStepRow>[] {
  return [
    { header: 'When', cell: (row) => <When at={row.dueAt} zone={zone} /> },
    { header: 'Step', names: true, cell: (row) => STEP_WORDS[row.step] },
    {
      header: 'State',
      cell: (row) =>
        row.state === 'done' && row.result ? `Done: ${row.result}` : STEP_STATE_WORDS[row.state],
    },
    {
      header: 'Run',
      cell: (row) =>
        row.runId ? (
          <Link href={occupancyRunPath(row.runId)} className="underline">
            The run
          </Link>
        ) : (
          ''
        ),
    },
  ];
}

/** Whether applying a state's policy again may reset the thermostat (said before it is asked). */
function settingsResetWarning(state: UnitStateName): string {
  return state === 'vacant' || state === 'make_ready'
    ? ' (turning resident mode off, where it is on, resets the thermostat first)'
    : '';
}

/** The unit's thermostat settings as its latest run found them, with the run. */
function SettingsCell({
  settings,
  state,
  zone,
}: {
  settings: UnitSettings;
  state: UnitStateName;
  zone: string;
}) {
  const words = settingsWords(settings, state);
  if (settings.status === 'unknown') return <>{words}</>;
  return (
    <span>
      <span className={settings.status === 'differs' ? 'font-medium text-danger' : undefined}>
        {words}
      </span>
      {settings.status === 'matches' ? (
        <>
          {' '}
          (checked <When at={settings.at} zone={zone} />)
        </>
      ) : null}
      {settings.status === 'changed' ? (
        <>
          {' '}
          (changed <When at={settings.changedAt} zone={zone} />
          {settings.by ? ` by ${settings.by}` : ' by a run'}; apply them again to be sure)
        </>
      ) : null}
      {' · '}
      <Link href={occupancyRunPath(settings.runId)} className="underline">
        {settings.status === 'running' ? 'Follow the run' : 'The run'}
      </Link>
      {settings.status === 'differs' ? (
        <span className="block text-muted">{settings.detail}</span>
      ) : null}
    </span>
  );
}

type Props = {
  params: Promise<{ unitId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: 'Unit' };

/** Needs-attention history shown on a unit's page: what is open, and what was resolved lately. */
const INCIDENTS_SHOWN_MS = 90 * 24 * 60 * 60_000;

const stateWords = (state: string) => STATE_WORDS[state as UnitStateName] ?? state;

export default async function UnitPage({ params, searchParams }: Props) {
  const member = await requireMember();
  const { unitId } = await params;
  const confirming = (await searchParams).confirm === 'settings';
  if (!unitIdSchema.safeParse(unitId).success) notFound();
  const unit = await findUnit({ scope: member, unitId });
  if (!unit) notFound();
  const now = new Date();
  const [events, settingsByUnit, steps, periods, runs] = await Promise.all([
    listUnitEvents({ orgId: member.orgId, unitId: unit.id }),
    settingsOfUnits(member.orgId, [unit]),
    listUnitSteps(unit),
    listUnitThermostats({ orgId: member.orgId, unitId: unit.id }),
    listRunsOn({ orgId: member.orgId, kind: 'occupancy', key: 'unitId', subject: unit.id }),
  ]);
  // What needed attention in the unit, across its thermostats.
  const incidents =
    periods.length === 0
      ? []
      : await listIncidents({
          scope: member,
          resolvedSince: new Date(now.getTime() - INCIDENTS_SHOWN_MS),
          filter: { thermostatIds: periods.map((period) => period.thermostatId) },
          limit: 20,
        });
  const settings = settingsByUnit.get(unit.id) ?? { status: 'unknown' as const };
  const policies = (await policyView({ orgId: member.orgId, buildingId: unit.buildingId })).states;
  // Settings to apply again only where the state's policy asks something of the thermostat.
  const here = policies.find((row) => row.state === unit.occupancy.state);
  const asks =
    here !== undefined && (here.templateId !== null || here.residentMode !== 'unchanged');
  // A move-in is prepared with the occupied policy's template: say so when there is none.
  const occupied =
    unit.occupancy.state === 'move_in_scheduled'
      ? policies.find((row) => row.state === 'occupied')
      : undefined;
  const stateName = STATE_WORDS[unit.occupancy.state].toLowerCase();
  const zone = unit.timeZone;
  const next = nextStepOf(unit.occupancy, zone);
  const changes = can(member, 'change_occupancy', unit);
  const replaces = can(member, 'manage_portfolio');
  const edits = can(member, 'manage_building', unit);
  const choices = eventsFor(unit.occupancy).map((event) => ({
    value: event,
    label: EVENT_WORDS[event],
  }));

  const columns: Column<UnitEventRow>[] = [
    { header: 'When', cell: (row) => <When at={row.at} zone={zone} /> },
    {
      header: 'What',
      names: true,
      cell: (row) =>
        row.fromState === row.toState
          ? `${stateWords(row.toState)}: ${SAME_STATE_WORDS[row.event as UnitEventName] ?? 'unchanged'}`
          : `${stateWords(row.fromState)} → ${stateWords(row.toState)}`,
    },
    {
      header: 'Date',
      cell: (row) =>
        typeof row.detail.moveOutOn === 'string'
          ? `Move-out ${formatDayOfWeek(row.detail.moveOutOn)}`
          : typeof row.detail.moveInAt === 'string'
            ? `Move-in ${formatMoment(new Date(row.detail.moveInAt), zone)}`
            : '',
    },
    { header: 'By', cell: (row) => row.actorName },
    {
      header: 'Thermostat settings',
      cell: (row) =>
        row.runId ? (
          <Link href={occupancyRunPath(row.runId)} className="underline">
            The run
          </Link>
        ) : (
          ''
        ),
    },
  ];

  return (
    <div className="grid gap-6">
      <div>
        <Trail
          steps={[
            { href: '/', label: 'Overview' },
            { href: `/buildings/${unit.buildingId}`, label: unit.buildingName },
            { href: buildingUnitsPath(unit), label: 'Units' },
          ]}
        />
        <h1 className="text-2xl font-semibold tracking-tight">{unit.label}</h1>
        <p className="mt-1 text-sm text-muted">
          {unit.buildingName} · {timeZoneName(zone)}
        </p>
      </div>

      <Card className="grid gap-3">
        <h2 className="text-lg font-semibold">{stateWords(unit.occupancy.state)}</h2>
        <TermList
          className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm"
          rows={[
            [
              'Since',
              unit.since ? (
                <When key="since" at={unit.since} zone={zone} />
              ) : (
                'Setpoint was told of no change'
              ),
            ],
            ...(next ? [['Next', next] as const] : []),
            [
              'Thermostat',
              unit.thermostatId ? (
                <Link
                  key="thermostat"
                  href={`/thermostats/${unit.thermostatId}`}
                  className="underline"
                >
                  {unit.thermostatId}
                </Link>
              ) : (
                'None'
              ),
            ],
            ...(unit.externalId ? [['External id', unit.externalId] as const] : []),
            ...(unit.thermostatId
              ? [
                  [
                    'Settings',
                    <SettingsCell
                      key="settings"
                      settings={settings}
                      state={unit.occupancy.state}
                      zone={zone}
                    />,
                  ] as const,
                ]
              : []),
          ]}
        />
        {occupied && occupied.templateId === null ? (
          <Notice tone="warning">
            Nothing is prepared before this move-in: the occupied policy applies no template. Name a
            template “{DEFAULT_TEMPLATE_NAMES.occupied}”, or choose one on the{' '}
            <Link href="/templates/occupancy" className="underline">
              occupancy policies
            </Link>{' '}
            page; resident mode is turned on at the move-in either way.
          </Notice>
        ) : null}
        {changes && unit.thermostatId && asks && settings.status !== 'running' ? (
          confirming ? (
            <ConfirmStep
              back={unitPath(unit)}
              question={
                <>
                  Put {unit.label}’s thermostat in its {stateName} settings again? Setpoint keeps a
                  snapshot first, then applies the policy
                  {settingsResetWarning(unit.occupancy.state)} and reads it back; you can follow it
                  and undo it.
                </>
              }
            >
              <RunActionForm
                action={applySettingsAction.bind(null, unit.id)}
                label={`Apply the ${stateName} settings`}
                pending="Starting…"
              />
            </ConfirmStep>
          ) : (
            <div>
              <Link
                href={`${unitPath(unit)}?confirm=settings`}
                className={buttonClass('secondary')}
              >
                Apply the {stateName} settings again…
              </Link>
            </div>
          )
        ) : null}
        {replaces ? (
          <ReplaceThermostatForm
            action={replaceThermostatAction.bind(null, unit.id)}
            label={unit.label}
            current={unit.thermostatId}
          />
        ) : null}
      </Card>

      {edits ? (
        <section aria-labelledby="unit-heading" className="grid gap-3">
          <h2 id="unit-heading" className="text-lg font-semibold">
            Label and external id
          </h2>
          <Card>
            <EditUnitForm
              action={saveUnit.bind(null, unit.id)}
              label={unit.label}
              externalId={unit.externalId}
            />
          </Card>
        </section>
      ) : null}

      {changes && choices.length > 0 ? (
        <section aria-labelledby="record-heading" className="grid gap-3">
          <h2 id="record-heading" className="text-lg font-semibold">
            Record what happened
          </h2>
          <Card>
            <OccupancyForm
              action={recordOccupancy.bind(null, unit.id)}
              label={unit.label}
              choices={choices}
              zoneName={timeZoneName(zone)}
              today={todayIn(zone)}
            />
          </Card>
        </section>
      ) : null}

      {steps.length > 0 ? (
        <section aria-labelledby="steps-heading" className="grid gap-3">
          <h2 id="steps-heading" className="text-lg font-semibold">
            Move-in steps
          </h2>
          <ResultTable
            caption={`Scheduled steps of ${unit.label}`}
            columns={stepColumns(zone)}
            rows={steps}
            rowKey={(row) => String(row.id)}
          />
        </section>
      ) : null}

      {periods.length > 0 ? (
        <section aria-labelledby="thermostats-heading" className="grid gap-3">
          <h2 id="thermostats-heading" className="text-lg font-semibold">
            Its thermostats
          </h2>
          <p className="text-sm text-muted">
            The unit’s history, chart and{' '}
            <Link
              href={`/activity?thermostat=${encodeURIComponent(unit.thermostatId ?? periods.at(-1)?.thermostatId ?? '')}`}
              className="underline"
            >
              activity
            </Link>{' '}
            go on across a replacement.
          </p>
          <ResultTable
            caption={`Thermostats of ${unit.label}`}
            columns={[
              {
                header: 'Thermostat',
                names: true,
                cell: (period) =>
                  period.untilAt === null ? (
                    <Link href={`/thermostats/${period.thermostatId}`} className="underline">
                      {period.thermostatId}
                    </Link>
                  ) : (
                    period.thermostatId
                  ),
              },
              { header: 'From', cell: (period) => <When at={period.fromAt} zone={zone} /> },
              {
                header: 'Until',
                cell: (period) =>
                  period.untilAt ? <When at={period.untilAt} zone={zone} /> : 'Now',
              },
            ]}
            rows={periods}
            rowKey={(period) => `${period.thermostatId}-${period.fromAt.toISOString()}`}
          />
        </section>
      ) : null}

      <section aria-labelledby="incidents-heading" className="grid gap-3">
        <h2 id="incidents-heading" className="text-lg font-semibold">
          Needs attention history
        </h2>
        {incidents.length === 0 ? (
          <p className="text-sm text-muted">
            Nothing in this unit has needed attention long enough to tell anyone in the last 90
            days.
          </p>
        ) : (
          <Card>
            <IncidentList
              incidents={incidents}
              unit={member.temperatureUnit}
              now={now}
              zone={zone}
              scope={member.buildingIds}
            />
          </Card>
        )}
      </section>

      <section aria-labelledby="timeline-heading" className="grid gap-3">
        <h2 id="timeline-heading" className="text-lg font-semibold">
          Timeline
        </h2>
        {events.length === 0 ? (
          <p className="text-sm text-muted">No change of occupancy recorded yet.</p>
        ) : (
          <ResultTable
            caption={`Occupancy of ${unit.label}`}
            columns={columns}
            rows={events}
            rowKey={(row) => String(row.id)}
          />
        )}
      </section>

      {runs.length > 0 ? (
        <section aria-labelledby="runs-heading" className="grid gap-3">
          <h2 id="runs-heading" className="text-lg font-semibold">
            Runs
          </h2>
          <p className="text-sm text-muted">
            Each time Setpoint put the unit’s thermostat in its settings: a change of state, a
            move-in prepared, a new thermostat, or the settings applied again.
          </p>
          <ResultTable
            caption={`Runs of ${unit.label}`}
            columns={[
              { header: 'Started', cell: (run) => <When at={run.createdAt} zone={zone} /> },
              {
                header: 'What',
                names: true,
                cell: (run) => (
                  <Link href={occupancyRunPath(run.id)} className="underline">
                    {run.title ?? 'Settings'}
                  </Link>
                ),
              },
              { header: 'By', cell: (run) => run.startedByName },
              { header: 'How it went', cell: (run) => runStatus(run).label },
            ]}
            rows={runs}
            rowKey={(run) => run.id}
          />
        </section>
      ) : null}
    </div>
  );
}
