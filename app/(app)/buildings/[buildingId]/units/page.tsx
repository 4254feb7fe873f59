import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Link } from '@/components/ui/link';
import { type Column, ResultTable } from '@/components/ui/result-table';
import { Trail } from '@/components/ui/trail';
import { When } from '@/components/ui/when';
import { requireMember } from '@/lib/auth/session';
import { timeZoneName } from '@/lib/platform/words';
import { findBuilding } from '@/lib/portfolio/store';
import { buildingIdSchema } from '@/lib/service/schemas';
import { nextStepOf, STATE_WORDS, type UnitStateName } from '@/lib/units/lifecycle';
import { policyView } from '@/lib/units/manage-policies';
import { policyFormRows, policyInWords } from '@/lib/units/policies';
import { can } from '@/lib/auth/permissions';
import { Card } from '@/components/ui/card';
import { PolicyForm } from '@/components/units/policy-form';
import { PolicyTable } from '@/components/units/policy-table';
import { EditUnitForm } from '@/components/units/edit-unit-form';
import { CsvForm } from '@/components/ui/csv-form';
import { addUnitAction, importUnitsCsv, saveBuildingPolicy } from './actions';
import { unitPath } from '@/lib/units/paths';
import { listUnits, type Unit } from '@/lib/units/store';
import { settingsOfUnits, settingsWords } from '@/lib/units/settings';

type Props = { params: Promise<{ buildingId: string }> };

export const metadata: Metadata = { title: 'Units' };

/** A building's units: each one's occupancy, since when, and what comes next. */
export default async function BuildingUnitsPage({ params }: Props) {
  const member = await requireMember();
  const { buildingId } = await params;
  if (!buildingIdSchema.safeParse(buildingId).success) notFound();
  const building = await findBuilding({ scope: member, buildingId });
  if (!building) notFound();
  const [units, policy] = await Promise.all([
    listUnits({ scope: member, buildingId }),
    policyView({ orgId: member.orgId, buildingId }),
  ]);
  const settings = await settingsOfUnits(member.orgId, units);
  const policyOf = (state: UnitStateName) => {
    const found = policy.states.find((row) => row.state === state);
    return found ? policyInWords(found, policy.templates) : '—';
  };
  const managesPolicy = can(member, 'manage_policies', building);
  const managesUnits = can(member, 'manage_building', building);
  const zone = building.timeZone;
  const counts = new Map<string, number>();
  for (const unit of units) {
    counts.set(unit.occupancy.state, (counts.get(unit.occupancy.state) ?? 0) + 1);
  }

  const columns: Column<Unit>[] = [
    {
      header: 'Unit',
      names: true,
      cell: (unit) => (
        <Link href={unitPath(unit)} className="font-medium underline">
          {unit.label}
        </Link>
      ),
    },
    { header: 'Occupancy', cell: (unit) => STATE_WORDS[unit.occupancy.state] },
    {
      header: 'Since',
      cell: (unit) => (unit.since ? <When at={unit.since} zone={zone} /> : '—'),
    },
    {
      header: 'Next',
      cell: (unit) => nextStepOf(unit.occupancy, zone) ?? '—',
    },
    { header: 'Policy in force', cell: (unit) => policyOf(unit.occupancy.state) },
    {
      header: 'Thermostat settings',
      cell: (unit) => {
        const found = settings.get(unit.id) ?? { status: 'unknown' as const };
        const words = settingsWords(found, unit.occupancy.state);
        return found.status === 'differs' ? (
          <span className="font-medium text-danger">{words}</span>
        ) : (
          words
        );
      },
    },
    {
      header: 'Thermostat',
      cell: (unit) => unit.thermostatId ?? 'None',
      className: 'font-mono text-xs',
    },
  ];

  return (
    <div className="grid gap-6">
      <div>
        <Trail
          steps={[
            { href: '/', label: 'Overview' },
            { href: `/buildings/${building.buildingId}`, label: building.name },
          ]}
        />
        <h1 className="text-2xl font-semibold tracking-tight">Units of {building.name}</h1>
        <p className="mt-1 text-sm text-muted">
          {units.length === 1 ? '1 unit' : `${units.length} units`}
          {[...counts].map(
            ([state, count]) =>
              ` · ${count} ${STATE_WORDS[state as keyof typeof STATE_WORDS].toLowerCase()}`,
          )}
          {' · '}
          Times in {timeZoneName(zone)}
        </p>
      </div>
      {units.length === 0 ? (
        <p className="text-sm text-muted">
          No units in this building yet: each thermostat added comes in a unit of its own.
        </p>
      ) : (
        <ResultTable
          caption={`Units of ${building.name}`}
          columns={columns}
          rows={units}
          rowKey={(unit) => unit.id}
        />
      )}
      {managesUnits ? (
        <section aria-labelledby="add-unit-heading" className="grid gap-3">
          <h2 id="add-unit-heading" className="text-lg font-semibold">
            Add a unit
          </h2>
          <Card>
            <EditUnitForm
              action={addUnitAction.bind(null, building.buildingId)}
              label={null}
              externalId={null}
            />
          </Card>
        </section>
      ) : null}
      {managesUnits ? (
        <section aria-labelledby="csv-heading" className="grid gap-3">
          <h2 id="csv-heading" className="text-lg font-semibold">
            Units by CSV
          </h2>
          <p className="text-sm text-muted">
            Label units, give them your property-management system’s ids, add empty ones and record
            their state, many at once. Thermostats are added on the{' '}
            <Link href="/portfolio/add" className="underline">
              Add thermostats
            </Link>{' '}
            page, and empty units made here take the thermostats added with their labels. A state is
            recorded as on a unit’s page: its thermostat is put in that state’s settings as one run
            (moving to vacant may reset it), which each unit’s page follows.
          </p>
          <Card>
            <CsvForm
              action={importUnitsCsv.bind(null, building.buildingId)}
              id="units"
              title="Units by CSV"
              textLabel="Units as CSV"
              placeholder={
                'label,external id,thermostat id,state\nUnit 4B,PM-4B,318324702718,occupied\nUnit 5A,PM-5A,,vacant'
              }
              hint={
                <>
                  A header row <code>label,external id,thermostat id,state</code>, then a unit a
                  line. Each line changes the unit of this building with that thermostat id, else
                  that external id, else that label; one that matches none and names no thermostat
                  adds an empty unit. An empty cell leaves the unit’s own. State, optional:
                  occupied, vacant or make-ready (notice and move-ins are recorded on the unit’s
                  page, with their dates). At most 2,000 lines.
                </>
              }
              submit={{ label: 'Import units', pending: 'Importing…' }}
              subject="Unit"
            />
          </Card>
        </section>
      ) : null}
      <section aria-labelledby="policy-heading" className="grid gap-3">
        <h2 id="policy-heading" className="text-lg font-semibold">
          Occupancy policy here
        </h2>
        <p className="text-sm text-muted">
          What each state means for a unit’s thermostat in {building.name}: the{' '}
          <Link href="/templates/occupancy" className="underline">
            organisation’s policy
          </Link>
          , unless this building sets its own for a state. A change of state puts the unit’s
          thermostat in that state’s settings as one run, which the unit’s page follows.
        </p>
        <PolicyTable view={policy} />
        {managesPolicy ? (
          <Card>
            <PolicyForm
              action={saveBuildingPolicy.bind(null, building.buildingId)}
              whose={building.name}
              follows="the organisation’s"
              templates={policy.templates}
              states={policyFormRows(policy, 'building')}
            />
          </Card>
        ) : null}
      </section>
    </div>
  );
}
