'use client';

import type { FormAction } from '@/lib/forms';
import { ButtonForm } from './button-form';

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
      <summary className="inline-flex min-h-10 cursor-pointer list-none items-center rounded-lg px-3 text-sm font-medium text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950 [&::-webkit-details-marker]:hidden">
        {label}…
      </summary>
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
