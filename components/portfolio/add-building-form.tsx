'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field, SelectField } from '@/components/ui/field';
import type { FormAction, FormState } from '@/lib/platform/forms';
import type { BuildingField } from '@/lib/portfolio/buildings';

/**
 * A building of the portfolio: its name here, its id at the service (which creating and moving
 * thermostats use) and its time zone (its schedules run in it).
 */
export function AddBuildingForm({
  action: addBuilding,
  timeZones,
  defaultTimeZone,
}: {
  action: FormAction<BuildingField>;
  timeZones: readonly { value: string; label: string }[];
  defaultTimeZone: string;
}) {
  const [state, submit, pending] = useActionState<FormState<BuildingField>, FormData>(addBuilding, {
    status: 'idle',
  });
  const values = state.status === 'error' ? state.values : undefined;
  // A new key after each success empties the fields for the next building.
  return (
    <form action={submit} className="grid gap-3" key={state.message ?? 'new'}>
      <ErrorSummary
        state={state}
        level={3}
        fields={{
          name: 'Building name',
          buildingId: 'Building id at the service',
          timeZone: 'Time zone',
          address: 'Address (optional)',
        }}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label="Building name"
          name="name"
          defaultValue={values?.name}
          errors={state.fieldErrors?.name}
          hint="As your team calls it, e.g. “Harbor View Apartments”."
        />
        <Field
          label="Building id at the service"
          name="buildingId"
          defaultValue={values?.buildingId}
          errors={state.fieldErrors?.buildingId}
          hint="24 characters, 0-9 and a-f, as the thermostat service shows it."
          autoComplete="off"
          spellCheck={false}
        />
        <SelectField
          label="Time zone"
          name="timeZone"
          defaultValue={values?.timeZone || defaultTimeZone}
          errors={state.fieldErrors?.timeZone}
          options={timeZones}
          hint="Its thermostats’ schedules run in this zone."
        />
        <Field
          label="Address (optional)"
          name="address"
          defaultValue={values?.address}
          errors={state.fieldErrors?.address}
        />
      </div>
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? 'Adding…' : 'Add building'}
        </Button>
      </div>
    </form>
  );
}
