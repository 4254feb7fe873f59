'use client';

import { useActionState, useState } from 'react';
import { BuildingCheckboxes, type BuildingChoice } from '@/components/ui/building-checkboxes';
import { CopyField } from '@/components/ui/copy-field';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field, SelectField } from '@/components/ui/field';
import { ErrorList } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { Role } from '@/lib/auth/permissions';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState = { status: 'idle' };

export type RoleChoice = { role: Role; name: string; description: string };

/** The role fields a refused save's summary links to (ids as RoleFields gives them). */
const roleSummaryFields = (idPrefix: string) => ({
  role: { label: 'Role', id: `${idPrefix}-role` },
  buildingIds: { label: 'Buildings they look after', id: `${idPrefix}-buildings-errors` },
});

/**
 * A role and, for a building manager, the buildings they look after. Without JavaScript every
 * building stays listed; the server ignores them for other roles.
 */
function RoleFields({
  idPrefix,
  roles,
  buildings,
  role: initialRole,
  buildingIds,
  errors,
}: {
  idPrefix: string;
  roles: RoleChoice[];
  buildings: BuildingChoice[];
  role: Role;
  buildingIds: string[];
  errors: Partial<Record<string, string[]>>;
}) {
  const [role, setRole] = useState(initialRole);
  return (
    <>
      {/* Uncontrolled: React resets a form after its action, and a controlled select would
          then show the first option while saying the last one. */}
      <SelectField
        id={`${idPrefix}-role`}
        label="Role"
        name="role"
        defaultValue={initialRole}
        onChange={(event) => setRole(event.currentTarget.value as Role)}
        hint={roles.find((choice) => choice.role === role)?.description}
        errors={errors.role}
        options={roles.map((choice) => ({ value: choice.role, label: choice.name }))}
      />
      <fieldset
        className={`grid gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800 ${role === 'building_manager' ? '' : 'hidden'}`}
        aria-describedby={`${idPrefix}-buildings-errors`}
      >
        <legend className="px-1 text-sm font-medium">Buildings they look after</legend>
        <BuildingCheckboxes
          buildings={buildings}
          chosen={buildingIds}
          empty="Add buildings to the portfolio first."
        />
        <ErrorList id={`${idPrefix}-buildings-errors`} errors={errors.buildingIds} />
      </fieldset>
    </>
  );
}

/** Invite someone by email: the link comes back once, to copy (and is emailed when email is on). */
export function InviteForm({
  action: bound,
  roles,
  buildings,
}: {
  action: FormAction;
  roles: RoleChoice[];
  buildings: BuildingChoice[];
}) {
  const [state, action] = useActionState(bound, idle);
  const errors = state.fieldErrors ?? {};
  const done = state.status === 'success';
  return (
    <form action={action} className="grid gap-4" aria-label="Invite someone" noValidate>
      <ErrorSummary state={state} fields={{ email: 'Email', ...roleSummaryFields('invite') }} />
      {done && state.link ? (
        <CopyField id="invitation-link" label="Invitation link" value={state.link} />
      ) : null}
      <Field
        key={done ? state.link : 'editing'}
        label="Email"
        name="email"
        type="email"
        autoComplete="off"
        required
        defaultValue={done ? '' : state.values?.email}
        errors={errors.email}
      />
      <RoleFields
        key={done ? `${state.link}-role` : 'role'}
        idPrefix="invite"
        roles={roles}
        buildings={buildings}
        role={((done ? '' : state.values?.role) as Role) || 'viewer'}
        buildingIds={[]}
        errors={errors}
      />
      <div>
        <SubmitButton pending="Inviting…">Invite</SubmitButton>
      </div>
    </form>
  );
}

/** A member's role and buildings, changed by an owner or admin. */
export function MemberRoleForm({
  action: bound,
  name,
  roles,
  buildings,
  role,
  buildingIds,
  idPrefix,
}: {
  action: FormAction;
  name: string;
  roles: RoleChoice[];
  buildings: BuildingChoice[];
  role: Role;
  buildingIds: string[];
  idPrefix: string;
}) {
  const [state, action] = useActionState(bound, idle);
  return (
    <form action={action} className="grid gap-3" aria-label={`Role of ${name}`}>
      <ErrorSummary state={state} fields={roleSummaryFields(idPrefix)} level={3} />
      <RoleFields
        idPrefix={idPrefix}
        roles={roles}
        buildings={buildings}
        role={role}
        buildingIds={buildingIds}
        errors={state.fieldErrors ?? {}}
      />
      <div>
        <SubmitButton pending="Saving…" variant="secondary">
          Save role
        </SubmitButton>
      </div>
    </form>
  );
}

/** The organisation's name and its company SSO sign-up rule. */
export function OrganizationForm({
  action: bound,
  initial,
  sso,
  roles,
}: {
  action: FormAction;
  initial: { name: string; ssoDomain: string; ssoDefaultRole: string };
  /** Whether company SSO is configured for this deployment. */
  sso: boolean;
  roles: RoleChoice[];
}) {
  const [state, action] = useActionState(bound, idle);
  const values = { ...initial, ...state.values };
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="grid gap-4" aria-label="Organisation settings" noValidate>
      <ErrorSummary
        state={state}
        fields={{
          name: 'Organisation name',
          ssoDomain: 'Company SSO domain',
          ssoDefaultRole: 'With the role',
        }}
      />
      <Field
        label="Organisation name"
        name="name"
        required
        defaultValue={values.name}
        errors={errors.name}
      />
      <Field
        label="Company SSO: admit everyone with an email at"
        name="ssoDomain"
        placeholder="example.com"
        defaultValue={values.ssoDomain}
        errors={errors.ssoDomain}
        hint={
          sso
            ? 'Leave empty to admit only the people you invite.'
            : 'Company SSO is not set up for this Setpoint; this applies once it is.'
        }
      />
      <SelectField
        label="With the role"
        name="ssoDefaultRole"
        defaultValue={values.ssoDefaultRole}
        errors={errors.ssoDefaultRole}
        options={[
          { value: '', label: 'Choose…' },
          ...roles
            .filter((choice) => choice.role !== 'owner')
            .map((choice) => ({ value: choice.role, label: choice.name })),
        ]}
      />
      <div>
        <SubmitButton pending="Saving…" variant="secondary">
          Save
        </SubmitButton>
      </div>
    </form>
  );
}
