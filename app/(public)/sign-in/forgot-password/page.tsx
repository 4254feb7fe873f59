import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { ForgotPasswordForm } from '@/components/auth/forgot-password-form';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { NO_EMAIL } from '@/lib/auth/password-reset';
import { rememberedSignInEmail } from '@/lib/auth/sign-in-email';
import { countUsers } from '@/lib/auth/store';
import { emailEnabled } from '@/lib/platform/email';
import { requestPasswordResetAction } from './actions';

export const metadata: Metadata = { title: 'Forgot your password?' };

/**
 * Asks for a link to choose a new password, sent to the account's email. Where email is off it
 * says who can issue a link instead (the operator's `npm run password:reset`).
 */
export default async function ForgotPasswordPage() {
  await connection();
  if ((await countUsers()) === 0) redirect('/setup');
  const email = await rememberedSignInEmail();
  return (
    <Card className="grid gap-4">
      <div>
        <h1 className="text-xl font-semibold">Forgot your password?</h1>
        <p className="mt-1 text-sm text-muted">
          Enter the email you sign in with. We send it a link to choose a new password; the link
          works once, for 30 minutes.
        </p>
      </div>
      {emailEnabled() ? (
        <ForgotPasswordForm action={requestPasswordResetAction} email={email} />
      ) : (
        <Notice tone="info">{NO_EMAIL}</Notice>
      )}
      <Link href="/sign-in" className="text-sm underline">
        Back to sign-in
      </Link>
    </Card>
  );
}
