'use client';

import { signIn } from 'next-auth/react';
import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';

type State = { error?: string; email: string };

const MESSAGES: Record<string, string> = {
  CredentialsSignin: 'That email and password do not match an account.',
  TooManyAttempts:
    'Too many failed sign-in attempts. Wait 15 minutes, then try again, or ask your administrator.',
  NoMembership:
    'This account is no longer a member of an organisation on Setpoint. Ask an owner or admin to invite you again.',
};

export function SignInForm({
  callbackUrl,
  email,
  sso,
}: {
  callbackUrl: string;
  email: string;
  sso: string | null;
}) {
  const [state, submit, pending] = useActionState(
    async (_previous: State, form: FormData): Promise<State> => {
      const values = { email: String(form.get('email') ?? ''), password: form.get('password') };
      const result = await signIn('credentials', { ...values, redirect: false, callbackUrl });
      if (result?.ok && !result.error) {
        window.location.assign(callbackUrl);
        return { email: values.email };
      }
      const error =
        MESSAGES[result?.error ?? ''] ?? 'Sign-in is unavailable right now. Please try again.';
      return { error, email: values.email };
    },
    { email },
  );

  return (
    <div className="grid gap-6">
      <form action={submit} className="grid gap-4" noValidate>
        {state.error ? <Notice tone="error">{state.error}</Notice> : null}
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={state.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <Button type="submit" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {sso ? (
        <div className="grid gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
          <Button variant="secondary" onClick={() => signIn('oidc', { callbackUrl })}>
            Sign in with {sso}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
