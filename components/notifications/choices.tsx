import { BuildingCheckboxes, type BuildingChoice } from '@/components/ui/building-checkboxes';
import { ErrorList } from '@/components/ui/form-parts';

/**
 * The choices a subscription and a webhook share: which kinds of incident, and which buildings.
 * Plain checkboxes and radio buttons, so the forms post without JavaScript.
 */

export type KindChoice = { kind: string; name: string; help: string; off: boolean };
export type { BuildingChoice };

const boxClass = 'mt-0.5 size-4 shrink-0 accent-brand-600';
const frameClass = 'grid gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800';

export function KindChoices({
  idPrefix,
  kinds,
  chosen,
  errors,
  legend = 'Which incidents',
}: {
  idPrefix: string;
  kinds: KindChoice[];
  chosen: readonly string[];
  errors?: string[];
  legend?: string;
}) {
  return (
    <fieldset className={frameClass} aria-describedby={`${idPrefix}-kinds-errors`}>
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {kinds.map((choice) => (
          <div key={choice.kind} className="flex items-start gap-2">
            <input
              id={`${idPrefix}-kind-${choice.kind}`}
              type="checkbox"
              name="kinds"
              value={choice.kind}
              defaultChecked={chosen.includes(choice.kind)}
              aria-describedby={`${idPrefix}-kind-${choice.kind}-hint`}
              className={boxClass}
            />
            <div className="grid gap-0.5">
              <label htmlFor={`${idPrefix}-kind-${choice.kind}`} className="text-sm font-medium">
                {choice.name}
              </label>
              <p id={`${idPrefix}-kind-${choice.kind}-hint`} className="text-xs text-muted">
                {choice.off ? 'Turned off for the organisation. ' : ''}
                {choice.help}
              </p>
            </div>
          </div>
        ))}
      </div>
      <ErrorList id={`${idPrefix}-kinds-errors`} errors={errors} />
    </fieldset>
  );
}

export function BuildingChoices({
  idPrefix,
  buildings,
  scope,
  chosen,
  allLabel,
  errors,
}: {
  idPrefix: string;
  buildings: BuildingChoice[];
  scope: 'all' | 'chosen';
  chosen: readonly string[];
  allLabel: string;
  errors?: string[];
}) {
  return (
    <fieldset className={frameClass} aria-describedby={`${idPrefix}-buildings-errors`}>
      <legend className="px-1 text-sm font-semibold">Which buildings</legend>
      <div className="flex flex-wrap gap-4">
        {(
          [
            ['all', allLabel],
            ['chosen', 'Only those ticked below'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex min-h-10 items-center gap-2 text-sm">
            <input
              type="radio"
              name="buildingScope"
              value={value}
              defaultChecked={scope === value}
              className="size-4 accent-brand-600"
            />
            {label}
          </label>
        ))}
      </div>
      <BuildingCheckboxes buildings={buildings} chosen={chosen} empty="No buildings yet." />
      <ErrorList id={`${idPrefix}-buildings-errors`} errors={errors} />
    </fieldset>
  );
}

/** A comma-joined list refilled from a form's state, or the initial list. */
export const listOf = (refill: string | undefined, initial: readonly string[]) =>
  refill === undefined ? initial : refill.split(',').filter(Boolean);
