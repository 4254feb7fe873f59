import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { SignInForm } from '@/components/auth/sign-in-form';
import { Card } from '@/components/ui/card';
import { RedirectNotice } from '@/components/ui/redirect-notice';
import { CSRF_HEADER } from '@/lib/auth/csrf';
import { ssoDisplayName } from '@/lib/auth/options';
import { readNotice } from '@/lib/platform/notice';
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
  // Said before anyone is signed in (an account made, a password changed, an invitation
  // accepted, the organisation left): made for anyone, and carrying no words of the address.
  const notice = readNotice(params, 'anyone');

  return (
    <Card>
      <h1 className="text-xl font-semibold">Sign in</h1>
      <p className="mt-1 mb-6 text-sm text-muted">Use the account your team set up for Setpoint.</p>
      {notice ? (
        <div className="mb-4">
          <RedirectNotice notice={notice} />
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
