'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/forms';
import { BLOCKS_PER_DAY, blockTime, DAY_LABELS } from '@/lib/schedule/blocks';
import { DAYS } from '@/lib/thermostat-api/schemas';
import { selectClass } from '@/components/ui/form-parts';

const idle: FormState = { status: 'idle' };
const BLOCKS = Array.from({ length: BLOCKS_PER_DAY }, (_, block) => block);
function Errors({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div id={id} aria-live="polite" className="text-sm text-danger">
      {errors?.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

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
  const [state, action, pending] = useActionState(apply, idle);
  const errors = state.fieldErrors ?? {};
  const values = state.values ?? {};
  const checked = new Set((values.days ?? '').split(','));
  return (
    <form action={action} className="grid gap-4" aria-label="Set a time range">
      {state.message ? (
        <Notice tone={state.status === 'success' ? 'success' : 'error'}>{state.message}</Notice>
      ) : null}
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
        <Errors id="range-days-errors" errors={errors.days} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="grid content-start gap-1.5">
          <label htmlFor="range-from" className="text-sm font-medium">
            From
          </label>
          <select
            id="range-from"
            name="from"
            defaultValue={values.from ?? '14'}
            aria-describedby="range-from-errors"
            aria-invalid={errors.from ? true : undefined}
            className={selectClass}
          >
            {BLOCKS.map((block) => (
              <option key={block} value={block}>
                {blockTime(block)}
              </option>
            ))}
          </select>
          <Errors id="range-from-errors" errors={errors.from} />
        </div>
        <div className="grid content-start gap-1.5">
          <label htmlFor="range-to" className="text-sm font-medium">
            To
          </label>
          <select
            id="range-to"
            name="to"
            defaultValue={values.to ?? '17'}
            aria-describedby="range-to-errors"
            aria-invalid={errors.to ? true : undefined}
            className={selectClass}
          >
            {/* The option names the end of the last block: "09:00" ends block 17. */}
            {BLOCKS.map((block) => (
              <option key={block} value={block}>
                {blockTime(block + 1)}
              </option>
            ))}
          </select>
          <Errors id="range-to-errors" errors={errors.to} />
        </div>
        <div className="grid content-start gap-1.5">
          <label htmlFor="range-comfort" className="text-sm font-medium">
            Comfort setting
          </label>
          <select
            id="range-comfort"
            name="comfortSettingRef"
            defaultValue={values.comfortSettingRef}
            aria-describedby="range-comfort-errors"
            aria-invalid={errors.comfortSettingRef ? true : undefined}
            className={selectClass}
          >
            {choices.map((choice) => (
              <option key={choice.ref} value={choice.ref}>
                {choice.name}
              </option>
            ))}
          </select>
          <Errors id="range-comfort-errors" errors={errors.comfortSettingRef} />
        </div>
      </div>
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? 'Saving…' : 'Set time range'}
        </Button>
      </div>
    </form>
  );
}
