import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { SignInForm } from '@/components/auth/sign-in-form';
import { Card } from '@/components/ui/card';
import { Notice } from '@/components/ui/notice';
import { CSRF_HEADER } from '@/lib/auth/csrf';
import { ssoDisplayName } from '@/lib/auth/options';
import { safeReturnPath } from '@/lib/platform/return-path';
import { getCurrentMember } from '@/lib/auth/session';
import { rememberedSignInEmail } from '@/lib/auth/sign-in-email';
import { countUsers } from '@/lib/auth/store';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection();
  if ((await countUsers()) === 0) redirect('/setup');
  const params = await searchParams;
  const callbackUrl = safeReturnPath(params.callbackUrl);
  if (await getCurrentMember()) redirect(callbackUrl);
  const email = await rememberedSignInEmail();

  return (
    <Card>
      <h1 className="text-xl font-semibold">Sign in</h1>
      <p className="mt-1 mb-6 text-sm text-muted">Use the account your team set up for Setpoint.</p>
      {params.setup === 'done' ? (
        <div className="mb-4">
          <Notice tone="success">Your account is ready. Sign in to continue.</Notice>
        </div>
      ) : null}
      {params.reset === 'done' ? (
        <div className="mb-4">
          <Notice tone="success">
            Your new password is saved, and every session of your account is signed out. Sign in
            with the new password.
          </Notice>
        </div>
      ) : null}
      {params.joined === '1' ? (
        <div className="mb-4">
          <Notice tone="success">You have joined. Sign in with your new password.</Notice>
        </div>
      ) : null}
      {params.sso === 'invitation' ? (
        <div className="mb-4">
          <Notice tone="info">
            Sign in with company SSO below: you join the organisation that invited you.
          </Notice>
        </div>
      ) : null}
      {params.left === '1' ? (
        <div className="mb-4">
          <Notice tone="info">You have left the organisation and are signed out.</Notice>
        </div>
      ) : null}
      <SignInForm
        callbackUrl={callbackUrl}
        email={email}
        csrfToken={(await headers()).get(CSRF_HEADER) ?? ''}
        error={typeof params.error === 'string' ? params.error.slice(0, 40) : null}
        sso={ssoDisplayName()}
      />
    </Card>
  );
}
