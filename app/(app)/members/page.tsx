import type { Metadata } from 'next';
import {
  InviteForm,
  MemberRoleForm,
  OrganizationForm,
  type RoleChoice,
} from '@/components/members/member-forms';
import { ButtonForm } from '@/components/ui/button-form';
import { Card } from '@/components/ui/card';
import { ConfirmForm } from '@/components/ui/confirm-form';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { When } from '@/components/ui/when';
import { ssoDisplayName } from '@/lib/auth/options';
import {
  assignedBuildingsInWords,
  can,
  canManageMember,
  ROLE_DESCRIPTIONS,
  ROLE_NAMES,
  ROLES,
} from '@/lib/auth/permissions';
import { requireMember } from '@/lib/auth/session';
import { findOrganization } from '@/lib/auth/store';
import { invitationProblem, listInvitations, listMembers } from '@/lib/members/store';
import { readNotice } from '@/lib/platform/notice';
import { listOrganizationBuildings } from '@/lib/portfolio/store';
import {
  changeMember,
  inviteMember,
  leaveOrganization,
  removeMember,
  saveOrganization,
  unlockMemberSignIn,
  withdrawInvitation,
} from './actions';

export const metadata: Metadata = { title: 'Members' };

const INVITATION_STATES = {
  used: 'Accepted',
  revoked: 'Withdrawn',
  expired: 'Expired',
} as const;

/**
 * The organisation's people: everyone sees who is a member; owners and admins invite, change
 * roles and buildings, remove members and set the organisation's name and SSO rule.
 */
