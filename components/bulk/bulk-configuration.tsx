'use client';

import { type FormEvent, useMemo, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { type BulkItemResult, mergeResults, summarize, toRetry } from '@/lib/bulk/plan';
import {
  type ConfigurationErrors,
  type ConfigurationField,
  DEFAULT_HEAT_COOL_MIN_DELTA,
  HOLD_ACTION_TEXT,
  validateConfiguration,
} from '@/lib/settings/configuration';
import { HOLD_ACTIONS } from '@/lib/thermostat-api/schemas';
import { BulkResults } from './bulk-results';
import { ThermostatPicker } from './thermostat-picker';

export type BulkBuilding = {
  buildingId: string;
  name: string;
  thermostats: { thermostatId: string; label: string }[];
};

type Values = Record<ConfigurationField, string>;
const EMPTY: Values = {
  heatMin: '',
  heatMax: '',
  coolMin: '',
  coolMax: '',
  holdAction: '',
  fanMinimumOnTime: '',
};

type Run = {
  /** The thermostats of this run, in the order they were selected for it. */
  selection: string[];
  values: Values;
  results: BulkItemResult[];
  running: boolean;
  /** How many have a result in the current pass (a retry counts only its own). */
  done: number;
  passTotal: number;
  message?: string;
};

/**
 * Bulk configuration: pick thermostats across buildings, fill in only the settings to change,
 * and follow the run as it goes (requests of 25, a few at once), with a result for every
 * thermostat and a retry of the ones that did not apply. The run streams from a route handler,
 * so its progress lives in this component's state.
 */
export function BulkConfiguration({
  buildings,
  unit,
  limits,
}: {
  buildings: BulkBuilding[];
  unit: 'F' | 'C';
  limits: { heat: string; cool: string; gap: string };
}) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<ConfigurationErrors>({});
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const stopRequested = useRef<AbortController | null>(null);

  const where = useMemo(() => {
    const map = new Map<string, { label: string; building: string }>();
    for (const building of buildings)
      for (const t of building.thermostats)
        map.set(t.thermostatId, { label: t.label, building: building.name });
    return map;
  }, [buildings]);

  const set = (field: ConfigurationField) => (value: string) =>
    setValues((previous) => ({ ...previous, [field]: value }));

  async function execute(ids: string[], runValues: Values, previous: BulkItemResult[] | null) {
    const selection = previous ? (run?.selection ?? ids) : ids;
    const base = previous ?? [];
    const controller = new AbortController();
    stopRequested.current = controller;
    let fresh: BulkItemResult[] = [];
    const update = (patch: Partial<Run>) =>
      setRun({
        selection,
        values: runValues,
        results: mergeResults(selection, base, fresh),
        running: true,
        done: fresh.length,
        passTotal: ids.length,
        ...patch,
      });
    update({});
    let message: string | undefined;
    try {
      const response = await fetch('/bulk/apply', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ thermostatIds: ids, values: runValues }),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as {
          message?: string;
          fieldErrors?: ConfigurationErrors;
        } | null;
        if (body?.fieldErrors) setErrors(body.fieldErrors);
        message = body?.message ?? 'Setpoint could not start the run; nothing was sent.';
        fresh = ids.map((thermostatId) => ({
          thermostatId,
          outcome: 'not_attempted',
          detail: message ?? 'Not sent.',
        }));
      } else {
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          for (const line of lines) {
            if (!line.trim()) continue;
            const event = JSON.parse(line) as { type: string; results?: BulkItemResult[] };
            if (event.type === 'chunk' && event.results) {
              fresh = [...fresh, ...event.results];
              update({});
            }
          }
        }
      }
    } catch {
      message = controller.signal.aborted
        ? 'Stopped. Requests already sent may still have applied; their results are unknown.'
        : 'Setpoint lost contact with the run. Thermostats without a result may or may not have changed; retry them.';
    }
    // Nothing silently dropped: an id of this pass with no answer is reported as unknown.
    const answered = new Set(fresh.map((r) => r.thermostatId));
    const missing = ids
      .filter((id) => !answered.has(id))
      .map(
        (thermostatId): BulkItemResult => ({
          thermostatId,
          outcome: 'failed',
          detail: message ?? 'No result came back; retry it.',
        }),
      );
    fresh = [...fresh, ...missing];
    stopRequested.current = null;
    update({ running: false, message });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormMessage(null);
    const ids = [...selected];
    const checked = validateConfiguration(values, {
      unit,
      heatCoolMinDelta: DEFAULT_HEAT_COOL_MIN_DELTA,
    });
    if (!checked.ok) {
      setErrors(checked.fieldErrors);
      setFormMessage('Check the highlighted fields; nothing was sent.');
      return;
    }
    setErrors({});
    if (Object.keys(checked.changes).length === 0) {
      setFormMessage('Fill in at least one setting to change; blank fields are left as they are.');
      return;
    }
    if (ids.length === 0) {
      setFormMessage('Select at least one thermostat.');
      return;
    }
    void execute(ids, values, null);
  }

  const summary = run ? summarize(run.results) : null;
  const retryIds = run && !run.running ? toRetry(run.results) : [];

  return (
    <div className="grid gap-6">
      <form onSubmit={submit} noValidate className="grid gap-6">
        <ThermostatPicker buildings={buildings} selected={selected} onChange={setSelected} />

        <section aria-labelledby="changes-heading" className="grid gap-4">
          <div>
            <h2 id="changes-heading" className="text-lg font-medium">
              Settings to change
            </h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              Only the fields you fill in are sent; blank ones stay as each thermostat has them.
              Ranges need both ends. Device limits: heat {limits.heat}, cool {limits.cool}; each
              cool limit at least {limits.gap} above the matching heat limit.
            </p>
          </div>
          {formMessage ? <Notice tone="error">{formMessage}</Notice> : null}
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {(['heatMin', 'heatMax', 'coolMin', 'coolMax'] as const).map((field) => (
              <Field
                key={field}
                label={`${
                  {
                    heatMin: 'Heat minimum',
                    heatMax: 'Heat maximum',
                    coolMin: 'Cool minimum',
                    coolMax: 'Cool maximum',
                  }[field]
                } (°${unit})`}
                name={field}
                inputMode="decimal"
                value={values[field]}
                onChange={(event) => set(field)(event.currentTarget.value)}
                errors={errors[field]}
              />
            ))}
          </div>
          <fieldset className="grid gap-2 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
            <legend className="px-1 text-sm font-semibold">Hold action</legend>
            {['', ...HOLD_ACTIONS].map((choice) => {
              const id = `bulk-holdAction-${choice || 'keep'}`;
              const text = choice
                ? HOLD_ACTION_TEXT[choice]
                : { label: 'Leave as it is', description: 'Each thermostat keeps its own.' };
              return (
                <div key={id} className="flex items-start gap-2">
                  <input
                    id={id}
                    type="radio"
                    name="holdAction"
                    value={choice}
                    checked={values.holdAction === choice}
                    onChange={() => set('holdAction')(choice)}
                    aria-describedby={`${id}-hint`}
                    className="mt-0.5 size-4 shrink-0 accent-brand-600"
                  />
                  <div className="grid gap-0.5">
                    <label htmlFor={id} className="text-sm font-medium">
                      {text?.label}
                    </label>
                    <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
                      {text?.description}
                    </p>
                  </div>
                </div>
              );
            })}
            {errors.holdAction ? (
              <p className="text-sm text-red-700 dark:text-red-400">{errors.holdAction[0]}</p>
            ) : null}
          </fieldset>
          <div className="max-w-xs">
            <Field
              label="Fan minimum on-time (minutes per hour)"
              name="fanMinimumOnTime"
              inputMode="numeric"
              value={values.fanMinimumOnTime}
              onChange={(event) => set('fanMinimumOnTime')(event.currentTarget.value)}
              errors={errors.fanMinimumOnTime}
              hint="0 to 55; blank leaves it as it is."
            />
          </div>
        </section>

        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={run?.running}>
            Apply to {selected.size} thermostat{selected.size === 1 ? '' : 's'}
          </Button>
          {run?.running ? (
            <Button variant="secondary" onClick={() => stopRequested.current?.abort()}>
              Stop
            </Button>
          ) : null}
        </div>
      </form>

      {run && summary ? (
        <section aria-labelledby="run-heading" className="grid gap-4">
          <h2 id="run-heading" className="text-lg font-medium">
            {run.running ? 'Applying…' : 'Results'}
          </h2>
          <div className="grid gap-2">
            <label htmlFor="bulk-progress" className="text-sm font-medium">
              Progress
            </label>
            <progress
              id="bulk-progress"
              max={run.passTotal}
              value={run.done}
              className="h-3 w-full overflow-hidden rounded-full accent-brand-600"
            />
            <p role="status" aria-live="polite" className="text-sm">
              {run.running
                ? `${run.done} of ${run.passTotal} thermostats have a result…`
                : `${summary.applied} applied, ${summary.failed} failed, ${summary.not_attempted} not attempted (of ${summary.total}).`}
            </p>
          </div>
          {run.message ? <Notice tone="warning">{run.message}</Notice> : null}
          {retryIds.length > 0 ? (
            <div>
              <Button onClick={() => void execute(retryIds, run.values, run.results)}>
                Retry the {retryIds.length} that did not apply
              </Button>
            </div>
          ) : null}
          <BulkResults results={run.results} where={where} />
        </section>
      ) : null}
    </div>
  );
}
