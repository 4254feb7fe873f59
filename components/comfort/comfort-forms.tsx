'use client';

import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import type { FormState } from '@/lib/forms';

const idle: FormState = { status: 'idle' };

/**
 * Each form gets its server action already bound by the server component: an action bound in a
 * client component never finishes rendering in a no-JavaScript post.
 */
type BoundAction = (previous: FormState, form: FormData) => Promise<FormState>;
const FANS = ['auto', 'on'] as const;

export type SetpointHints = { heat: string; cool: string; note?: string };
export type ComfortValues = {
  name: string;
  desiredHeat: string;
  desiredCool: string;
  fanHeat: string;
  fanCool: string;
};

function Message({ state }: { state: FormState }) {
  if (!state.message) return null;
  return <Notice tone={state.status === 'success' ? 'success' : 'error'}>{state.message}</Notice>;
}

function FanSelect({
  id,
  name,
  label,
  defaultValue,
  errors,
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  errors?: string[];
}) {
  return (
    <div className="grid min-w-0 content-start gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        aria-describedby={`${id}-errors`}
        aria-invalid={errors?.length ? true : undefined}
        className="min-h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 text-base aria-invalid:border-red-600 sm:text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        {/* A value outside the allowed set (read from the service) stays visible, to be replaced. */}
        {FANS.includes(defaultValue as never) ? null : (
          <option value={defaultValue}>{defaultValue}</option>
        )}
        {FANS.map((fan) => (
          <option key={fan} value={fan}>
            {fan}
          </option>
        ))}
      </select>
      <div id={`${id}-errors`} aria-live="polite" className="text-sm text-danger">
        {errors?.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
    </div>
  );
}

/** The five fields of a comfort setting, with the thermostat's rule beside the setpoints. */
function Fields({
  prefix,
  state,
  defaults,
  unit,
  hints,
}: {
  prefix: string;
  state: FormState;
  defaults: ComfortValues;
  unit: 'F' | 'C';
  hints: SetpointHints;
}) {
  const values = { ...defaults, ...state.values };
  const errors = state.fieldErrors ?? {};
  return (
    <>
      <Field
        id={`${prefix}-name`}
        label="Name"
        name="name"
        defaultValue={values.name}
        errors={errors.name}
        maxLength={64}
        autoComplete="off"
      />
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field
          id={`${prefix}-heat`}
          label={`Heat setpoint (°${unit})`}
          name="desiredHeat"
          inputMode="decimal"
          defaultValue={values.desiredHeat}
          errors={errors.desiredHeat}
          hint={hints.heat}
        />
        <Field
          id={`${prefix}-cool`}
          label={`Cool setpoint (°${unit})`}
          name="desiredCool"
          inputMode="decimal"
          defaultValue={values.desiredCool}
          errors={errors.desiredCool}
          hint={hints.cool}
        />
        <FanSelect
          id={`${prefix}-fan-heat`}
          name="fanHeat"
          label="Fan when heating"
          defaultValue={values.fanHeat}
          errors={errors.fanHeat}
        />
        <FanSelect
          id={`${prefix}-fan-cool`}
          name="fanCool"
          label="Fan when cooling"
          defaultValue={values.fanCool}
          errors={errors.fanCool}
        />
      </div>
      {hints.note ? <p className="text-xs text-muted">{hints.note}</p> : null}
    </>
  );
}

export function CreateComfortSettingForm({
  create,
  unit,
  hints,
}: {
  create: BoundAction;
  unit: 'F' | 'C';
  hints: SetpointHints;
}) {
  const [state, action, pending] = useActionState(create, idle);
  const blank = { name: '', desiredHeat: '', desiredCool: '', fanHeat: 'auto', fanCool: 'auto' };
  return (
    <form action={action} aria-label="New comfort setting" className="grid gap-4">
      <Message state={state} />
      <Fields prefix="new" state={state} defaults={blank} unit={unit} hints={hints} />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Creating…' : 'Create comfort setting'}
        </Button>
      </div>
    </form>
  );
}

export function EditComfortSettingForm({
  update,
  comfortSettingRef,
  current,
  unit,
  hints,
}: {
  update: BoundAction;
  comfortSettingRef: string;
  current: ComfortValues;
  unit: 'F' | 'C';
  hints: SetpointHints;
}) {
  const [state, action, pending] = useActionState(update, idle);
  return (
    <form action={action} aria-label={`Edit ${current.name}`} className="grid gap-4">
      <Message state={state} />
      <Fields
        prefix={`edit-${comfortSettingRef}`}
        state={state}
        defaults={current}
        unit={unit}
        hints={hints}
      />
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? 'Saving…' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}

export function DeleteComfortSettingForm({ remove, name }: { remove: BoundAction; name: string }) {
  const [state, action, pending] = useActionState(remove, idle);
  return (
    <form action={action} aria-label={`Delete ${name}`} className="grid gap-3">
      <Message state={state} />
      <p className="text-sm">
        Delete <strong>{name}</strong> from this thermostat? This cannot be undone.
      </p>
      <div>
        <Button type="submit" variant="danger" disabled={pending}>
          {pending ? 'Deleting…' : `Yes, delete ${name}`}
        </Button>
      </div>
    </form>
  );
}
