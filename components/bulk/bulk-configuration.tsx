'use client';

import { type FormEvent, useActionState, useMemo, useState } from 'react';
import {
  fanOnTimeField,
  RANGE_FIELDS,
  rangeField,
} from '@/components/settings/configuration-fields';
import { Button } from '@/components/ui/button';
import { ErrorSummary } from '@/components/ui/error-summary';
import { Field } from '@/components/ui/field';
import { ErrorList, Radio } from '@/components/ui/form-parts';
import { useHydrated } from '@/components/ui/use-hydrated';
import type { BulkFormState } from '@/lib/bulk/form';
import type { FormAction } from '@/lib/platform/forms';
import {
  type ConfigurationErrors,
  type ConfigurationField,
  HOLD_ACTION_TEXT,
  heatCoolGapRule,
  heatCoolGapWords,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { HOLD_ACTIONS } from '@/lib/service/schemas';
import { BulkReviewPanel } from './bulk-review';
import { type BulkBuilding, type PickerGroup, ThermostatPicker } from './thermostat-picker';

type Values = Record<ConfigurationField, string>;
const EMPTY: Values = {
  heatMin: '',
  heatMax: '',
  coolMin: '',
  coolMax: '',
  holdAction: '',
  fanMinimumOnTime: '',
};
const idle: BulkFormState = { status: 'idle' };

/** The fields a refused change's summary links to, in the form's order. */
const summaryFields = (unit: 'F' | 'C') => ({
  ...Object.fromEntries(RANGE_FIELDS.map((field) => [field, rangeField(field, unit).label])),
  holdAction: { label: 'Hold action', id: 'bulk-holdAction-errors' },
  fanMinimumOnTime: fanOnTimeField.label,
});

/**
 * Bulk configuration, in two steps that work without JavaScript too: pick thermostats across
 * buildings and fill in only the settings to change, then confirm ("Apply to 676 thermostats?",
 * with the change in words). The confirmation starts a run as a job and goes to its page, where
 * every member can follow it; nothing is sent before it.
 */
export function BulkConfiguration({
  buildings,
  unit,
  limits,
  initialSelected = [],
  gaps = {},
  groups,
  review,
  start,
}: {
  buildings: BulkBuilding[];
  /** The organisation's groups, to select by (their thermostats in the member's scope). */
  groups?: PickerGroup[];
  unit: 'F' | 'C';
  limits: { heat: string; cool: string; gap: string };
  /**
   * Each thermostat's own minimum heat–cool gap as last read (null: never read), so that the
   * check made here keeps the largest among those selected, as the server's does.
   */
  gaps?: Record<string, { label: string; gap: number | null }>;
  /** Thermostats already chosen (ticked on a building's page). */
  initialSelected?: string[];
  review: FormAction<string>;
  start: FormAction<string>;
}) {
  const [state, reviewAction, reviewing] = useActionState(
    review as (previous: BulkFormState, form: FormData) => Promise<BulkFormState>,
    idle,
  );
  // What the page offers without JavaScript differs a little.
  const hydrated = useHydrated();
  const [selected, setSelected] = useState<Set<string>>(
    () => new Set(state.selected ?? initialSelected),
  );
  const [values, setValues] = useState<Values>(() => ({ ...EMPTY, ...state.values }));
  const [clientErrors, setClientErrors] = useState<ConfigurationErrors | null>(null);
  const [clientMessage, setClientMessage] = useState<string | null>(null);
  // Each refused attempt, counted so that the same problem twice brings the summary back in view.
  const [attempt, setAttempt] = useState(0);
  // A review is shown until anything it was made from changes.
  const [stale, setStale] = useState(false);

  const errors = clientErrors ?? state.fieldErrors ?? {};
  // What the summary at the top says: the check made here, or the server's refusal.
  const refused = useMemo<BulkFormState>(
    () =>
      clientMessage && attempt > 0
        ? { status: 'error', message: clientMessage, fieldErrors: clientErrors ?? undefined }
        : state.status === 'error'
          ? state
          : idle,
    [clientMessage, clientErrors, attempt, state],
  );
  const confirming = state.status === 'success' && state.review && !stale;

  const edit =
    <T,>(apply: (value: T) => void) =>
    (value: T) => {
      apply(value);
      setStale(true);
    };
  const set = (field: ConfigurationField) =>
    edit((value: string) => setValues((previous) => ({ ...previous, [field]: value })));

  // Checked here first for an answer at once; the server checks everything again.
  function check(event: FormEvent<HTMLFormElement>) {
    setClientMessage(null);
    setClientErrors(null);
    const rule = heatCoolGapRule([...selected].map((id) => gaps[id] ?? { label: id, gap: null }));
    const checked = validateConfiguration(values, {
      unit,
      heatCoolMinDelta: rule.gap,
      gapWords: heatCoolGapWords(rule, unit),
    });
    let problem: string | null = null;
    if (!checked.ok) {
      setClientErrors(checked.fieldErrors);
      problem = 'Check the highlighted fields; nothing was sent.';
    } else if (Object.keys(checked.changes).length === 0) {
      problem = 'Fill in at least one setting to change; blank fields are left as they are.';
    } else if (selected.size === 0) {
      problem = 'Select at least one thermostat.';
    }
    if (problem) {
      event.preventDefault();
      setClientMessage(problem);
      setAttempt((n) => n + 1);
    } else {
      setStale(false);
    }
  }

  if (confirming && state.review) {
    return (
      <BulkReviewPanel
        review={state.review}
        values={values}
        start={start}
        back={reviewAction}
        onBack={hydrated ? () => setStale(true) : undefined}
      />
    );
  }

  const count = selected.size;
  return (
    <form action={reviewAction} onSubmit={check} noValidate className="grid gap-6">
      <ErrorSummary state={refused} fields={summaryFields(unit)} />
      <ThermostatPicker
        buildings={buildings}
        groups={groups}
        selected={selected}
        onChange={edit(setSelected)}
      />

      <section aria-labelledby="changes-heading" className="grid gap-4">
        <div>
          <h2 id="changes-heading" className="text-lg font-medium">
            Settings to change
          </h2>
          <p className="mt-1 text-sm text-muted">
            Only the fields you fill in are sent; blank ones stay as each thermostat has them.
            Ranges need both ends. Device limits: heat {limits.heat}, cool {limits.cool}; each cool
            limit at least {limits.gap} above the matching heat limit.
          </p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {RANGE_FIELDS.map((field) => (
            <Field
              key={field}
              {...rangeField(field, unit)}
              value={values[field]}
              onChange={(event) => set(field)(event.currentTarget.value)}
              errors={errors[field]}
            />
          ))}
        </div>
        <fieldset className="grid gap-2 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
          <legend className="px-1 text-sm font-semibold">Hold action</legend>
          {['', ...HOLD_ACTIONS].map((choice) => {
            const text = choice
              ? HOLD_ACTION_TEXT[choice]
              : { label: 'Leave as it is', description: 'Each thermostat keeps its own.' };
            return (
              <Radio
                key={choice || 'keep'}
                id={`bulk-holdAction-${choice || 'keep'}`}
                name="holdAction"
                value={choice}
                label={text?.label ?? choice}
                description={text?.description}
                checked={values.holdAction === choice}
                onChange={() => set('holdAction')(choice)}
              />
            );
          })}
          <ErrorList id="bulk-holdAction-errors" errors={errors.holdAction} />
        </fieldset>
        <div className="max-w-xs">
          <Field
            {...fanOnTimeField}
            value={values.fanMinimumOnTime}
            onChange={(event) => set('fanMinimumOnTime')(event.currentTarget.value)}
            errors={errors.fanMinimumOnTime}
            hint="0 to 55; blank leaves it as it is."
          />
        </div>
      </section>

      <div className="flex flex-wrap items-center gap-3">
        {/* Without JavaScript the page cannot count the ticks: the next step says how many. */}
        <Button type="submit" disabled={reviewing || (hydrated && count === 0)}>
          {hydrated
            ? `Apply to ${count} thermostat${count === 1 ? '' : 's'}…`
            : 'Review the change…'}
        </Button>
        <p className="text-sm text-muted">You confirm on the next step; nothing is sent before.</p>
      </div>
    </form>
  );
}
