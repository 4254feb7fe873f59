'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { ErrorSummary } from '@/components/ui/error-summary';
import { SelectField } from '@/components/ui/field';
import type { PreferenceField } from '@/lib/auth/preferences';
import type { FormAction, FormState } from '@/lib/platform/forms';

/** The member's own clock and unit: how every page shows them times and temperatures. */
export function PreferencesForm({
  action: savePreferences,
  timeZones,
  timeZone,
  temperatureUnit,
}: {
  action: FormAction<PreferenceField>;
  timeZones: readonly { value: string; label: string }[];
  timeZone: string;
  temperatureUnit: 'F' | 'C';
}) {
  const [state, submit, pending] = useActionState<FormState<PreferenceField>, FormData>(
    savePreferences,
    { status: 'idle' },
  );
  const values = state.status === 'error' ? state.values : undefined;
  return (
    <form action={submit} className="grid gap-3">
      <ErrorSummary
        state={state}
        level={3}
        fields={{ timeZone: 'Your time zone', temperatureUnit: 'Temperatures in' }}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Your time zone"
          name="timeZone"
          defaultValue={values?.timeZone || timeZone}
          errors={state.fieldErrors?.timeZone}
          options={timeZones}
          hint="The activity log, runs, members and notifications show times in it, and your email digest and quiet hours keep it. A thermostat’s own events are in its building’s zone."
        />
        <SelectField
          label="Temperatures in"
          name="temperatureUnit"
          defaultValue={values?.temperatureUnit || temperatureUnit}
          errors={state.fieldErrors?.temperatureUnit}
          options={[
            { value: 'F', label: 'Fahrenheit (°F)' },
            { value: 'C', label: 'Celsius (°C)' },
          ]}
        />
      </div>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
