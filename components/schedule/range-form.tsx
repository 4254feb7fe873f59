'use client';

import { useActionState } from 'react';
import { SelectField } from '@/components/ui/field';
import { ErrorSummary } from '@/components/ui/error-summary';
import { ErrorList } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormState } from '@/lib/platform/forms';
import { BLOCKS_PER_DAY, blockTime, DAY_LABELS } from '@/lib/schedule/blocks';
import { DAYS } from '@/lib/service/schemas';

const idle: FormState = { status: 'idle' };
const BLOCKS = Array.from({ length: BLOCKS_PER_DAY }, (_, block) => block);
// A range starts at a block's start and ends at a block's end: "09:00" ends block 17.
const STARTS = BLOCKS.map((block) => ({ value: String(block), label: blockTime(block) }));
const ENDS = BLOCKS.map((block) => ({ value: String(block), label: blockTime(block + 1) }));

/** The same range edit as the grid, as a plain form: works without JavaScript. */
export function RangeForm({
  apply,
  choices,
}: {
  /**
   * The server action, bound to the thermostat by the server component: an action bound in a
   * client component never finishes rendering in a no-JavaScript post (its bound arguments
   * stay pending in the server render), so this form must get it ready-bound.
   */
  apply: (previous: FormState, form: FormData) => Promise<FormState>;
  choices: { ref: string; name: string }[];
}) {
  const [state, action] = useActionState(apply, idle);
  const errors = state.fieldErrors ?? {};
  const values = state.values ?? {};
  const checked = new Set((values.days ?? '').split(','));
  return (
    <form action={action} className="grid gap-4" aria-label="Set a time range">
      <ErrorSummary
        state={state}
        fields={{
          days: { label: 'Days', id: 'range-days-errors' },
          from: { label: 'From', id: 'range-from' },
          to: { label: 'To', id: 'range-to' },
          comfortSettingRef: { label: 'Comfort setting', id: 'range-comfort' },
        }}
      />
      <fieldset
        className="grid gap-2"
        aria-describedby="range-days-errors"
        aria-invalid={errors.days ? true : undefined}
      >
        <legend className="text-sm font-medium">Days</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {DAYS.map((day) => (
            <label key={day} className="flex min-h-6 items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="days"
                value={day}
                defaultChecked={checked.has(day)}
                className="size-4"
              />
              {DAY_LABELS[day]}
            </label>
          ))}
        </div>
        <ErrorList id="range-days-errors" errors={errors.days} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        {[
          { id: 'range-from', label: 'From', name: 'from', options: STARTS, initial: '14' },
          { id: 'range-to', label: 'To', name: 'to', options: ENDS, initial: '17' },
          {
            id: 'range-comfort',
            label: 'Comfort setting',
            name: 'comfortSettingRef',
            options: choices.map((choice) => ({ value: choice.ref, label: choice.name })),
          },
        ].map(({ initial, ...select }) => (
          <SelectField
            key={select.name}
            {...select}
            defaultValue={values[select.name] ?? initial}
            errors={errors[select.name]}
          />
        ))}
      </div>
      <div>
        <SubmitButton pending="Saving…" variant="secondary">
          Set time range
        </SubmitButton>
      </div>
    </form>
  );
}
