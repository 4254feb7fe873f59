import type { Metadata } from 'next';
import { GroupForm } from '@/components/groups/group-form';
import { EMPTY_GROUP } from '@/components/groups/group-values';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { can, refusal } from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { readNotice } from '@/lib/platform/notice';
import { listGroups } from '@/lib/groups/store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import { describeFilter, parseStoredFilter } from '@/lib/groups/filter';
import { askedIdsOf, inScope, thermostatsByBuilding } from '@/lib/groups/selection';
import { createGroupAction } from './actions';

export const metadata: Metadata = { title: 'Groups' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const plural = (count: number) => `${count} thermostat${count === 1 ? '' : 's'}`;

/**
 * The organisation's groups: each with what it holds and how many of its thermostats the member
 * can see, and, for owners and admins, a new group from ticked thermostats or a saved filter.
 */
export default async function GroupsPage({ searchParams }: Props) {
  const member = await requireMember();
  const params = await searchParams;
  const manages = can(member, 'manage_groups');
  // Thermostats ticked elsewhere may arrive as `?ids=…`; only those in scope are ticked.
  const asked = askedIdsOf(params.ids);
  const [groups, buildings, thermostats] = await Promise.all([
    listGroups({ scope: member }),
    listBuildings({ scope: member }),
    manages ? listThermostats({ scope: member }) : [],
  ]);
  const buildingName = new Map(buildings.map((b) => [b.buildingId, b.name]));
  const choices = thermostatsByBuilding(buildings, thermostats);
  const where = member.buildingIds === null ? '' : ' in your buildings';
  const notice = readNotice(params, member);

  return (
    <div className="grid gap-6">
      <PageHeader title="Groups">
        Named sets of thermostats: hand-picked, or a saved filter worked out again each time the
        group is used. Choose a group wherever you select thermostats, such as a bulk change.
      </PageHeader>

      <RedirectNotice notice={notice} />

      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">The organisation’s groups</h2>
        {groups.length === 0 ? (
          <p className="text-sm">No groups yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {groups.map((group) => {
              const filter = group.filter === null ? null : parseStoredFilter(group.filter);
              return (
                <li
                  key={group.id}
                  className="grid gap-1 py-3 sm:flex sm:items-baseline sm:justify-between sm:gap-4"
                >
                  <div className="min-w-0">
                    <Link
                      href={`/groups/${group.id}`}
                      className="font-medium break-words hover:underline"
                    >
                      {group.name}
                    </Link>
                    <p className="text-sm text-muted">
                      {group.filter === null
                        ? 'Hand-picked'
                        : filter
                          ? `Saved filter: ${describeFilter(filter, (id) => buildingName.get(id))}`
                          : 'A saved filter this version cannot read'}
                    </p>
                  </div>
                  <p className="shrink-0 text-sm">
                    {plural(group.count)}
                    {where}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </Card>

      {manages ? (
        <Card className="grid gap-4">
          <h2 className="text-lg font-medium">New group</h2>
          {thermostats.length === 0 ? (
            <p className="text-sm">Add thermostats to your portfolio first.</p>
          ) : (
            <GroupForm
              action={createGroupAction}
              kinds="choose"
              buildings={choices}
              initial={{
                ...EMPTY_GROUP,
                thermostatIds: inScope(thermostats, asked),
              }}
              submit="Create group"
              pending="Creating…"
              label="New group"
            />
          )}
        </Card>
      ) : (
        <Notice tone="info">
          {refusal(member.role, 'manage_groups').replace(' Nothing was changed.', '')} You can use
          the groups wherever you select thermostats.
        </Notice>
      )}
    </div>
  );
}
