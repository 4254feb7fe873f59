'use client';

import type { ReactNode } from 'react';
import { useFormStatus } from 'react-dom';
import { Button } from './button';

/** A form's submit button: disabled, with its pending words, while the form is being sent. */
export function SubmitButton({
  children,
  pending: pendingText,
  variant = 'primary',
}: {
  children: ReactNode;
  /** What it says while the form is sent, e.g. "Inviting…". */
  pending: string;
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
}) {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" variant={variant} disabled={pending}>
      {pending ? pendingText : children}
    </Button>
  );
}
