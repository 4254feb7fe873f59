'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { RadioGroup } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

type FieldName = 'event' | 'moveOutOn' | 'moveInDate' | 'moveInTime';
const idle: FormState<FieldName> = { status: 'idle' };

/**
 * What happened to a unit: one choice of the events that fit its state, with the move-out day or
 * the move-in's day and time (in the building's zone) when an event offered takes them. Every
 * field is there at once, with or without JavaScript; the server decides which it reads.
 */
export function OccupancyForm({
  action: bound,
  label,
  choices,
  zoneName,
  today,
}: {
  action: FormAction<FieldName>;
  label: string;
  choices: readonly { value: string; label: string }[];
  /** The building's zone, as the fields' hints name it. */
  zoneName: string;
  /** Today in the building's zone (`YYYY-MM-DD`). */
  today: string;
}) {
  const [state, action] = useActionState(bound, idle);
  const values = state.status === 'error' ? state.values : undefined;
  // Only the dates the offered events take: a move-in's fields beside an occupied unit's choices
  // would ask for what cannot be recorded.
  const offers = (event: string) => choices.some((choice) => choice.value === event);
  return (
    <form
      action={action}
      noValidate
      aria-label={`Record what happened to ${label}`}
      className="grid gap-4"
    >
      <ErrorSummary
        state={state}
        fields={{
          event: 'What happened',
          moveOutOn: 'Move-out day',
          moveInDate: 'Move-in day',
          moveInTime: 'Move-in time',
        }}
      />
      <RadioGroup
        name="event"
        legend="What happened"
        options={choices}
        defaultValue={values?.event}
        errors={state.fieldErrors?.event}
      />
      {offers('give_notice') || offers('schedule_move_in') ? (
        <div className="grid gap-3 sm:grid-cols-3">
          {offers('give_notice') ? (
            <Field
              label="Move-out day"
              name="moveOutOn"
              type="date"
              hint={`With notice given. ${zoneName}.`}
              defaultValue={values?.moveOutOn}
              errors={state.fieldErrors?.moveOutOn}
            />
          ) : null}
          {offers('schedule_move_in') ? (
            <>
              <Field
                label="Move-in day"
                name="moveInDate"
                type="date"
                hint={`With a move-in scheduled. ${zoneName}.`}
                min={today}
                defaultValue={values?.moveInDate}
                errors={state.fieldErrors?.moveInDate}
              />
              <Field
                label="Move-in time"
                name="moveInTime"
                type="time"
                hint="Such as 15:00."
                defaultValue={values?.moveInTime ?? '15:00'}
                errors={state.fieldErrors?.moveInTime}
              />
            </>
          ) : null}
        </div>
      ) : null}
      <div>
        <SubmitButton pending="Saving…">Save</SubmitButton>
      </div>
    </form>
  );
}
