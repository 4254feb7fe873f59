'use client';

import { useActionState, useState } from 'react';
import { type BulkBuilding, ThermostatPicker } from '@/components/bulk/thermostat-picker';
import { BuildingCheckboxes } from '@/components/ui/building-checkboxes';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field, SelectField } from '@/components/ui/field';
import { ErrorList, Fieldset, Radio } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import { useHydrated } from '@/components/ui/use-hydrated';
import type { FormAction, FormState } from '@/lib/platform/forms';
import {
  CONNECTION_NAMES,
  FILTER_ATTENTION_KIND_NAMES,
  FILTER_ATTENTION_KINDS,
  MAX_LABEL_LENGTH,
} from '@/lib/groups/filter';
import type { GroupField, GroupKind } from '@/lib/groups/schema';
import { EMPTY_GROUP, type GroupFormValues } from './group-values';

const idle: FormState<GroupField> = { status: 'idle' };

/** The fields a refused group's summary links to, in the form's order. */
const GROUP_FIELDS = {
  name: 'Name',
  kind: { label: 'What the group holds', id: 'field-kind-errors' },
  thermostatIds: { label: 'Thermostats', id: 'field-thermostatIds-errors' },
  filter: { label: 'Filter', id: 'field-filter-errors' },
  buildingIds: { label: 'Buildings', id: 'field-buildingIds-errors' },
  label: 'Unit label contains',
  connection: 'Connection',
  resident: 'Resident mode',
  attention: { label: 'Needs attention for', id: 'field-attention-errors' },
} as const;

const list = (value: string | undefined) => (value ? value.split(',').filter(Boolean) : undefined);

/**
 * A group's form: its name and either the thermostats it holds (ticked, by building) or the
 * saved filter that finds them. `kinds: 'choose'` offers both (a new group); otherwise the
 * group's own kind only. Without JavaScript both parts of a new group are shown, and the kind
 * chosen says which counts.
 */
export function GroupForm({
  action: bound,
  kinds,
  buildings,
  initial = EMPTY_GROUP,
  submit,
  pending,
  label,
}: {
  action: FormAction<GroupField>;
  kinds: 'choose' | GroupKind;
  /** The member's buildings with their thermostats, for picking and for the filter. */
  buildings: BulkBuilding[];
  initial?: GroupFormValues;
  submit: string;
  pending: string;
  /** The form's accessible name. */
  label: string;
}) {
  const [state, action] = useActionState(bound, idle);
  // Without JavaScript both kinds are shown.
  const hydrated = useHydrated();
  const values = state.values ?? {};
  const start: GroupFormValues = {
    name: values.name ?? initial.name,
    kind: kinds === 'choose' ? ((values.kind as GroupKind) ?? initial.kind) : kinds,
    thermostatIds: list(values.thermostatIds) ?? initial.thermostatIds,
    buildingIds: list(values.buildingIds) ?? initial.buildingIds,
    label: values.label ?? initial.label,
    connection: values.connection ?? initial.connection,
    resident: values.resident ?? initial.resident,
    attention: list(values.attention) ?? initial.attention,
  };
  const [kind, setKind] = useState<GroupKind>(start.kind);
  const [selected, setSelected] = useState<Set<string>>(() => new Set(start.thermostatIds));
  const errors = state.fieldErrors ?? {};
  // A refilled form starts anew from what the server answered (uncontrolled fields included).
  const version = JSON.stringify(state.values ?? null);
  const shows = (part: GroupKind) =>
    kinds === part || (kinds === 'choose' && (!hydrated || kind === part));

  return (
    <form action={action} aria-label={label} noValidate className="grid gap-5">
      <ErrorSummary state={state} fields={GROUP_FIELDS} />
      <div className="max-w-md">
        <Field
          key={`name-${version}`}
          label="Name"
          name="name"
          defaultValue={start.name}
          maxLength={80}
          required
          autoComplete="off"
          errors={errors.name}
        />
      </div>

      {kinds === 'choose' ? (
        <fieldset className="grid gap-2" aria-describedby="field-kind-errors">
          <legend className="text-sm font-semibold">What the group holds</legend>
          <Radio
            id="group-kind-picked"
            name="kind"
            value="picked"
            label="Hand-picked thermostats"
            description="The thermostats you tick below, until someone changes them."
            checked={kind === 'picked'}
            onChange={() => setKind('picked')}
          />
          <Radio
            id="group-kind-filter"
            name="kind"
            value="filter"
            label="A saved filter"
            description="Whatever matches the conditions below each time the group is used."
            checked={kind === 'filter'}
            onChange={() => setKind('filter')}
          />
          <ErrorList id="field-kind-errors" errors={errors.kind} />
        </fieldset>
      ) : null}

      {kinds === 'filter' ? null : (
        <div hidden={!shows('picked')} className="grid gap-2">
          <ThermostatPicker buildings={buildings} selected={selected} onChange={setSelected} />
          <ErrorList id="field-thermostatIds-errors" errors={errors.thermostatIds} />
        </div>
      )}

      {kinds === 'picked' ? null : (
        <div hidden={!shows('filter')} key={`filter-${version}`}>
          <FilterFields buildings={buildings} start={start} errors={errors} />
        </div>
      )}

      <div>
        <SubmitButton pending={pending}>{submit}</SubmitButton>
      </div>
    </form>
  );
}