export default async function MembersPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const notice = readNotice(await searchParams, member);
  const manages = can(member, 'manage_members');
  const [members, invitations, buildings, organization] = await Promise.all([
    listMembers({ orgId: member.orgId }),
    manages ? listInvitations({ orgId: member.orgId }) : Promise.resolve([]),
    listOrganizationBuildings({ orgId: member.orgId }),
    findOrganization({ orgId: member.orgId }),
  ]);
  const choices = buildings.map(({ buildingId, name }) => ({ buildingId, name }));
  const roleChoices = (grantable: (role: (typeof ROLES)[number]) => boolean): RoleChoice[] =>
    ROLES.filter(grantable).map((role) => ({
      role,
      name: ROLE_NAMES[role],
      description: ROLE_DESCRIPTIONS[role],
    }));
  const invitable = roleChoices((role) => canManageMember(member, { role: 'viewer' }, role));
  const owners = members.filter((m) => m.role === 'owner').length;

  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Members</h1>
        <p className="mt-1 text-sm text-muted">
          {member.orgName}: {members.length} member{members.length === 1 ? '' : 's'}. You are{' '}
          {ROLE_NAMES[member.role].toLowerCase()}.
        </p>
      </div>

      <RedirectNotice notice={notice} />
      {manages ? (
        <Card className="grid gap-4">
          <h2 className="text-lg font-medium">Invite someone</h2>
          <InviteForm action={inviteMember} roles={invitable} buildings={choices} />
        </Card>
      ) : null}

      <Card className="grid gap-4 p-0 sm:p-0">
        <h2 className="px-6 pt-6 text-lg font-medium">People</h2>
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {members.map((person) => {
            const self = person.id === member.userId;
            const changeable = manages && canManageMember(member, person);
            return (
              <li key={person.id} className="grid gap-3 px-6 py-4 sm:grid-cols-[1fr_auto]">
                <div className="min-w-0">
                  <p className="font-medium">
                    {person.name}
                    {self ? <span className="text-muted"> (you)</span> : null}
                  </p>
                  <p className="truncate text-sm text-muted">{person.email}</p>
                  <p className="mt-1 text-sm">
                    {ROLE_NAMES[person.role]}
                    {person.role === 'building_manager'
                      ? ` ${assignedBuildingsInWords(person.buildingIds, member, buildings)}`
                      : ''}
                  </p>
                  <p className="text-xs text-muted">
                    Last signed in:{' '}
                    {person.lastSignInAt ? (
                      <When at={person.lastSignInAt} zone={member.timeZone} />
                    ) : (
                      'never'
                    )}
                  </p>
                </div>
                {changeable && !self ? (
                  <details className="group sm:max-w-md">
                    <summary className="cursor-pointer text-sm font-medium text-brand-700 dark:text-brand-100">
                      Change {person.name.split(' ')[0]}…
                    </summary>
                    <div className="mt-3 grid gap-5">
                      <MemberRoleForm
                        action={changeMember.bind(null, person.id)}
                        name={person.name}
                        idPrefix={`member-${person.id}`}
                        roles={roleChoices((role) => canManageMember(member, person, role))}
                        buildings={choices}
                        role={person.role}
                        buildingIds={person.buildingIds}
                      />
                      <ButtonForm
                        action={unlockMemberSignIn.bind(null, person.id)}
                        label={`Let ${person.name} sign in again`}
                        question="If failed sign-in attempts (someone guessing) have locked this account, this lets its owner in again at once."
                        pending="Unlocking…"
                        once
                      />
                      {person.role === 'owner' && owners < 2 ? null : (
                        <ConfirmForm
                          action={removeMember.bind(null, person.id)}
                          label={`Remove ${person.name}`}
                          question={`${person.name} loses access at once and is signed out everywhere. Their entries in the activity log stay.`}
                          pending="Removing…"
                        />
                      )}
                    </div>
                  </details>
                ) : null}
              </li>
            );
          })}
        </ul>
      </Card>

      {manages ? (
        <Card className="grid gap-4">
          <h2 className="text-lg font-medium">Invitations</h2>
          {invitations.length === 0 ? (
            <p className="text-sm text-muted">No invitations in the last 30 days.</p>
          ) : (
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {invitations.map((invitation) => {
                const problem = invitationProblem(invitation);
                return (
                  <li
                    key={invitation.id}
                    className="grid gap-2 py-3 sm:grid-cols-[1fr_auto] sm:items-center"
                  >
                    <div className="min-w-0 text-sm">
                      <p className="truncate font-medium">{invitation.email}</p>
                      <p className="text-muted">
                        {ROLE_NAMES[invitation.role]}, invited by {invitation.invitedByName}.{' '}
                        {problem && problem !== 'unknown' && problem !== 'member_elsewhere' ? (
                          INVITATION_STATES[problem]
                        ) : (
                          <>
                            Pending until <When at={invitation.expiresAt} zone={member.timeZone} />
                          </>
                        )}
                      </p>
                    </div>
                    {problem || !canManageMember(member, invitation) ? null : (
                      <ConfirmForm
                        action={withdrawInvitation.bind(null, invitation.id)}
                        label={`Withdraw the invitation of ${invitation.email}`}
                        question="Its link will stop working."
                        pending="Withdrawing…"
                      />
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </Card>
      ) : null}

      {can(member, 'manage_organization') && organization ? (
        <Card className="grid gap-4">
          <h2 className="text-lg font-medium">Organisation</h2>
          <OrganizationForm
            action={saveOrganization}
            sso={ssoDisplayName() !== null}
            roles={roleChoices(() => true)}
            initial={{
              name: organization.name,
              ssoDomain: organization.ssoDomain ?? '',
              ssoDefaultRole: organization.ssoDefaultRole ?? '',
            }}
          />
        </Card>
      ) : null}

      <Card className="grid gap-3">
        <h2 className="text-lg font-medium">Leave {member.orgName}</h2>
        {member.role === 'owner' && owners < 2 ? (
          <p className="text-sm text-muted">
            You are the only owner. Make someone else an owner before you leave.
          </p>
        ) : (
          <ConfirmForm
            action={leaveOrganization}
            label="Leave the organisation"
            question="You lose access at once and are signed out everywhere; an owner or admin can invite you again."
            pending="Leaving…"
          />
        )}
      </Card>
    </div>
  );
}
