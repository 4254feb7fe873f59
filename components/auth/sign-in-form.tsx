import { EmailField } from '@/components/auth/account-fields';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';

/** What each of next-auth's error codes (and ours, thrown from `authorize`) means to a person. */
const MESSAGES: Record<string, string> = {
  CredentialsSignin: 'That email and password do not match an account.',
  TooManyAttempts:
    'Too many failed sign-in attempts. Wait 15 minutes, then try again, ask an owner or admin to let you in, or choose a new password with “Forgot password?”.',
  NoMembership:
    'This account is no longer a member of an organisation on Setpoint. Ask an owner or admin to invite you again.',
  AccessDenied:
    'Company sign-in worked, but no organisation on Setpoint has invited that email. Ask an owner or admin of your organisation for an invitation.',
  SeveralInvitations:
    'More than one organisation on Setpoint has invited that email. Open the invitation you mean to accept and sign in with company SSO from its page.',
  OAuthSignin: 'Company sign-in did not complete. Please try again.',
  OAuthCallback: 'Company sign-in did not complete. Please try again.',
  MissingCSRF: 'This sign-in form had expired. Please sign in again.',
};

/**
 * Plain HTML forms posting to next-auth (its credentials sign-in, through /sign-in/submit, and
 * its company SSO sign-in), with next-auth's CSRF token: they work the same with JavaScript off.
 * The answer is a redirect: to the page asked for, or back here with an error code.
 */
export function SignInForm({
  callbackUrl,
  email,
  csrfToken,
  error,
  sso,
}: {
  callbackUrl: string;
  email: string;
  csrfToken: string;
  error: string | null;
  sso: string | null;
}) {
  const message = error
    ? (MESSAGES[error] ?? 'Sign-in is unavailable right now. Please try again.')
    : null;
  return (
    <div className="grid gap-6">
      <form method="post" action="/sign-in/submit" className="grid gap-4" aria-label="Sign in">
        {message ? <Notice tone="error">{message}</Notice> : null}
        <input type="hidden" name="csrfToken" value={csrfToken} />
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <EmailField defaultValue={email} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <Button type="submit">Sign in</Button>
        <Link href="/sign-in/forgot-password" className="justify-self-start text-sm underline">
          Forgot password?
        </Link>
      </form>
      {sso ? (
        <form
          method="post"
          action="/api/auth/signin/oidc"
          className="grid gap-3 border-t border-slate-200 pt-5 dark:border-slate-800"
        >
          <input type="hidden" name="csrfToken" value={csrfToken} />
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <Button type="submit" variant="secondary">
            Sign in with {sso}
          </Button>
        </form>
      ) : null}
    </div>
  );
}
