import type { Metadata } from 'next';
import { connection } from 'next/server';
import { ResetPasswordForm } from '@/components/auth/reset-password-form';
import { Card } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { RESET_PROBLEMS, readPasswordReset } from '@/lib/auth/password-reset';
import { emailEnabled } from '@/lib/platform/email';
import { resetPasswordAction } from './actions';

// The token in this page's address goes to no other site: Referrer-Policy is same-origin
// everywhere. Opening the page spends nothing (mail scanners open links): only the form does.
export const metadata: Metadata = { title: 'Choose a new password' };

/** A reset link's page: a form for the new password, or why the link cannot be used. */
export default async function ResetPasswordPage({
  params,
}: {
  params: Promise<{ token: string }>;
}) {
  await connection();
  const { token } = await params;
  const read = await readPasswordReset(token);
  if (!read.ok) {
    return (
      <Card className="grid gap-4">
        <h1 className="text-xl font-semibold">This link cannot be used</h1>
        <Notice tone="error">{RESET_PROBLEMS[read.problem]}</Notice>
        <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {emailEnabled() ? (
            <Link href="/sign-in/forgot-password" className="underline">
              Ask for a new link
            </Link>
          ) : null}
          <Link href="/sign-in" className="underline">
            Go to sign-in
          </Link>
        </div>
      </Card>
    );
  }
  const { account } = read;
  return (
    <Card className="grid gap-4">
      <div>
        <h1 className="text-xl font-semibold">Choose a new password</h1>
        <p className="mt-1 text-sm text-muted">
          For <strong className="break-all">{account.email}</strong> at {account.orgName}. Saving it
          signs this account out everywhere; then you sign in with the new password.
        </p>
      </div>
      <ResetPasswordForm action={resetPasswordAction.bind(null, token)} email={account.email} />
    </Card>
  );
}
