import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { GroupForm } from '@/components/groups/group-form';
import { EMPTY_GROUP } from '@/components/groups/group-values';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDisclosure } from '@/components/ui/confirm-disclosure';
import { Link } from '@/components/ui/link';
import { PageHeader } from '@/components/ui/page-header';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { type Column, ResultTable } from '@/components/ui/result-table';
import { can } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { readNotice } from '@/lib/platform/notice';
import { findGroup, type GroupThermostat, listGroupThermostats } from '@/lib/groups/store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import { describeFilter, parseStoredFilter } from '@/lib/groups/filter';
import { changeGroupAction, deleteGroupAction } from '../actions';
import { thermostatsByBuilding } from '@/lib/groups/selection';

export const metadata: Metadata = { title: 'Group' };

type Props = {
  params: Promise<{ groupId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const COLUMNS: Column<GroupThermostat>[] = [
  {
    header: 'Unit',
    names: true,
    cell: (row) => (
      <Link href={`/thermostats/${row.thermostatId}`} className="font-medium hover:underline">
        {row.unitLabel || row.thermostatId}
      </Link>
    ),
  },
  { header: 'Building', cell: (row) => row.buildingName ?? row.buildingId },
  { header: 'Thermostat id', cell: (row) => row.thermostatId, className: 'tabular-nums' },
];

/**
 * One group: the thermostats it holds that the member can see (a saved filter's as of now), a
 * way into a bulk change with them, and, for owners and admins, its name, thermostats or filter
 * to change, and deletion behind a confirmation.
 */
export default async function GroupPage({ params, searchParams }: Props) {
  const member = await requireMember();
  const { groupId } = await params;
  const group = await findGroup({ scope: member, groupId });
  if (!group) notFound();
  const notice = readNotice(await searchParams, member);
  const manages = can(member, 'manage_groups');
  const [rows, buildings, thermostats] = await Promise.all([
    listGroupThermostats({ scope: member, group }),
    listBuildings({ scope: member }),
    manages ? listThermostats({ scope: member }) : [],
  ]);
  const handPicked = group.filter === null;
  const filter = handPicked ? null : parseStoredFilter(group.filter);
  const buildingName = new Map(buildings.map((b) => [b.buildingId, b.name]));
  const choices = thermostatsByBuilding(buildings, thermostats);
  const count = `${rows.length} thermostat${rows.length === 1 ? '' : 's'}`;
  const where = member.buildingIds === null ? '' : ' in your buildings';

  return (
    <div className="grid gap-6">
      <PageHeader
        title={group.name}
        actions={
          can(member, 'change_thermostat') && rows.length > 0 ? (
            <Link href={`/bulk?group=${group.id}#new-change`} className={buttonClass('secondary')}>
              Use in a bulk change
            </Link>
          ) : null
        }
      >
        {handPicked
          ? 'Hand-picked thermostats.'
          : filter
            ? `Saved filter: ${describeFilter(filter, (id) => buildingName.get(id))}.`
            : 'A saved filter this version of Setpoint cannot read: it matches nothing.'}{' '}
        Last changed by {group.updatedByName}.
      </PageHeader>

      <RedirectNotice notice={notice} />

      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">
          {count}
          {where}
        </h2>
        {handPicked ? null : (
          <p className="text-sm text-muted">
            As the readings and needs attention stand now; a bulk change works it out again when you
            review it.
          </p>
        )}
        {rows.length === 0 ? (
          <p className="text-sm">No thermostat{where} is in this group now.</p>
        ) : (
          <ResultTable
            caption={`Thermostats of ${group.name}`}
            columns={COLUMNS}
            rows={rows}
            rowKey={(row) => row.thermostatId}
          />
        )}
      </Card>

      {manages ? (
        <Card className="grid gap-4">
          <h2 className="text-lg font-medium">Change the group</h2>
          <GroupForm
            action={changeGroupAction.bind(null, group.id)}
            kinds={handPicked ? 'picked' : 'filter'}
            buildings={choices}
            initial={{
              ...EMPTY_GROUP,
              name: group.name,
              kind: handPicked ? 'picked' : 'filter',
              thermostatIds: handPicked ? rows.map((row) => row.thermostatId) : [],
              buildingIds: filter?.buildingIds ?? [],
              label: filter?.label ?? '',
              connection: filter?.connection ?? '',
              resident: filter?.resident ?? '',
              attention: filter?.attention ?? [],
            }}
            submit="Save changes"
            pending="Saving…"
            label={`Change ${group.name}`}
          />
          <div className="border-t border-slate-200 pt-3 dark:border-slate-800">
            <ConfirmDisclosure
              label="Delete group…"
              confirm={`Delete ${group.name}`}
              action={deleteGroupAction.bind(null, group.id)}
            >
              The group “{group.name}” goes for everyone. Its thermostats and their settings do not
              change, and runs already made with it are kept.
            </ConfirmDisclosure>
          </div>
        </Card>
      ) : null}
    </div>
  );
}
