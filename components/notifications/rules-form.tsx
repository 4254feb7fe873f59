'use client';

import { useActionState } from 'react';
import { ErrorSummary } from '@/components/ui/error-summary';
import { ErrorList } from '@/components/ui/form-parts';
import { SubmitButton } from '@/components/ui/submit-button';
import type { FormAction, FormState } from '@/lib/platform/forms';

const idle: FormState = { status: 'idle' };

export type RuleRow = {
  kind: string;
  name: string;
  help: string;
  urgent: boolean;
  enabled: boolean;
  delayMinutes: number;
};

/** The organisation's rules: a kind on or off, and how long its cause stands before anyone hears. */
export function RulesForm({ action: bound, rules }: { action: FormAction; rules: RuleRow[] }) {
  const [state, action] = useActionState(bound, idle);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="grid gap-4" aria-label="Notification rules" noValidate>
      <ErrorSummary
        state={state}
        level={3}
        fields={Object.fromEntries(
          rules.map((rule) => [
            `delay-${rule.kind}`,
            { label: `${rule.name}: tell after (minutes)`, id: `delay-${rule.kind}` },
          ]),
        )}
      />
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {rules.map((rule) => {
          const delay = `delay-${rule.kind}`;
          return (
            <li key={rule.kind} className="grid gap-2 p-3 sm:grid-cols-[1fr_12rem] sm:items-start">
              <div className="flex items-start gap-2">
                <input
                  id={`rule-${rule.kind}`}
                  type="checkbox"
                  name="enabled"
                  value={rule.kind}
                  defaultChecked={rule.enabled}
                  aria-describedby={`rule-${rule.kind}-hint`}
                  className="mt-0.5 size-4 shrink-0 accent-brand-600"
                />
                <div className="grid gap-0.5">
                  <label htmlFor={`rule-${rule.kind}`} className="text-sm font-medium">
                    {rule.name}
                    {rule.urgent ? <span className="text-muted"> (urgent)</span> : null}
                  </label>
                  <p id={`rule-${rule.kind}-hint`} className="text-xs text-muted">
                    {rule.help}
                  </p>
                </div>
              </div>
              <div className="grid gap-1">
                <label htmlFor={delay} className="text-sm font-medium">
                  Tell after (minutes)<span className="sr-only"> of {rule.name}</span>
                </label>
                <input
                  id={delay}
                  name={delay}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={1440}
                  defaultValue={rule.delayMinutes}
                  aria-invalid={errors[delay]?.length ? true : undefined}
                  aria-describedby={`${delay}-errors`}
                  className="min-h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-base sm:text-sm dark:border-slate-700 dark:bg-slate-900"
                />
                <ErrorList id={`${delay}-errors`} errors={errors[delay]} />
              </div>
            </li>
          );
        })}
      </ul>
      <div>
        <SubmitButton pending="Saving…" variant="secondary">
          Save rules
        </SubmitButton>
      </div>
    </form>
  );
}
