import type { Metadata } from 'next';
import { BulkConfiguration } from '@/components/bulk/bulk-configuration';
import { RunList } from '@/components/bulk/run-list';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { WhenMayChange } from '@/components/bulk/when-may-change';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { FROM_SELECTION } from '@/lib/runs/paths';
import { listBulkRuns } from '@/lib/runs/store';
import { resolveGroups } from '@/lib/groups/store';
import { listHeatCoolGaps } from '@/lib/comfort/heat-cool-gaps-store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import { heatCoolGapRange } from '@/lib/settings/configuration';
import { runsOfferingUndo } from '@/lib/templates/runs';
import { DEVICE_LIMITS } from '@/lib/service/schemas';
import { formatRange } from '@/lib/platform/units';
import { askedIdsOf, inScope, thermostatsByBuilding } from '@/lib/groups/selection';
import { reviewBulk, startBulk } from './actions';

export const metadata: Metadata = { title: 'Bulk changes' };

const RECENT = 20;

/**
 * Bulk configuration: the organisation's recent runs (a building manager's: those that touched
 * their buildings, and their own), each with its progress, and a new change for those who may
 * make one.
 */
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function BulkPage({ searchParams }: Props) {
  const member = await requireMember();
  // Rows ticked on a building's page arrive as `?ids=…`, a group's page sends `?group=…`; only
  // thermostats in the member's scope count.
  const params = await searchParams;
  const asked = params.ids;
  const askedIds = askedIdsOf(asked);
  const mayChange = can(member, 'change_thermostat');
  const unit = member.temperatureUnit;
  const [runs, buildings, thermostats, groupChoices, gaps] = await Promise.all([
    listBulkRuns({ scope: member, limit: RECENT }),
    mayChange ? listBuildings({ scope: member }) : [],
    mayChange ? listThermostats({ scope: member }) : [],
    mayChange ? resolveGroups({ scope: member }) : [],
    mayChange ? listHeatCoolGaps({ scope: member }) : [],
  ]);
  // A finished template, one-off or undo run offers Undo where it is listed (lib/ decides).
  const undoable = await runsOfferingUndo(member, runs);
  for (const group of groupChoices) {
    if (group.groupId === params.group) for (const id of group.thermostatIds) askedIds.add(id);
  }
  const initialSelected = inScope(thermostats, askedIds);
  // "Change selected…" on a building's page posted with no row ticked (without JavaScript: with
  // it, that page says so itself).
  const noneTicked =
    params[FROM_SELECTION.name] === FROM_SELECTION.value && initialSelected.length === 0;
  const groups = thermostatsByBuilding(buildings, thermostats);

  const labels = new Map(thermostats.map((t) => [t.thermostatId, t.unitLabel]));
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Bulk changes</h1>
        <p className="mt-1 max-w-3xl text-sm text-muted">
          Apply the same configuration settings to many thermostats at once, or any other change as
          a one-off change (below). Each change runs as a job: the service takes 25 per request, so
          larger selections are sent in several requests, a few at a time; every thermostat gets a
          result, the run goes on if you close the page, and every member can follow it here.
        </p>
      </div>

      <section aria-labelledby="runs-heading" className="grid gap-3">
        <h2 id="runs-heading" className="text-lg font-medium">
          Recent runs
        </h2>
        {runs.length === 0 ? (
          <p className="text-sm text-muted">No bulk runs yet.</p>
        ) : (
          <RunList runs={runs} unit={unit} zone={member.timeZone} undoable={undoable} />
        )}
      </section>

      <section id="new-change" aria-labelledby="new-run-heading" className="grid gap-3">
        <h2 id="new-run-heading" className="text-lg font-medium">
          New configuration change
        </h2>
        {noneTicked && mayChange ? (
          <Notice tone="warning">
            No thermostat was ticked on the building’s page, so none is selected. Tick the
            thermostats to change there first, or choose them below.
          </Notice>
        ) : null}
        <Card>
          <WhenMayChange
            mayChange={mayChange}
            role={member.role}
            thermostatCount={thermostats.length}
          >
            <BulkConfiguration
              buildings={groups}
              groups={groupChoices}
              unit={unit}
              limits={{
                heat: formatRange(DEVICE_LIMITS.heat, unit, '–'),
                cool: formatRange(DEVICE_LIMITS.cool, unit, '–'),
                // Each thermostat's own gap is kept: the largest among those selected.
                gap: heatCoolGapRange(
                  gaps.map((row) => row.gap),
                  unit,
                ),
              }}
              gaps={Object.fromEntries(
                gaps.map((row) => [
                  row.thermostatId,
                  { label: labels.get(row.thermostatId) || row.thermostatId, gap: row.gap },
                ]),
              )}
              initialSelected={initialSelected}
              review={reviewBulk}
              start={startBulk}
            />
          </WhenMayChange>
        </Card>
      </section>

      {mayChange && thermostats.length > 0 ? (
        <section aria-labelledby="other-settings-heading" className="grid gap-3">
          <h2 id="other-settings-heading" className="text-lg font-medium">
            Change other settings
          </h2>
          <Card className="grid gap-3">
            <p className="max-w-3xl text-sm">
              Comfort settings (matched by name), schedule ranges, alert settings, access-control
              locks or resident mode on many thermostats at once, without saving a template. Planned
              first: you see every change, the calls and the time before applying, and the whole
              change can be undone.
            </p>
            <div>
              <Link
                href={askedIds.size > 0 ? `/bulk/change?${idsQuery(askedIds)}` : '/bulk/change'}
                className={buttonClass('secondary')}
              >
                Plan a one-off change
              </Link>
            </div>
          </Card>
        </section>
      ) : null}
    </div>
  );
}

const idsQuery = (ids: ReadonlySet<string>) =>
  new URLSearchParams([...ids].map((id) => ['ids', id])).toString();
