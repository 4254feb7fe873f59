'use client';

import { useActionState, useState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { Checkbox, Fieldset, RadioGroup } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import { useHydrated } from '@/components/ui/use-hydrated';
import type { FormAction, FormState } from '@/lib/platform/forms';
import { type AccessControlField, LOCK_AREA_TEXT } from '@/lib/settings/access-control';
import { LOCK_AREAS } from '@/lib/service/schemas';

type State = FormState<AccessControlField | 'passcodeSet' | 'form'>;
const idle: State = { status: 'idle' };
const ON_OFF = [
  { value: 'on', label: 'On' },
  { value: 'off', label: 'Off' },
];

/** The fields a refused save's summary links to, in the form's order. */
const SUMMARY_FIELDS = {
  enabled: { label: 'Access control', id: 'field-enabled-errors' },
  passcode: 'New passcode',
  clearPasscode: 'Remove the passcode',
  ...Object.fromEntries(LOCK_AREAS.map((area) => [area, `${LOCK_AREA_TEXT[area].label} lock`])),
};

/** `enabled` is null when Setpoint does not know the current state (it cannot read it). */
type Initial = {
  enabled: boolean | null;
  settings: Record<(typeof LOCK_AREAS)[number], boolean>;
};

/**
 * Access control. The service cannot be asked for the current state (it has no read endpoint):
 * what it answered to the last save made here is kept in this component only, never the passcode.
 */
export function AccessControlForm({
  action: bound,
  initial,
}: {
  action: FormAction<AccessControlField | 'passcodeSet' | 'form'>;
  initial: Initial;
}) {
  const [state, action] = useActionState(bound, idle);
  const chosen = state.values
    ? {
        enabled:
          state.values.enabled === 'on' ? true : state.values.enabled === 'off' ? false : null,
        settings: Object.fromEntries(
          LOCK_AREAS.map((area) => [area, state.values?.[area] === 'on']),
        ) as Initial['settings'],
      }
    : initial;
  const answered = state.status === 'success' && state.values ? state.values : null;
  return (
    <div className="grid gap-5">
      {answered ? (
        <section aria-labelledby="answer-heading" className="grid gap-2 text-sm">
          <h3 id="answer-heading" className="font-medium">
            In force after your save
          </h3>
          <p>
            Access control <strong>{answered.enabled === 'on' ? 'on' : 'off'}</strong>; passcode{' '}
            <strong>
              {answered.passcodeSet === 'yes'
                ? 'set'
                : answered.passcodeSet === 'no'
                  ? 'not set'
                  : 'as before'}
            </strong>
            ; locked:{' '}
            <strong>
              {LOCK_AREAS.filter((area) => answered[area] === 'on')
                .map((area) => LOCK_AREA_TEXT[area].label.toLowerCase())
                .join(', ') || 'nothing'}
            </strong>
            .
          </p>
        </section>
      ) : null}
      <AccessControlFields
        key={JSON.stringify(state.values ?? null)}
        action={action}
        state={state}
        chosen={chosen}
      />
    </div>
  );
}

function AccessControlFields({
  action,
  state,
  chosen,
}: {
  action: (form: FormData) => void;
  state: State;
  chosen: Initial;
}) {
  // With JavaScript the locks' description follows the choice as the member makes it (before
  // saving), as a guide only: every field stays usable (never disabled), so that without
  // JavaScript "On", a passcode and the locks go in one save, and the server decides what applies.
  // (Not dimmed either: dimmed text that can still be used fails its contrast.)
  const [enabled, setEnabled] = useState(chosen.enabled);
  // Only once hydrated can the page follow the choice as it is made.
  const hydrated = useHydrated();
  const errors = state.fieldErrors ?? {};
  // Unknown: neither on nor off is ticked, and the hint says why.
  const unknown = chosen.enabled === null;
  return (
    <form action={action} noValidate className="grid gap-5">
      <ErrorSummary state={state} fields={SUMMARY_FIELDS} level={3} />
      <RadioGroup
        legend="Access control"
        name="enabled"
        hint={`${unknown ? 'Setpoint cannot read whether it is on now: choose what it should be. ' : ''}When on, the areas you lock below need the passcode at the thermostat. Turning it off unlocks everything and removes the passcode.`}
        options={ON_OFF}
        defaultValue={unknown ? undefined : chosen.enabled ? 'on' : 'off'}
        onChange={(value) => setEnabled(value === 'on')}
        errors={errors.enabled}
      />
      <Fieldset
        legend="Passcode"
        description="Exactly 4 digits (leading zeros count, e.g. 0123). Only while access control is on. It is sent to the thermostat and never shown again."
      >
        <div className="max-w-xs">
          <Field
            label="New passcode"
            name="passcode"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            defaultValue=""
            errors={errors.passcode}
            hint="Leave blank to keep the current passcode."
          />
        </div>
        <Checkbox name="clearPasscode" label="Remove the passcode" errors={errors.clearPasscode} />
      </Fieldset>
      <Fieldset
        legend="Locked areas"
        description={
          !hydrated
            ? 'With access control on, ticked areas need the passcode; saving sets all five as shown. With it off, nothing is locked, whatever is ticked.'
            : enabled
              ? 'Ticked areas need the passcode. Saving sets all five as shown.'
              : 'Locks apply only while access control is on: with it off, nothing is locked, whatever is ticked.'
        }
      >
        {LOCK_AREAS.map((area) => (
          <Checkbox
            key={area}
            name={area}
            label={LOCK_AREA_TEXT[area].label}
            description={LOCK_AREA_TEXT[area].description}
            defaultChecked={chosen.settings[area]}
            errors={errors[area]}
          />
        ))}
      </Fieldset>
      <div>
        <SubmitButton pending="Saving…">Save access control</SubmitButton>
      </div>
    </form>
  );
}