/** The saved filter's conditions: every one given must hold. */
function FilterFields({
  buildings,
  start,
  errors,
}: {
  buildings: BulkBuilding[];
  start: GroupFormValues;
  errors: Partial<Record<GroupField, string[]>>;
}) {
  return (
    <Fieldset
      legend="Filter"
      description="Thermostats that meet every condition you set; leave one blank for any. A member sees only those in their buildings."
    >
      <ErrorList id="field-filter-errors" errors={errors.filter} />
      <div className="grid gap-1.5">
        <p className="text-sm font-medium">Buildings (any of those ticked; none ticked: any)</p>
        <BuildingCheckboxes
          buildings={buildings}
          chosen={start.buildingIds}
          empty="No buildings yet."
        />
        <ErrorList id="field-buildingIds-errors" errors={errors.buildingIds} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          label="Unit label contains"
          name="label"
          defaultValue={start.label}
          maxLength={MAX_LABEL_LENGTH}
          hint="Ignoring case, e.g. “4B” or “Lobby”."
          autoComplete="off"
          errors={errors.label}
        />
        <SelectField
          label="Connection"
          name="connection"
          defaultValue={start.connection}
          options={[
            { value: '', label: 'Any' },
            ...Object.entries(CONNECTION_NAMES).map(([value, label]) => ({ value, label })),
          ]}
          hint="As last read."
          errors={errors.connection}
        />
        <SelectField
          label="Resident mode"
          name="resident"
          defaultValue={start.resident}
          options={[
            { value: '', label: 'Any' },
            { value: 'on', label: 'On' },
            { value: 'off', label: 'Off' },
          ]}
          hint="As last read."
          errors={errors.resident}
        />
      </div>
      <fieldset className="grid gap-2" aria-describedby="field-attention-errors">
        <legend className="text-sm font-medium">Needs attention for (any of those ticked)</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {FILTER_ATTENTION_KIND_NAMES.map((kind) => (
            <label key={kind} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="attention"
                value={kind}
                defaultChecked={start.attention.includes(kind)}
                className="mt-0.5 size-4 shrink-0 accent-brand-600"
              />
              <span className="grid gap-0.5">
                <span className="font-medium">{FILTER_ATTENTION_KINDS[kind].name}</span>
                <span className="text-xs text-muted">{FILTER_ATTENTION_KINDS[kind].help}</span>
              </span>
            </label>
          ))}
        </div>
        <ErrorList id="field-attention-errors" errors={errors.attention} />
      </fieldset>
    </Fieldset>
  );
}
