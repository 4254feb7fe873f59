'use client';

import { useActionState } from 'react';
import type { FormAction, FormState } from '@/lib/platform/forms';
import { FormMessage } from './form-parts';
import { SubmitButton } from './submit-button';

const idle: FormState = { status: 'idle' };

/**
 * One action behind one button (send a test, resume, remove a member), its answer above it. With
 * `question`, what will happen is said in words beside the button; with `once`, a success leaves
 * only the answer (the thing acted on is gone), otherwise the button stays to act again.
 */
export function ButtonForm({
  action: bound,
  label,
  name = label,
  pending,
  variant = 'secondary',
  question,
  once = false,
}: {
  action: FormAction;
  label: string;
  /** The form's name, where many on one page share a label (a form's name must be unique). */
  name?: string;
  pending: string;
  variant?: 'secondary' | 'danger';
  question?: string;
  once?: boolean;
}) {
  const [state, action] = useActionState(bound, idle);
  if (once && state.status === 'success') return <FormMessage state={state} />;
  return (
    <form action={action} className="grid gap-2" aria-label={name}>
      <FormMessage state={state} />
      {question ? <p className="text-sm">{question}</p> : null}
      <div>
        <SubmitButton pending={pending} variant={variant}>
          {label}
        </SubmitButton>
      </div>
    </form>
  );
}
