import { Link } from '@/components/ui/link';
import type { BulkRunItemRow } from '@/lib/runs/store';
import { sectionLines, type ThermostatPlan } from '@/lib/templates/plan';
import { applyCostInWords, runChangesSchema } from '@/lib/templates/run-words';
import {
  type PlanSummaryWithSections,
  summarySections,
  type TemplateSections,
} from '@/lib/templates/summary';
import { problemsIn, sectionCountWords } from '@/lib/templates/words';
import type { TemperatureUnit } from '@/lib/platform/units';

/**
 * A planned run's plan as a manager reads it before applying: one line per section ("Weekly
 * schedule: changes on 3 of 3", "Comfort settings: already match on 5 of 5"); how many thermostats
 * change, need nothing, or cannot be changed; the calls it costs and the time it takes under the
 * call budget; then each thermostat's changes, before → after, in a disclosure (no JavaScript
 * needed).
 */

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function PlanSummaryView({
  summary,
  warnings,
  changes,
}: {
  summary: PlanSummaryWithSections;
  warnings: number;
  /**
   * The run's changes (`bulk_runs.changes`): its template names the sections that change on no
   * thermostat (they already match everywhere), which the summary alone does not know.
   */
  changes?: unknown;
}) {
  const sections = summarySections(summary, templateOf(changes));
  return (
    <div className="grid gap-3">
      {sections.length > 0 ? (
        <ul aria-label="By section" className="grid gap-1 text-sm">
          {sections.map((count) => (
            <li key={count.section} className="font-medium">
              {sectionCountWords(count)}
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {[
          ['Change', summary.changing],
          ['Already match', summary.unchanged],
          ['Cannot change', summary.blocked],
          ['Service calls', summary.calls],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
            <dt className="text-muted">{label}</dt>
            <dd className="text-xl font-semibold tabular-nums">
              {Number(value).toLocaleString('en')}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-sm">
        {applyCostInWords(summary.calls, summary.seconds)}
        {summary.scheduleProvenFewest
          ? null
          : ' Some schedules need at most the updates shown (the fewest could not be proven in time).'}
      </p>
      {summary.resets ? (
        <p role="alert" className="text-sm font-semibold text-red-800 dark:text-red-300">
          Turning resident mode off resets {plural(summary.resets, 'thermostat’s', 'thermostats’')}{' '}
          comfort settings (custom ones removed), weekly schedule, configuration, alert settings and
          access control to the service’s defaults. What each had is kept with this run, so undoing
          it puts them back (passcodes excepted).
        </p>
      ) : null}
      {warnings > 0 ? (
        <p className="text-sm font-medium text-amber-800 dark:text-amber-300">
          {plural(warnings, 'thermostat has', 'thermostats have')} changed since the change being
          undone; see the warnings below before you apply.
        </p>
      ) : null}
    </div>
  );
}

/** A run's template, where its changes hold one (a template run, a one-off change's body). */
function templateOf(changes: unknown): TemplateSections | null {
  if (changes === undefined) return null;
  return runChangesSchema.safeParse(changes).data?.template ?? null;
}

const STATE_WORDS = {
  changes: 'Changes',
  unchanged: 'Already matches',
  blocked: 'Cannot change',
  pending: 'Reading…',
} as const;

/** Each thermostat of a page of the plan: what changes, or why not (in the reader's `unit`). */
export function PlanItems({ items, unit }: { items: BulkRunItemRow[]; unit: TemperatureUnit }) {
  return (
    <ul className="grid gap-2">
      {items.map((item) => {
        const plan = item.plan as unknown as ThermostatPlan | null;
        const problems = plan ? problemsIn(plan, unit) : [];
        const state = item.planState ?? 'pending';
        return (
          <li
            key={item.thermostatId}
            className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700"
          >
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <Link href={`/thermostats/${item.thermostatId}`} className="font-medium underline">
                {item.unitLabel || item.thermostatId}
              </Link>
              <span className="text-muted">{item.buildingName ?? item.buildingId}</span>
              <span
                className={
                  state === 'blocked'
                    ? 'font-medium text-amber-800 dark:text-amber-300'
                    : state === 'changes'
                      ? 'font-medium'
                      : 'text-muted'
                }
              >
                {STATE_WORDS[state]}
                {state === 'changes' && plan ? `: ${plural(plan.operations.length, 'call')}` : ''}
              </span>
            </div>
            {plan?.warnings?.map((warning) => (
              <p key={warning} className="mt-1 font-semibold text-red-800 dark:text-red-300">
                {warning}
              </p>
            ))}
            {item.warning ? (
              <p className="mt-1 text-amber-800 dark:text-amber-300">{item.warning}</p>
            ) : null}
            {problems.length ? (
              <ul className="mt-1 list-disc pl-5">
                {problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            ) : null}
            {plan && plan.diff.length > 0 ? (
              <details className="mt-2">
                <summary className="cursor-pointer text-muted">
                  {plan.diff.map((section) => section.title).join(', ')}
                </summary>
                <div className="mt-2 grid gap-3">
                  {plan.diff.map((section) => (
                    <div key={section.section}>
                      <p className="font-medium">
                        {section.title}: <span className="font-normal">{section.summary}</span>
                      </p>
                      <ul className="mt-1 grid gap-1">
                        {sectionLines(section, unit).map((line) => (
                          <li
                            key={`${line.field}:${line.before}:${line.after}`}
                            className="break-words"
                          >
                            <span className="text-muted">{line.field}:</span> {line.before} →{' '}
                            <strong className="font-medium">{line.after}</strong>
                          </li>
                        ))}
                      </ul>
                    </div>
                  ))}
                </div>
              </details>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
