'use client';

import type { FormAction } from '@/lib/platform/forms';
import { ButtonForm } from './button-form';
import { ConfirmSummary } from './confirm-disclosure';

/**
 * An action that ends something (remove, withdraw, leave) behind a second step, with or without
 * JavaScript: "{label}…" opens what will happen, in words, and the one button that does it; the
 * answer shows in its place.
 */
export function ConfirmForm({
  action,
  label,
  question,
  pending,
}: {
  action: FormAction;
  label: string;
  question: string;
  pending: string;
}) {
  return (
    <details className="group">
      <ConfirmSummary>{label}…</ConfirmSummary>
      <div className="mt-2 rounded-lg border border-red-200 p-3 dark:border-red-900">
        <ButtonForm
          action={action}
          label={label}
          question={question}
          pending={pending}
          variant="danger"
          once
        />
      </div>
    </details>
  );
}
